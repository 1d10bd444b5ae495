/**
 * Programmatic entry: `startEmulator(options)` from `pulumi-guardrails/emulator`.
 */
import { DEFAULT_MODELS, type CatalogueModel } from "./catalogue";
import type { FaultSettings } from "./faults";
import type { LogEntry } from "./request-log";
import { ADMIN_HEADER } from "./admin";
import { LIMITS } from "./rules";
import { createEmulatorServer, type EmulatorServer } from "./server";

/** Header an admin call must carry (the emulator's own endpoints under `/__emulator`). */
export { ADMIN_HEADER } from "./admin";
/** Entries the request log keeps before it drops the oldest (counts stay exact). */
export { REQUEST_LOG_CAP } from "./request-log";

/** Faults the emulator can inject (errors, drops after apply, rate limits, 409s). */
export type { FaultSettings } from "./faults";
/** One request as the log records it (redacted body included). */
export type { LogEntry } from "./request-log";
/** A model of the emulator's catalogue: slug and canonical slug. */
export type { CatalogueModel } from "./catalogue";
/** The catalogue the emulator starts with. */
export { DEFAULT_MODELS } from "./catalogue";

/** The management key the emulator accepts when none is configured. Documented in README. */
export const DEMO_MANAGEMENT_KEY = "gr-demo-management-key";
/** The default workspace's id unless `defaultWorkspaceId` says otherwise. */
export const DEMO_DEFAULT_WORKSPACE = "00000000-0000-4000-8000-000000000001";
/** An extra workspace the demo start-up adds. */
export const DEMO_EXTRA_WORKSPACE = "00000000-0000-4000-8000-000000000002";
/** Members of the demo organization. */
export const DEMO_MEMBERS = ["user_alice", "user_bob", "user_carol", "user_dave", "user_erin", "user_frank"];
/** Key hashes of the demo organization. */
export const DEMO_KEY_HASHES = ["a1b2c3d4e5f60718", "b2c3d4e5f6071829", "c3d4e5f60718293a", "d4e5f60718293a4b"];

/** How to start an emulator: port, state file, catalogue, members, keys and faults. */
export interface EmulatorOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /** Management keys. @default [DEMO_MANAGEMENT_KEY] */
  managementKeys?: string[];
  /** Valid keys that are not management keys (403 on guardrail operations). @default [] */
  keys?: string[];
  /** Organization member user ids. @default DEMO_MEMBERS */
  members?: string[];
  /** Key hashes in the organization. @default DEMO_KEY_HASHES */
  keyHashes?: string[];
  /** Extra workspaces beside the default one. @default [DEMO_EXTRA_WORKSPACE] */
  workspaces?: string[];
  /** @default DEMO_DEFAULT_WORKSPACE */
  defaultWorkspaceId?: string;
  /** Per-request maximum of bulk bodies. @default 500 */
  maxBulk?: number;
  /** Model catalogue. @default DEFAULT_MODELS */
  models?: CatalogueModel[];
  /** Persist here, atomically; a restart with the same file loses nothing. @default in memory only */
  stateFile?: string;
  /** Fault injection. @default none */
  faults?: Partial<FaultSettings>;
  /** Request bodies above this many bytes get 413. @default 1 MiB */
  maxBodyBytes?: number;
  /** Print a line per API call. @default false */
  logRequests?: boolean;
}

/** A running emulator: its URLs, its internals for tests, and `close()`. */
export interface RunningEmulator {
  /** `http://HOST:PORT`; the API is under `${url}/api/v1`. */
  url: string;
  close(): Promise<void>;
  /** The server's internals, for in-process tests. */
  internals: EmulatorServer;
}

/** Starts the management API emulator on `options.port` (0: a free port) and resolves once it listens. The default backend of the demo and of every test. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const internals = createEmulatorServer({
    managementKeys: options.managementKeys ?? [DEMO_MANAGEMENT_KEY],
    plainKeys: options.keys ?? [],
    seed: {
      defaultWorkspaceId: options.defaultWorkspaceId ?? DEMO_DEFAULT_WORKSPACE,
      workspaces: options.workspaces ?? [DEMO_EXTRA_WORKSPACE],
      members: options.members ?? DEMO_MEMBERS,
      keyHashes: options.keyHashes ?? DEMO_KEY_HASHES,
      models: options.models ?? DEFAULT_MODELS,
    },
    ...(options.stateFile ? { stateFile: options.stateFile } : {}),
    maxBulk: options.maxBulk ?? LIMITS.bulkDefault,
    maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
    faults: options.faults ?? {},
    logRequests: options.logRequests ?? false,
  });
  const url = await internals.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  return {
    url,
    internals,
    close: () =>
      new Promise<void>((resolve, reject) => {
        internals.server.closeAllConnections();
        internals.server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** Reads the emulator's request log over HTTP (for tests that run it as a separate process). */
export async function fetchRequestLog(
  url: string,
): Promise<{ total: number; writes: number; counts: Record<string, number>; entries: LogEntry[] }> {
  const res = await fetch(`${url}/__emulator/log`, { headers: { [ADMIN_HEADER]: "1" } });
  return (await res.json()) as Awaited<ReturnType<typeof fetchRequestLog>>;
}
