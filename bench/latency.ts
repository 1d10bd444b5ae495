/**
 * The latency table of issue 29 (`npm run bench` prints it; `BENCH_ONLY=latency` prints it
 * alone). The provider's own create and refresh (read) of one member set, as the engine calls
 * them, in this process, and an export of the organization, against the emulator with
 * `--latency-ms` 0 and 100, at N = 1,000, 10,000 and 100,000 members, at concurrency 1 and
 * the default (and 8), all in one run, so the gain is measured, not asserted.
 *
 * For each: the calls, the wall time, the round trip (one GET of the guardrail through the
 * same client, median of 5: the emulator's latency plus what a call costs here), the limit
 * `(serial + ceil(parallel / concurrency)) × round trip` and the ratio of the two. The calls
 * on the critical path: a create lists the set (1 page, serial) and then sends its N/500
 * bulk calls (parallel); a refresh reads page 0 (serial: it gives `total_count`) and then the
 * other pages (parallel); an export lists the guardrails, then the organization's member
 * assignments (page 0 serial, the rest parallel) and its key assignments (serial).
 * Issue 43 added two rows: "create, fresh process", the same create in a child process that has
 * loaded nothing (fresh-create.ts: the package's load and the key and URL check, 1 serial call,
 * count), and "add one", one member added as the engine does it (check with its moves lookup,
 * then update: the organization's listing, page 0 serial and the rest parallel, and one assign).
 * Figures only; nothing here asserts a time.
 * Env: LATENCY_N ("1000,10000,100000"), LATENCY_MS ("0,100"), LATENCY_CONCURRENCY ("1,4,8").
 */
import { execFile } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DEFAULT_MAX_CONCURRENCY } from "../src/core/client/budget";
import { configure, processConfig, resetConfiguration } from "../src/core/settings/config";
import { memberAssignment } from "../src/dynamic/internal";
import { fetchGuardrails } from "../src/export/fetch";
import type { FreshTimes } from "./fresh-create";
import { http, spawnEmulator } from "../support/spawn-emulator";

const list = (env: string | undefined, fallback: string) => (env ?? fallback).split(",").map(Number);
const SIZES = list(process.env.LATENCY_N, "1000,10000,100000");
const LATENCIES = list(process.env.LATENCY_MS, "0,100");
const LEVELS = list(process.env.LATENCY_CONCURRENCY, `1,${DEFAULT_MAX_CONCURRENCY},8`);
const KEY = "bench-management-key-0123456789";
const MAX_BULK = 500;
const PAGE = 100;

/** One operation at one N, latency and concurrency. */
export interface LatencyRow {
  n: number;
  latencyMs: number;
  op: "create" | "create, fresh process" | "add one" | "refresh" | "export";
  concurrency: number;
  calls: number;
  /** Calls that wait for one another, and calls that may go out together. */
  serial: number;
  parallel: number;
  ms: number;
  rttMs: number;
  /** Of `ms`, the time a fresh process spent loading the package (fresh rows only). */
  loadMs?: number;
}

const limitMs = (r: LatencyRow) => (r.serial + Math.ceil(r.parallel / r.concurrency)) * r.rttMs;
type Admin = ReturnType<typeof http>;

/** Median time of one call (a GET of the guardrail) through the provider's client. */
async function roundTrip(guardrailId: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await processConfig.client().getGuardrail(guardrailId);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[2]!;
}

/** Runs `run` with a clean request log; its wall time and the calls by operation. */
async function timed(admin: Admin, run: () => Promise<unknown>) {
  await admin("DELETE", "/__emulator/log");
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const log = (await admin("GET", "/__emulator/log")).body as { total: number; counts: Record<string, number> };
  return { ms, calls: log.total, counts: log.counts };
}

/** Create, refresh and export of one set of `ids` at one concurrency, on a fresh guardrail. */
async function measure(admin: Admin, url: string, ids: string[], latencyMs: number, concurrency: number) {
  resetConfiguration();
  const config: Record<string, string> = {
    "guardrails:apiKey": KEY,
    "guardrails:baseUrl": url,
    "guardrails:maxConcurrency": String(concurrency),
  };
  configure((k) => config[k]);
  const fresh = await freshCreate(admin, url, ids.length, latencyMs, concurrency);
  const guardrailId = (await admin("POST", "/api/v1/guardrails", { name: `bench-${latencyMs}-${concurrency}` })).body
    .data.id as string;
  const args = {
    __provider: "p",
    guardrailId,
    exclusive: false,
    members: Object.fromEntries(ids.map((id) => [id, true])),
  };
  let outs: Record<string, unknown> = {};
  const created = await timed(admin, async () => {
    outs = (await memberAssignment.create(args)).outs;
  });
  // Adding one member as the engine does it: check (its moves lookup, moves.ts), then update.
  const grown = { ...args, members: { ...args.members, [extraId(ids.length)]: true } };
  const added = await timed(admin, async () => {
    const checked = await memberAssignment.check(outs, grown);
    outs = (await memberAssignment.update(`${guardrailId}/members`, outs, checked.inputs)).outs;
  });
  const read = await timed(admin, () => memberAssignment.read(`${guardrailId}/members`, outs));
  const exported = await timed(admin, () => fetchGuardrails(processConfig.client(), { workspaces: [], only: [] }));
  const rttMs = await roundTrip(guardrailId);
  await admin("DELETE", `/api/v1/guardrails/${guardrailId}`);
  const n = ids.length;
  const base = { n, latencyMs, concurrency };
  const memberPages = exported.counts.listAllMemberAssignments ?? 0;
  const orgPages = added.counts.listAllMemberAssignments ?? 0;
  return [
    fresh,
    {
      ...base,
      op: "add one",
      ...added,
      serial: added.calls - Math.max(0, orgPages - 1),
      parallel: Math.max(0, orgPages - 1),
    },
    {
      ...base,
      op: "create",
      ...created,
      serial: created.calls - Math.ceil(n / MAX_BULK),
      parallel: Math.ceil(n / MAX_BULK),
    },
    { ...base, op: "refresh", ...read, serial: 1, parallel: read.calls - 1 },
    { ...base, op: "export", ...exported, serial: exported.calls - (memberPages - 1), parallel: memberPages - 1 },
  ].map((r) => ({ ...r, rttMs })) as LatencyRow[];
}

const execFileAsync = promisify(execFile);
/** The member `add one` adds: seeded beside the set's N (measureSize), not in it. */
const extraId = (n: number) => `user_${String(n).padStart(6, "0")}`;

/**
 * The first create in a process that has loaded nothing (fresh-create.ts, a child process): the
 * package's load, the key and URL check (1 serial call) and the create, timed from before the load.
 * Its round trip is filled in by `measure`, from the same run as the other rows.
 */
async function freshCreate(admin: Admin, url: string, n: number, latencyMs: number, concurrency: number) {
  const guardrailId = (await admin("POST", "/api/v1/guardrails", { name: `fresh-${latencyMs}-${concurrency}` })).body
    .data.id as string;
  let times: FreshTimes = { loadMs: 0, totalMs: 0 };
  const run = await timed(admin, async () => {
    const child = join(__dirname, "fresh-create.js");
    const arg = JSON.stringify({ url, key: KEY, guardrailId, n, concurrency });
    times = JSON.parse((await execFileAsync(process.execPath, [child, arg], { maxBuffer: 1 << 20 })).stdout);
  });
  await admin("DELETE", `/api/v1/guardrails/${guardrailId}`);
  const bulk = Math.ceil(n / MAX_BULK);
  return {
    n,
    latencyMs,
    concurrency,
    op: "create, fresh process",
    calls: run.calls,
    counts: run.counts,
    ms: times.totalMs,
    loadMs: times.loadMs,
    serial: run.calls - bulk,
    parallel: bulk,
  };
}

/** Every latency and concurrency at one N, on one emulator seeded with N members. */
async function measureSize(n: number): Promise<LatencyRow[]> {
  const emu = await spawnEmulator(["--management-key", KEY, "--max-bulk", String(MAX_BULK), "--members", "user_seed"]);
  try {
    const admin = http(emu.url, KEY);
    const ids = Array.from({ length: n }, (_, i) => `user_${String(i).padStart(6, "0")}`);
    for (let i = 0; i < ids.length; i += 20_000)
      await admin("POST", "/__emulator/members", { user_ids: ids.slice(i, i + 20_000) });
    await admin("POST", "/__emulator/members", { user_ids: [extraId(n)] });
    const rows: LatencyRow[] = [];
    for (const latencyMs of LATENCIES) {
      await admin("PUT", "/__emulator/faults", { latencyMs });
      for (const c of LEVELS) {
        rows.push(...(await measure(admin, emu.url, ids, latencyMs, c)));
        process.stderr.write(`  latency: N=${n} ${latencyMs} ms concurrency ${c} done\n`);
      }
    }
    return rows;
  } finally {
    resetConfiguration();
    await emu.stop();
  }
}

/** The rows as a Markdown table, operations grouped, each concurrency on its own row. */
export function latencyTable(rows: readonly LatencyRow[]): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const sorted = [...rows].sort(
    (a, b) => a.latencyMs - b.latencyMs || a.n - b.n || a.op.localeCompare(b.op) || a.concurrency - b.concurrency,
  );
  return [
    "| --latency-ms | N | operation | concurrency | calls | serial + parallel | wall time | of it, loading | round trip | limit | wall / limit |",
    "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...sorted.map(
      (r) =>
        `| ${r.latencyMs} | ${r.n.toLocaleString("en")} | ${r.op} | ${r.concurrency} | ${r.calls} | ${r.serial} + ${r.parallel} | ${s(r.ms)} | ${r.loadMs === undefined ? "" : s(r.loadMs)} | ${r.rttMs.toFixed(1)} ms | ${s(limitMs(r))} | ${(r.ms / limitMs(r)).toFixed(2)}× |`,
    ),
  ].join("\n");
}

/** Runs every size; answers the table with a header naming the run (date, cores, load). */
export async function runLatencyBench(): Promise<{ rows: LatencyRow[]; markdown: string }> {
  const start = { date: new Date().toISOString(), load: loadavg() };
  const rows: LatencyRow[] = [];
  for (const n of SIZES) rows.push(...(await measureSize(n)));
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join(" / ");
  const header = `Latency bench, ${start.date}: ${cpus().length} cores, load average (1/5/15 min) ${load(start.load)} at the start, ${load(loadavg())} at the end; default concurrency ${DEFAULT_MAX_CONCURRENCY}, --max-bulk ${MAX_BULK}, pages of ${PAGE}.`;
  return { rows, markdown: `${header}\n\n${latencyTable(rows)}` };
}

if (require.main === module) {
  runLatencyBench()
    .then(({ markdown }) => process.stdout.write(`${markdown}\n`))
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
