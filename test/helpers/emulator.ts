/** In-process emulator on a free port, plus a client for it. Real HTTP, no mocks. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";
import { GuardrailsClient, type GuardrailsClientOptions } from "../../src/core/client";
import { configure, resetConfiguration } from "../../src/core/settings/config";
import { http } from "./spawn-emulator";

export const TEST_KEY = "test-management-key-7f3a";
/** The emulator's two workspaces: its default one, and the second. */
export { DEMO_DEFAULT_WORKSPACE as DEFAULT_WS, DEMO_EXTRA_WORKSPACE as W2 } from "../../emulator";

export async function withEmulator(options: EmulatorOptions = {}): Promise<
  RunningEmulator & {
    client: (o?: Partial<GuardrailsClientOptions>) => GuardrailsClient;
    log: () => Promise<LogSummary>;
    clearLog: () => Promise<void>;
    setFaults: (f: Record<string, unknown>) => Promise<void>;
  }
> {
  const emu = await startEmulator({ managementKeys: [TEST_KEY], ...options });
  const admin = http(emu.url);
  return {
    ...emu,
    client: (o = {}) =>
      new GuardrailsClient({ baseUrl: emu.url, apiKey: TEST_KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...o }),
    log: async () => (await admin("GET", "/__emulator/log")).body as LogSummary,
    clearLog: async () => void (await admin("DELETE", "/__emulator/log")),
    setFaults: async (f) => void (await admin("PUT", "/__emulator/faults", f)),
  };
}

export type TestEmulator = Awaited<ReturnType<typeof withEmulator>>;

/** Configures the provider afresh: the test key, `url` as the base URL, plus any other `guardrails:*` settings. */
export function configureProvider(url: string, extra: Record<string, string> = {}): void {
  resetConfiguration();
  configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": url, ...extra })[k]);
}

/**
 * The set-up of a provider test file: one in-process emulator for the file (started in
 * beforeAll, closed in afterAll) and, before each test, the provider configured afresh against
 * it with `config` added; `options` go to the emulator. With `resetFaults`, every fault rate goes back to 0 after each test.
 * Answers the emulator; its fields are filled in when beforeAll has run.
 */
export function useProviderEmulator(
  config: Record<string, string> = {},
  o: { resetFaults?: boolean; options?: EmulatorOptions } = {},
): TestEmulator {
  const emu = {} as TestEmulator;
  beforeAll(async () => {
    Object.assign(emu, await withEmulator(o.options));
  });
  afterAll(() => emu.close());
  beforeEach(() => configureProvider(emu.url, config));
  if (o.resetFaults) afterEach(() => emu.setFaults({ errorRate: 0, dropAfterApplyRate: 0, rateLimitRate: 0 }));
  return emu;
}

export interface LogSummary {
  total: number;
  writes: number;
  counts: Record<string, number>;
  /** `body` is the request's JSON body, redacted (no key ever); see emulator/request-log.ts for the bounds. */
  entries: Array<{
    method: string;
    path: string;
    query: string;
    operation: string | null;
    status: number;
    fault?: string;
    /** Arrival, ms since the epoch, and the latency added before the answer. */
    receivedAt?: number;
    delayedMs?: number;
    body?: unknown;
    bodyTruncated?: string;
    bodyDropped?: true;
  }>;
  /** Entries dropped by the log's cap (counts stay exact). */
  dropped: number;
  cap: number;
}

/**
 * How to reshape a stored guardrail by hand: `set` overwrites or adds raw fields (any JSON: a
 * null workspace, an unknown slug or interval, extra fields), `remove` deletes keys. `id`, `name`
 * and `created_at` stay (docs/api-contract.md rule 10).
 */
export interface GuardrailReshape {
  set?: Record<string, unknown>;
  remove?: string[];
}

/**
 * Makes a stored guardrail hold a shape the real service may send and the API would never write
 * (docs/api-contract.md rules 10-12), through `PATCH /__emulator/guardrails/{id}`. GET and list
 * serve it as stored from then on. Answers the stored guardrail; throws on any refusal.
 * Works on an in-process emulator and on a spawned one alike (`url` without `/api/v1`).
 */
export async function reshapeGuardrail(
  url: string,
  id: string,
  change: GuardrailReshape,
): Promise<Record<string, unknown>> {
  const res = await http(url)("PATCH", `/__emulator/guardrails/${encodeURIComponent(id)}`, change);
  if (res.status !== 200)
    throw new Error(`reshaping guardrail ${id} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: Record<string, unknown> }).data;
}

/** A temp folder for one test file, made now and removed after its tests. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
