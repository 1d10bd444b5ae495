/**
 * One million ids through the pure paths a big set takes before any call: the set arithmetic,
 * the declarative loader, and the set resource's `check`. Each must finish without a stack
 * overflow (no spread of a huge array into a call). Times are printed, never asserted.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { planChanges } from "../../src/core/assignments/plan";
import { loadGuardrailConfigs } from "../../src/declarative/load";
import { memberAssignment } from "../../src/dynamic/internal";

const N = 1_000_000;
const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `user_${String(i + from).padStart(7, "0")}`);
const dir = mkdtempSync(join(tmpdir(), "million-ids-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function timed<T>(label: string, f: () => T): T {
  const t0 = performance.now();
  const out = f();
  process.stdout.write(`million ids: ${label}: ${Math.round(performance.now() - t0)} ms\n`);
  return out;
}

describe(`${N.toLocaleString("en")} ids`, { timeout: 300_000 }, () => {
  it("planChanges: add and remove against a live set of the same size", () => {
    const desired = new Set(ids(N));
    const live = new Set(ids(N, 1));
    const plan = timed("planChanges", () => planChanges({ desired, live, managed: live, exclusive: true }));
    expect(plan.add).toEqual(["user_0000000"]);
    expect(plan.remove).toEqual([`user_${String(N).padStart(7, "0")}`]);
  });

  it("the declarative loader reads a file with a million members", () => {
    const file = join(dir, "big.yaml");
    writeFileSync(
      file,
      `guardrails:\n  big:\n    name: Big\n    members:\n      ids:\n${ids(N)
        .map((id) => `        - ${id}\n`)
        .join("")}`,
    );
    const loaded = timed("loader", () => loadGuardrailConfigs(file));
    expect(loaded).toHaveLength(1);
    expect(loaded[0]!.settings.members?.ids).toHaveLength(N);
  });

  it("check of a member set with a million ids passes", async () => {
    const members = Object.fromEntries(ids(N).map((id) => [id, true]));
    const news = { guardrailId: "3f2b8c1e-0000-4000-8000-000000000001", exclusive: true, members };
    const t0 = performance.now();
    const res = await memberAssignment.check({}, news);
    process.stdout.write(`million ids: check: ${Math.round(performance.now() - t0)} ms\n`);
    expect(res.failures).toEqual([]);
  });
});

describe("200,000 problems (past the ~120,000 arguments a spread into push() can take)", { timeout: 300_000 }, () => {
  const M = 200_000;
  it("check reports a failure for each bad id without overflowing", async () => {
    const members = Object.fromEntries(ids(M).map((id) => [id, 5]));
    const res = await memberAssignment.check({}, { guardrailId: "3f2b8c1e-0000-4000-8000-000000000001", members });
    expect(res.failures).toHaveLength(M);
    // `memberUserIds` is not among the inputs, so the engine has nothing to print beside it: the
    // path leads the reason instead of standing as the property (issue 38: no `value {<nil>}`).
    expect(res.failures![0]!.property).toBe("");
    expect(res.failures![0]!.reason).toMatch(/^memberUserIds\.user_/);
  });

  it("the loader reports every member claimed by two guardrails of one workspace", () => {
    const file = join(dir, "twice.yaml");
    const list = ids(M)
      .map((id) => `        - ${id}\n`)
      .join("");
    writeFileSync(
      file,
      `guardrails:\n  a:\n    name: A\n    members:\n      ids:\n${list}  b:\n    name: B\n    members:\n      ids:\n${list}`,
    );
    let problems: string[] = [];
    try {
      loadGuardrailConfigs(file);
    } catch (err) {
      problems = (err as { problems: string[] }).problems;
    }
    expect(problems).toHaveLength(M);
    expect(problems[0]).toMatch(/member "user_0000000" is assigned to two guardrails of the default workspace: "a"/);
  });
});
