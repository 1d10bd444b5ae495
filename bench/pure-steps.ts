/**
 * The work a big set costs before any call, timed in this process: the declarative loader on
 * one YAML file holding N member ids, the set resource's `check`, and the set arithmetic.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planChanges } from "../src/core/assignments/plan";
import { loadGuardrailConfigs } from "../src/declarative/load";
import { memberAssignment } from "../src/dynamic/internal";

export interface PureTimes {
  n: number;
  loaderMs: number;
  checkMs: number;
  planMs: number;
}

const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `user_${String(i + from).padStart(7, "0")}`);

export async function timePureSteps(n: number): Promise<PureTimes> {
  const dir = mkdtempSync(join(tmpdir(), "bench-pure-"));
  try {
    const list = ids(n);
    const file = join(dir, "big.yaml");
    writeFileSync(
      file,
      `guardrails:\n  big:\n    name: Big\n    members:\n      ids:\n${list.map((id) => `        - ${id}\n`).join("")}`,
    );
    let t0 = performance.now();
    loadGuardrailConfigs(file);
    const loaderMs = Math.round(performance.now() - t0);
    const members = Object.fromEntries(list.map((id) => [id, true]));
    t0 = performance.now();
    const checked = await memberAssignment.check(
      {},
      { guardrailId: "3f2b8c1e-0000-4000-8000-000000000001", exclusive: true, members },
    );
    const checkMs = Math.round(performance.now() - t0);
    if (checked.failures && checked.failures.length > 0)
      throw new Error(`check failed: ${JSON.stringify(checked.failures[0])}`);
    const live = new Set(ids(n, 1));
    t0 = performance.now();
    planChanges({ desired: new Set(list), live, managed: live, exclusive: true });
    const planMs = Math.round(performance.now() - t0);
    process.stderr.write(`  pure N=${n}: loader ${loaderMs} ms, check ${checkMs} ms, plan ${planMs} ms\n`);
    return { n, loaderMs, checkMs, planMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
