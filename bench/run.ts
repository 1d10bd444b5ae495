/**
 * `npm run bench`: our set resource against per-member modelling, under the real pulumi CLI
 * and the same emulator (--max-bulk 500), at N = 100, 1,000, 10,000 and 100,000 members on
 * one guardrail, next to the engine's floor (the same commands on one dynamic resource that
 * makes no call). Prints Markdown tables, writes bench/results/results.json and calls.svg.
 * Figures only: nothing here asserts a time.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Program } from "../support/program";
import { preparePulumiTemplate } from "../support/pulumi-template";
import { http, REPO_ROOT } from "../support/spawn-emulator";
import { FLOOR_PROGRAM, PAYLOAD_FLOOR_PROGRAM, PER_MEMBER_PROGRAM, SET_PROGRAM } from "./programs";
import { watchProviderRss } from "./rss";
import { renderChart } from "./chart";
import { watchStateWrites, type StateWrites } from "./state-writes";
import { timePureSteps, type PureTimes } from "./pure-steps";
import { runLatencyBench } from "./latency";
import { runRateLimitBench } from "./rate-limit";
import { runAccessBench } from "./access";
import { runPluginBench } from "./plugin";

const SIZES = (process.env.BENCH_SIZES ?? "100,1000,10000,100000").split(",").map(Number);
/** Per-member modelling is never run above this N without a smaller size to project from. */
const PER_MEMBER_UNPROJECTED_MAX = 1000;
/** Runs of the floor's commands; the median is reported. */
const FLOOR_RUNS = 3;
const MAX_BULK = 500;
const PAGE = 100;
/** Past this projected time a per-member size is not run (the issue's ten minutes). */
const BUDGET_MS = 10 * 60 * 1000;

/** `payload-floor`: the set's member map on a resource whose provider does nothing (programs.ts). */
type Setup = "set" | "payload-floor" | "per-member";
const PROGRAMS: Record<Setup, string> = {
  set: SET_PROGRAM,
  "payload-floor": PAYLOAD_FLOOR_PROGRAM,
  "per-member": PER_MEMBER_PROGRAM,
};
const TYPES: Record<Setup, string> = {
  set: "GuardrailMemberAssignment",
  "payload-floor": "PayloadFloor",
  "per-member": "PerMemberAssignment",
};
const OPERATIONS = ["create", "add one", "remove one", "refresh", "no-op preview", "destroy"] as const;
type Operation = (typeof OPERATIONS)[number];

/** Pages to walk M rows: page 0, then 99 new rows a page (each shares a row with the one before: issue 38). */
const pages = (m: number) => (m <= PAGE ? 1 : 1 + Math.ceil((m - PAGE) / (PAGE - 1)));
/** The three policy lists of a Guardrail's refresh (one per kind per workspace per process). */
const POLICY_LISTS = 3;

/**
 * The fewest API calls each operation can take with the safety reads counted once per command
 * (docs/performance.md, "Safety reads"; the credentials check apart), and why. The set is the
 * organization's only assignments, so the org-wide walk reads M = N rows (none at create):
 * - create: one POST for the guardrail, the walk of the set's check (where the new ids sit; the
 *   guardrail is new, so listing it first would spare nothing), one list page to see what the set
 *   already holds (a set cannot tell a new guardrail from an adopted one, and ids already there
 *   must cost no write), and N ids need ceil(N/500) bulk assigns.
 * - add one: the walk of the check (where the new member sits), one bulk call.
 * - remove one: one bulk call; nothing needs reading, the state says what is there.
 * - refresh: one GET for the guardrail, its policy lists (was one edited apart from it), and
 *   reading N assignments takes 1 + ceil((N - 100)/99) pages (one up to 100).
 * - no-op preview: nothing to read or write.
 * - destroy: the set must leave the guardrail without its ids even when the guardrail
 *   survives (retainOnDelete, a guardrail managed elsewhere), and nothing tells a set that
 *   its guardrail is going too, so ceil(N/500) unassigns, then one DELETE for the guardrail.
 */
export function minimumCalls(op: Operation, n: number): number {
  switch (op) {
    case "create":
      return 2 + Math.ceil(n / MAX_BULK) + minimumSafety(op, n);
    case "add one":
      return 1 + minimumSafety(op, n);
    case "remove one":
      return 1;
    case "refresh":
      return 1 + pages(n) + minimumSafety(op, n);
    case "no-op preview":
      return 0;
    case "destroy":
      return 1 + Math.ceil(n / MAX_BULK);
  }
}

/** Of `minimumCalls`, the safety reads: the org-wide walk (create, add one) and a refresh's policy lists. */
export function minimumSafety(op: Operation, n: number): number {
  if (op === "create") return pages(0);
  if (op === "add one") return pages(n);
  if (op === "refresh") return POLICY_LISTS;
  return 0;
}

interface Row {
  setup: Setup;
  n: number;
  op: Operation;
  calls: number;
  /** Of `calls`, the safety reads: pages of the organization's assignment listings (safetyReads). */
  safety: number;
  minimum: number;
  ms: number;
  rssMb: number;
  writes: StateWrites;
}

/** The floor's commands, and which of them each operation is. */
type FloorOp = "up (create)" | "up (update)" | "preview" | "refresh" | "destroy";
const FLOOR_OF: Record<Operation, FloorOp> = {
  create: "up (create)",
  "add one": "up (update)",
  "remove one": "up (update)",
  refresh: "refresh",
  "no-op preview": "preview",
  destroy: "destroy",
};
/**
 * The safety reads of one command, by call shape in the emulator's log: the pages of the
 * organization-wide assignment listings (`GET /guardrails/assignments/members|keys`), which the
 * moves lookup (core/assignments/moves.ts) and the reads that name where a member went make, and
 * the policy lists of a Guardrail's refresh (was a policy edited apart from it).
 * Read from the log, not from a model, so the column shows whatever the code does.
 */
const SAFETY_OPERATIONS = [
  "listAllMemberAssignments",
  "listAllKeyAssignments",
  "listBudgetPolicies",
  "listModelAvailabilityPolicies",
  "listModerationPolicies",
];
/**
 * The key and URL checks of one command (`GET /guardrails?offset=0&limit=1`, one per provider
 * process: docs/configuration.md), left out of the calls column as the minimum leaves them out.
 */
const credentialsChecks = (entries: Array<{ method: string; operation: string | null; query: string }>) =>
  entries.filter((e) => e.method === "GET" && e.operation === "listGuardrails" && e.query === "?offset=0&limit=1")
    .length;
const safetyReads = (counts: Record<string, number>) =>
  SAFETY_OPERATIONS.reduce((sum, op) => sum + (counts[op] ?? 0), 0);

interface SizeFacts {
  setup: Setup;
  n: number;
  resources: number;
  providerBytes: number;
  stateBytesPerResource: number;
  skipped?: string;
}

const members = (n: number) => Array.from({ length: n + 1 }, (_, i) => `user_${String(i).padStart(5, "0")}`);

async function runSize(
  ctx: ReturnType<typeof preparePulumiTemplate>,
  setup: Setup,
  n: number,
  rows: Row[],
): Promise<SizeFacts> {
  const p = await Program.create(ctx, `bench-${setup}-${n}`, {
    emulatorArgs: ["--max-bulk", String(MAX_BULK), "--members", "user_seed"],
  });
  try {
    // In batches: the emulator caps a request body at 1 MiB, and 100,000 ids are more.
    const everyone = members(n);
    for (let i = 0; i < everyone.length; i += 20_000)
      await http(p.emulator.url)("POST", "/__emulator/members", { user_ids: everyone.slice(i, i + 20_000) });
    p.env.GUARDRAILS_BASE_URL = p.emulator.url; // the per-member program reads it from the environment
    p.write(PROGRAMS[setup]);
    const all = members(n);
    const steps: Array<[Operation, string[] | null, string[]]> = [
      ["create", all.slice(0, n), ["up", "--yes", "--skip-preview"]],
      ["add one", all.slice(0, n + 1), ["up", "--yes", "--skip-preview"]],
      ["remove one", all.slice(1, n + 1), ["up", "--yes", "--skip-preview"]],
      ["refresh", null, ["refresh", "--yes", "--skip-preview"]],
      ["no-op preview", null, ["preview"]],
      ["destroy", null, ["destroy", "--yes", "--skip-preview"]],
    ];
    let facts: SizeFacts = { setup, n, resources: 0, providerBytes: 0, stateBytesPerResource: 0 };
    for (const [op, list, args] of steps) {
      if (list) writeFileSync(join(p.dir, "members.json"), JSON.stringify(list));
      await p.clearLog();
      const rss = watchProviderRss();
      const state = watchStateWrites(join(p.dir, ".state"));
      const t0 = performance.now();
      const res = await p.pulumi(args);
      const ms = Math.round(performance.now() - t0);
      const rssMb = rss.stop();
      const writes = state.finish();
      if (res.code !== 0) throw new Error(`${setup} N=${n} ${op} failed:\n${res.output.slice(-3000)}`);
      const log = await p.log();
      rows.push({
        setup,
        n,
        op,
        calls: log.total - credentialsChecks(log.entries),
        safety: safetyReads(log.counts),
        minimum: minimumCalls(op, n),
        ms,
        rssMb,
        writes,
      });
      process.stderr.write(
        `  ${setup} N=${n} ${op}: ${log.total} calls, ${ms} ms, ${rssMb} MB, checkpoint ${writes.checkpointBytes} B (${writes.changedBytes} B changed)\n`,
      );
      if (op === "create") facts = await stateFacts(p, setup, n);
    }
    return facts;
  } finally {
    await p.close();
  }
}

async function stateFacts(p: Program, setup: Setup, n: number): Promise<SizeFacts> {
  const { json } = await p.exportState();
  const resources = json.deployment.resources.filter((r: { type: string }) => r.type.endsWith(TYPES[setup]));
  const bytes = resources.reduce((sum: number, r: unknown) => sum + JSON.stringify(r).length, 0);
  return {
    setup,
    n,
    resources: resources.length,
    providerBytes: resources[0]?.inputs.__provider?.length ?? 0,
    stateBytesPerResource: Math.round(bytes / Math.max(1, resources.length)),
  };
}

/** Median time of each floor command over FLOOR_RUNS rounds of create, update, preview, refresh, destroy. */
async function runFloor(ctx: ReturnType<typeof preparePulumiTemplate>): Promise<Record<FloorOp, number>> {
  const p = await Program.create(ctx, "bench-floor");
  const times: Record<FloorOp, number[]> = {
    "up (create)": [],
    "up (update)": [],
    preview: [],
    refresh: [],
    destroy: [],
  };
  try {
    p.write(FLOOR_PROGRAM);
    for (let round = 0; round < FLOOR_RUNS; round++) {
      const steps: Array<[FloorOp, string[], number]> = [
        ["up (create)", ["up", "--yes", "--skip-preview"], 0],
        ["up (update)", ["up", "--yes", "--skip-preview"], 1],
        ["preview", ["preview"], 1],
        ["refresh", ["refresh", "--yes", "--skip-preview"], 1],
        ["destroy", ["destroy", "--yes", "--skip-preview"], 1],
      ];
      for (const [op, args, value] of steps) {
        writeFileSync(join(p.dir, "floor.json"), JSON.stringify(value));
        const t0 = performance.now();
        const res = await p.pulumi(args);
        if (res.code !== 0) throw new Error(`floor ${op} failed:\n${res.output.slice(-3000)}`);
        times[op].push(Math.round(performance.now() - t0));
      }
    }
  } finally {
    await p.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const out = Object.fromEntries(Object.entries(times).map(([op, xs]) => [op, median(xs)])) as Record<FloorOp, number>;
  process.stderr.write(`  floor: ${JSON.stringify(out)}\n`);
  return out;
}

function table(rows: Row[], facts: SizeFacts[], floor: Record<FloorOp, number>, pure: PureTimes[]): string {
  const out = [
    "| N | operation | minimum calls | of it, safety reads | set: calls | of them, safety reads | set / minimum | set: time | engine floor | set / floor | payload floor | set / payload floor | per-member: calls | per-member / set | per-member: time |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const n of SIZES) {
    for (const op of OPERATIONS) {
      const ours = rows.find((r) => r.setup === "set" && r.n === n && r.op === op);
      const theirs = rows.find((r) => r.setup === "per-member" && r.n === n && r.op === op);
      const payload = rows.find((r) => r.setup === "payload-floor" && r.n === n && r.op === op);
      const skipped = facts.find((f) => f.setup === "per-member" && f.n === n)?.skipped;
      const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? "1.00" : "∞") : (a / b).toFixed(2));
      out.push(
        `| ${n.toLocaleString("en")} | ${op} | ${minimumCalls(op, n)} | ${minimumSafety(op, n)} | ${ours?.calls ?? "-"} | ${ours?.safety ?? "-"} | ${ours ? ratio(ours.calls, minimumCalls(op, n)) : "-"} | ${ours ? `${(ours.ms / 1000).toFixed(1)} s` : "-"} | ${(floor[FLOOR_OF[op]] / 1000).toFixed(1)} s | ${ours ? (ours.ms / floor[FLOOR_OF[op]]).toFixed(2) : "-"} | ${payload ? `${(payload.ms / 1000).toFixed(1)} s` : "-"} | ${ours && payload ? (ours.ms / payload.ms).toFixed(2) : "-"} | ${theirs?.calls ?? (skipped ? "not run" : "-")} | ${theirs && ours ? ratio(theirs.calls, ours.calls) : "-"} | ${theirs ? `${(theirs.ms / 1000).toFixed(1)} s` : (skipped ?? "-")} |`,
      );
    }
  }
  out.push(
    "",
    "| setup | N | resources | serialized provider bytes | state bytes per resource | peak provider RSS |",
    "|---|---:|---:|---:|---:|---:|",
  );
  for (const f of facts) {
    const peak = Math.max(0, ...rows.filter((r) => r.setup === f.setup && r.n === f.n).map((r) => r.rssMb));
    out.push(
      f.skipped
        ? `| ${f.setup} | ${f.n.toLocaleString("en")} | not run: ${f.skipped} | | | |`
        : `| ${f.setup} | ${f.n.toLocaleString("en")} | ${f.resources} | ${f.providerBytes} | ${f.stateBytesPerResource} | ${peak} MB |`,
    );
  }
  out.push(
    "",
    "| N | operation (set) | checkpoint bytes after | checkpoint bytes changed | bytes written to the backend |",
    "|---:|---|---:|---:|---:|",
  );
  for (const r of rows.filter((r) => r.setup === "set")) {
    out.push(
      `| ${r.n.toLocaleString("en")} | ${r.op} | ${r.writes.checkpointBytes.toLocaleString("en")} | ${r.writes.changedBytes.toLocaleString("en")} | ${r.writes.writtenBytes.toLocaleString("en")} |`,
    );
  }
  out.push(
    "",
    "| N | loader (one YAML file) | check (set resource) | planChanges (N against N) |",
    "|---:|---:|---:|---:|",
  );
  for (const t of pure)
    out.push(`| ${t.n.toLocaleString("en")} | ${t.loaderMs} ms | ${t.checkMs} ms | ${t.planMs} ms |`);
  return out.join("\n");
}

/** The latency table (issue 29): printed and kept in bench/results/latency.md. */
async function latency(): Promise<string> {
  const { rows, markdown } = await runLatencyBench();
  const dir = join(REPO_ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "latency.json"), JSON.stringify(rows, null, 2));
  writeFileSync(join(dir, "latency.md"), `${markdown}\n`);
  return markdown;
}

/** The 429-burst table (issue 29): printed and kept in bench/results/rate-limit.md. */
async function rateLimit(ctx: ReturnType<typeof preparePulumiTemplate>): Promise<string> {
  const markdown = await runRateLimitBench(ctx);
  const dir = join(REPO_ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "rate-limit.md"), `${markdown}\n`);
  return markdown;
}

/** The plugin table (issue 42): printed and kept in bench/results/plugin.md. */
async function plugin(): Promise<string> {
  const markdown = await runPluginBench();
  const dir = join(REPO_ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "plugin.md"), `${markdown}\n`);
  return markdown;
}

async function main(): Promise<void> {
  // `BENCH_ONLY=plugin npm run bench`: the plugin's size and start-up alone (no pulumi CLI runs).
  if (process.env.BENCH_ONLY === "plugin") return void process.stdout.write(`${await plugin()}\n`);
  // `BENCH_ONLY=latency npm run bench`: the latency table alone (no pulumi CLI runs).
  if (process.env.BENCH_ONLY === "latency") return void process.stdout.write(`${await latency()}\n`);
  // `BENCH_ONLY=access npm run bench`: the effective-access tables alone (issue 41; no pulumi CLI runs).
  if (process.env.BENCH_ONLY === "access") return void process.stdout.write(`${await runAccessBench()}\n`);
  const ctx = preparePulumiTemplate("guardrails-bench-");
  // `BENCH_ONLY=429 npm run bench`: the 429-burst table alone (about a minute of CLI runs).
  if (process.env.BENCH_ONLY === "429") return void process.stdout.write(`${await rateLimit(ctx)}\n`);
  const rows: Row[] = [];
  const facts: SizeFacts[] = [];
  const floor = await runFloor(ctx);
  const pure = [];
  for (const n of SIZES) pure.push(await timePureSteps(n));
  for (const setup of ["set", "payload-floor", "per-member"] as Setup[]) {
    for (const n of SIZES) {
      if (setup === "per-member") {
        // Project from the largest size measured: writes grow with N, refresh with N^2/200 pages.
        const prev = facts.filter((f) => f.setup === "per-member" && !f.skipped).at(-1);
        if (!prev && n > PER_MEMBER_UNPROJECTED_MAX) {
          facts.push({
            setup,
            n,
            resources: n,
            providerBytes: 0,
            stateBytesPerResource: 0,
            skipped: `no smaller size measured to project from`,
          });
          continue;
        }
        if (prev) {
          const k = n / prev.n;
          const prevRows = rows.filter((r) => r.setup === "per-member" && r.n === prev.n);
          const projected = prevRows.reduce((sum, r) => sum + r.ms * (r.op === "refresh" ? k * k : k), 0);
          if (projected > BUDGET_MS) {
            facts.push({
              setup,
              n,
              resources: n,
              providerBytes: 0,
              stateBytesPerResource: 0,
              skipped: `projected ${Math.round(projected / 60000)} min > 10 min`,
            });
            process.stderr.write(`  per-member N=${n}: skipped, projected ${Math.round(projected / 60000)} min\n`);
            continue;
          }
        }
      }
      facts.push(await runSize(ctx, setup, n, rows));
    }
  }
  const md = table(rows, facts, floor, pure);
  const dir = join(REPO_ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "results.json"),
    JSON.stringify({ date: new Date().toISOString(), maxBulk: MAX_BULK, floor, pure, rows, facts }, null, 2),
  );
  writeFileSync(join(dir, "calls.svg"), renderChart(rows, SIZES));
  writeFileSync(join(dir, "table.md"), md + "\n");
  process.stdout.write(`${md}\n\nwrote ${dir}/results.json, calls.svg, table.md\n`);
  process.stdout.write(`\n${await latency()}\n`);
  process.stdout.write(`\n${await rateLimit(ctx)}\n`);
  process.stdout.write(`\n${await runAccessBench()}\n`);
  process.stdout.write(`\n${await plugin()}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench: ${(err as Error).stack}\n`);
  process.exit(1);
});
