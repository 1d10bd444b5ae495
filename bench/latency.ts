/**
 * `node dist/bench/latency.js`: the first latency measurement of issue 29. The provider's own
 * create and read of one member set (memberAssignment, as the engine calls it, in this
 * process) against the emulator with `--latency-ms` per call, at concurrency 1 and 4. For
 * each: the calls, the wall time, the limit `(1 + ceil(rest / concurrency)) × latency` (the
 * first list page must come back before the rest can go out) and the ratio of the two.
 * Figures only; nothing here asserts a time. Not yet the full table of the issue (the Pulumi
 * CLI runs of run.ts at N = 1,000 to 100,000): the next step.
 * Env: LATENCY_N (10000), LATENCY_MS (100), LATENCY_CONCURRENCY ("1,4").
 */
import { memberAssignment } from "../src/dynamic/internal";
import { configure, resetConfiguration } from "../src/core/settings/config";
import { http, spawnEmulator } from "../support/spawn-emulator";

const N = Number(process.env.LATENCY_N ?? 10_000);
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 100);
const LEVELS = (process.env.LATENCY_CONCURRENCY ?? "1,4").split(",").map(Number);
const KEY = "bench-management-key-0123456789";
const MAX_BULK = 500;
const PAGE = 100;

interface Measure {
  op: "create" | "refresh";
  concurrency: number;
  calls: number;
  ms: number;
  limitMs: number;
}

/** Calls after the first (a list page both ways) go out `concurrency` at a time. */
const limitMs = (rest: number, concurrency: number) => (1 + Math.ceil(rest / concurrency)) * LATENCY_MS;

async function measure(concurrency: number): Promise<Measure[]> {
  const emu = await spawnEmulator([
    "--management-key",
    KEY,
    "--max-bulk",
    String(MAX_BULK),
    "--members",
    "user_seed",
    "--latency-ms",
    String(LATENCY_MS),
  ]);
  try {
    const admin = http(emu.url, KEY);
    const ids = Array.from({ length: N }, (_, i) => `user_${String(i).padStart(6, "0")}`);
    for (let i = 0; i < ids.length; i += 20_000)
      await admin("POST", "/__emulator/members", { user_ids: ids.slice(i, i + 20_000) });
    const guardrailId = (await admin("POST", "/api/v1/guardrails", { name: "bench" })).body.data.id as string;
    resetConfiguration();
    const config: Record<string, string> = {
      "guardrails:apiKey": KEY,
      "guardrails:baseUrl": emu.url,
      "guardrails:maxConcurrency": String(concurrency),
    };
    configure((k) => config[k]);
    const args = {
      __provider: "p",
      guardrailId,
      exclusive: false,
      members: Object.fromEntries(ids.map((id) => [id, true])),
    };
    const timed = async (run: () => Promise<unknown>) => {
      await admin("DELETE", "/__emulator/log");
      const t0 = performance.now();
      await run();
      const ms = Math.round(performance.now() - t0);
      return { ms, calls: (await admin("GET", "/__emulator/log")).body.total as number };
    };
    let outs: Record<string, unknown> = {};
    const created = await timed(async () => {
      outs = (await memberAssignment.create(args)).outs;
    });
    const read = await timed(() => memberAssignment.read(`${guardrailId}/members`, outs));
    return [
      { op: "create", concurrency, ...created, limitMs: limitMs(Math.ceil(N / MAX_BULK), concurrency) },
      { op: "refresh", concurrency, ...read, limitMs: limitMs(Math.ceil(N / PAGE) - 1, concurrency) },
    ];
  } finally {
    resetConfiguration();
    await emu.stop();
  }
}

async function main(): Promise<void> {
  const rows: Measure[] = [];
  for (const c of LEVELS) rows.push(...(await measure(c)));
  const lines = [
    `N = ${N}, --latency-ms ${LATENCY_MS}`,
    "",
    "| operation | concurrency | calls | wall time | limit | ratio |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.op} | ${r.concurrency} | ${r.calls} | ${(r.ms / 1000).toFixed(2)} s | ${(r.limitMs / 1000).toFixed(2)} s | ${(r.ms / r.limitMs).toFixed(2)}× |`,
    ),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
