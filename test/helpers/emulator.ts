/** In-process emulator on a free port, plus a client for it. Real HTTP, no mocks. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { GuardrailsClient, type GuardrailsClientOptions } from "../../provider/client";

export const TEST_KEY = "test-management-key-7f3a";

export async function withEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator & { client: (o?: Partial<GuardrailsClientOptions>) => GuardrailsClient; log: () => Promise<LogSummary>; clearLog: () => Promise<void>; setFaults: (f: Record<string, unknown>) => Promise<void> }> {
  const emu = await startEmulator({ managementKeys: [TEST_KEY], ...options });
  return {
    ...emu,
    client: (o = {}) => new GuardrailsClient({ baseUrl: emu.url, apiKey: TEST_KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...o }),
    log: async () => (await (await fetch(`${emu.url}/__emulator/log`)).json()) as LogSummary,
    clearLog: async () => void (await fetch(`${emu.url}/__emulator/log`, { method: "DELETE" })),
    setFaults: async (f) => void (await fetch(`${emu.url}/__emulator/faults`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(f) })),
  };
}

export interface LogSummary {
  total: number;
  writes: number;
  counts: Record<string, number>;
  entries: Array<{ method: string; path: string; query: string; operation: string | null; status: number; fault?: string }>;
}
