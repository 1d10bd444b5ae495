#!/usr/bin/env node
/**
 * `guardrails-emulator`: the local management API. The first stdout line holds the URL.
 */
import { parseArgs } from "node:util";
import { loadCatalogue } from "./catalogue";
import { DEMO_MANAGEMENT_KEY, startEmulator } from "./index";

const HELP = `guardrails-emulator: a local, faithful guardrails management API

  --port N                 port (0 picks a free one)                    default 8787
  --host H                 address to bind                              default 127.0.0.1
  --management-key K       a management key (repeatable)                default ${DEMO_MANAGEMENT_KEY}
  --key K                  a valid key that is not a management key (repeatable)
  --members a,b            organization member user ids                 default demo members
  --key-hashes h1,h2       key hashes in the organization               default demo hashes
  --workspaces u1,u2       extra workspaces (UUIDs)                     default one demo workspace
  --default-workspace U    the default workspace's UUID
  --max-bulk N             per-request maximum of bulk bodies           default 500
  --models FILE            JSON array of {slug, canonical_slug} replacing the built-in catalogue
  --state-file PATH        persist state here (atomic writes)
  --log-requests           print a line per API call
faults (deterministic with --seed):
  --seed N                 fault generator seed                         default 1
  --error-rate R           share of calls answered 5xx, 0..1
  --rate-limit-rate R      chance a call starts a burst of 429s, 0..1
  --rate-limit-burst N     429s per burst                               default 3
  --retry-after S          Retry-After seconds on 429                   default 1
  --latency-ms N           added latency per call
  --drop-after-apply R     share of writes applied, then the connection destroyed, 0..1
  --short-pages            keep removed rows in list windows so pages come back short
  --update-conflicts N     the next N valid updates answer 409 Conflict (rule 15)
`;

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
}

function number(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new Error(`--${name} must be a number from ${min} to ${max} (got "${value}")`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      help: { type: "boolean", short: "h" },
      port: { type: "string" },
      host: { type: "string" },
      "management-key": { type: "string", multiple: true },
      key: { type: "string", multiple: true },
      members: { type: "string" },
      "key-hashes": { type: "string" },
      workspaces: { type: "string" },
      "default-workspace": { type: "string" },
      "max-bulk": { type: "string" },
      models: { type: "string" },
      "state-file": { type: "string" },
      "log-requests": { type: "boolean" },
      seed: { type: "string" },
      "error-rate": { type: "string" },
      "rate-limit-rate": { type: "string" },
      "rate-limit-burst": { type: "string" },
      "retry-after": { type: "string" },
      "latency-ms": { type: "string" },
      "drop-after-apply": { type: "string" },
      "short-pages": { type: "boolean" },
      "update-conflicts": { type: "string" },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const faults = Object.fromEntries(
    Object.entries({
      seed: number("seed", values.seed, 0, 2 ** 32),
      errorRate: number("error-rate", values["error-rate"], 0, 1),
      rateLimitRate: number("rate-limit-rate", values["rate-limit-rate"], 0, 1),
      rateLimitBurst: number("rate-limit-burst", values["rate-limit-burst"], 1, 1e6),
      retryAfterSeconds: number("retry-after", values["retry-after"], 0, 3600),
      latencyMs: number("latency-ms", values["latency-ms"], 0, 60_000),
      dropAfterApplyRate: number("drop-after-apply", values["drop-after-apply"], 0, 1),
      shortPages: values["short-pages"],
      updateConflicts: number("update-conflicts", values["update-conflicts"], 0, 1e9),
    }).filter(([, v]) => v !== undefined),
  );
  const members = list(values.members);
  const keyHashes = list(values["key-hashes"]);
  const workspaces = list(values.workspaces);
  const maxBulk = number("max-bulk", values["max-bulk"], 1, 1e6);
  const emulator = await startEmulator({
    port: number("port", values.port, 0, 65535) ?? 8787,
    host: values.host ?? "127.0.0.1",
    ...(values["management-key"] ? { managementKeys: values["management-key"] } : {}),
    ...(values.key ? { keys: values.key } : {}),
    ...(members ? { members } : {}),
    ...(keyHashes ? { keyHashes } : {}),
    ...(workspaces ? { workspaces } : {}),
    ...(values["default-workspace"] ? { defaultWorkspaceId: values["default-workspace"] } : {}),
    ...(maxBulk !== undefined ? { maxBulk } : {}),
    ...(values.models ? { models: loadCatalogue(values.models) } : {}),
    ...(values["state-file"] ? { stateFile: values["state-file"] } : {}),
    faults,
    logRequests: values["log-requests"] ?? false,
  });
  const usingDemoKey = !values["management-key"];
  process.stdout.write(`guardrails-emulator listening on ${emulator.url} (API at ${emulator.url}/api/v1)\n`);
  if (usingDemoKey) process.stdout.write(`demo management key: ${DEMO_MANAGEMENT_KEY}\n`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((err: Error) => {
  process.stderr.write(`guardrails-emulator: ${err.message}\n`);
  process.exit(2);
});
