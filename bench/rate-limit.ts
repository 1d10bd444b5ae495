/**
 * Issue 29's third goal, measured (never asserted): under the real CLI, against an emulator
 * that answers bursts of 429 with `Retry-After`, every `pulumi up` of a 10,000-member set
 * converges with no failed run, and the request log shows the whole budget holding back after
 * each 429. `npm run bench` prints it after the latency table; `BENCH_ONLY=429 npm run bench`
 * alone (about a minute).
 *
 * "Calls in a pause": calls the emulator received later than 250 ms after it answered a 429 and
 * before that answer's Retry-After ran out (less 150 ms). A call sent before the 429 came back
 * arrives within a few ms, so the 250 ms allow for an event loop's lag; with a budget that did
 * not pause, the calls waiting for a slot would arrive at once.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { LogEntry } from "../emulator/request-log";
import { Program } from "../support/program";
import type { preparePulumiTemplate } from "../support/pulumi-template";
import { http } from "../support/spawn-emulator";
import { SET_PROGRAM } from "./programs";

const N = 10_000;
const RETRY_AFTER_S = 1;
const FAULTS = {
  rate: 0.1,
  burst: 3,
  seed: 29,
  latencyMs: 100,
};

export interface RateLimitRow {
  step: string;
  exit: number;
  calls: number;
  limited: number;
  inPause: number;
  ms: number;
}

/** Calls received during the Retry-After pause of some 429 (see the file's comment). */
export function callsInPause(entries: readonly LogEntry[], retryAfterMs: number): number {
  const paused = entries
    .filter((e) => e.status === 429 && e.receivedAt !== undefined)
    .map((e) => e.receivedAt! + (e.delayedMs ?? 0));
  return entries.filter(
    (e) =>
      e.receivedAt !== undefined &&
      paused.some((answered) => e.receivedAt! > answered + 250 && e.receivedAt! < answered + retryAfterMs - 150),
  ).length;
}

export async function runRateLimitBench(ctx: ReturnType<typeof preparePulumiTemplate>): Promise<string> {
  const p = await Program.create(ctx, "bench-429", {
    emulatorArgs: [
      "--max-bulk",
      "500",
      "--members",
      "user_seed",
      "--rate-limit-rate",
      String(FAULTS.rate),
      "--rate-limit-burst",
      String(FAULTS.burst),
      "--retry-after",
      String(RETRY_AFTER_S),
      "--latency-ms",
      String(FAULTS.latencyMs),
      "--seed",
      String(FAULTS.seed),
    ],
  });
  const rows: RateLimitRow[] = [];
  try {
    const all = Array.from({ length: N + 100 }, (_, i) => `user_${String(i).padStart(5, "0")}`);
    await http(p.emulator.url)("POST", "/__emulator/members", { user_ids: all });
    p.write(SET_PROGRAM);
    const steps: Array<[string, string[] | null, string[]]> = [
      ["create", all.slice(0, N), ["up", "--yes", "--skip-preview"]],
      ["add 100", all.slice(0, N + 100), ["up", "--yes", "--skip-preview"]],
      ["remove 100", all.slice(100, N + 100), ["up", "--yes", "--skip-preview"]],
      ["up --refresh", null, ["up", "--yes", "--skip-preview", "--refresh"]],
      ["destroy", null, ["destroy", "--yes", "--skip-preview"]],
    ];
    for (const [step, list, args] of steps) {
      if (list) writeFileSync(join(p.dir, "members.json"), JSON.stringify(list));
      await p.clearLog();
      const t0 = performance.now();
      const res = await p.pulumi(args);
      const ms = Math.round(performance.now() - t0);
      const log = (await http(p.emulator.url)("GET", "/__emulator/log")).body as {
        total: number;
        dropped: number;
        entries: LogEntry[];
      };
      if (log.dropped > 0) throw new Error(`rate-limit bench: the request log dropped ${log.dropped} entries`);
      rows.push({
        step,
        exit: res.code,
        calls: log.total,
        limited: log.entries.filter((e) => e.status === 429).length,
        inPause: callsInPause(log.entries, RETRY_AFTER_S * 1000),
        ms,
      });
      process.stderr.write(`  429 bursts: ${step}: exit ${res.code}, ${log.total} calls, ${ms} ms\n`);
      if (res.code !== 0) process.stderr.write(`${res.output.slice(-3000)}\n`);
    }
  } finally {
    await p.close();
  }
  const header = `429 bursts under the real CLI, ${new Date().toISOString()}: N = ${N.toLocaleString("en")} members, one GuardrailMemberAssignment, default concurrency; emulator --rate-limit-rate ${FAULTS.rate} --rate-limit-burst ${FAULTS.burst} --retry-after ${RETRY_AFTER_S} --latency-ms ${FAULTS.latencyMs} --seed ${FAULTS.seed}.`;
  return [
    header,
    "",
    "| step | exit code | calls | of them 429 | calls in a Retry-After pause | wall time |",
    "|---|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) => `| ${r.step} | ${r.exit} | ${r.calls} | ${r.limited} | ${r.inPause} | ${(r.ms / 1000).toFixed(1)} s |`,
    ),
  ].join("\n");
}
