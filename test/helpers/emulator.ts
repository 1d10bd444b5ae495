/** In-process emulator on a free port, plus a client for it. Real HTTP, no mocks. */
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { GuardrailsClient, type GuardrailsClientOptions } from "../../provider/client";
import { http } from "./spawn-emulator";

export const TEST_KEY = "test-management-key-7f3a";

export async function withEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator & { client: (o?: Partial<GuardrailsClientOptions>) => GuardrailsClient; log: () => Promise<LogSummary>; clearLog: () => Promise<void>; setFaults: (f: Record<string, unknown>) => Promise<void> }> {
  const emu = await startEmulator({ managementKeys: [TEST_KEY], ...options });
  const admin = http(emu.url);
  return {
    ...emu,
    client: (o = {}) => new GuardrailsClient({ baseUrl: emu.url, apiKey: TEST_KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...o }),
    log: async () => (await admin("GET", "/__emulator/log")).body as LogSummary,
    clearLog: async () => void (await admin("DELETE", "/__emulator/log")),
    setFaults: async (f) => void (await admin("PUT", "/__emulator/faults", f)),
  };
}

export interface LogSummary {
  total: number;
  writes: number;
  counts: Record<string, number>;
  entries: Array<{ method: string; path: string; query: string; operation: string | null; status: number; fault?: string }>;
  /** Entries dropped by the log's cap (counts stay exact). */
  dropped: number;
  cap: number;
}
