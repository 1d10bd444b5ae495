/** Property tests of the assignment set arithmetic over random live and desired sets. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunk } from "../../src/core/assignments/apply";
import { planChanges, type Plan } from "../../src/core/assignments/plan";

/** The set after a plan is applied in full (the test's model of the service). */
function applyPlan(live: ReadonlySet<string>, plan: Plan): Set<string> {
  const next = new Set(live);
  for (const id of plan.remove) next.delete(id);
  for (const id of plan.add) next.add(id);
  return next;
}

const ids = fc.uniqueArray(
  fc.integer({ min: 0, max: 60 }).map((n) => `user_${n}`),
  { maxLength: 40 },
);
const scenario = fc.record({
  desired: ids,
  live: ids,
  managed: ids,
  exclusive: fc.boolean(),
  size: fc.integer({ min: 1, max: 12 }),
});
type Scenario = { desired: string[]; live: string[]; managed: string[] };

/** The plan for one generated scenario, in the mode given. */
const planFor = ({ desired, live, managed }: Scenario, exclusive: boolean): Plan =>
  planChanges({ desired: new Set(desired), live: new Set(live), managed: new Set(managed), exclusive });

describe("planChanges", () => {
  it("exclusive mode reaches exactly the desired set", () => {
    fc.assert(
      fc.property(scenario, ({ desired, live, managed }) => {
        const plan = planFor({ desired, live, managed }, true);
        expect([...applyPlan(new Set(live), plan)].sort()).toEqual([...new Set(desired)].sort());
      }),
    );
  });

  it("additive mode reaches desired, keeps every unmanaged live id, and removes only managed ones", () => {
    fc.assert(
      fc.property(scenario, ({ desired, live, managed }) => {
        const plan = planFor({ desired, live, managed }, false);
        const after = applyPlan(new Set(live), plan);
        for (const id of desired) expect(after.has(id)).toBe(true);
        for (const id of live) if (!managed.includes(id)) expect(after.has(id)).toBe(true);
        for (const id of plan.remove) expect(managed).toContain(id);
        for (const id of managed) if (!desired.includes(id)) expect(after.has(id)).toBe(false);
      }),
    );
  });

  it("never plans a no-op: adds are not live, removes are live, and the two never overlap", () => {
    fc.assert(
      fc.property(scenario, ({ desired, live, managed, exclusive }) => {
        const plan = planFor({ desired, live, managed }, exclusive);
        for (const id of plan.add) expect(live).not.toContain(id);
        for (const id of plan.remove) expect(live).toContain(id);
        expect(plan.add.filter((id) => plan.remove.includes(id))).toEqual([]);
      }),
    );
  });

  it("lists adds and removes sorted, whatever order the sets came in, so the calls are deterministic", () => {
    const plan = planChanges({
      desired: new Set(["u3", "u1", "u2"]),
      live: new Set(["u9", "u7", "u8"]),
      managed: new Set(),
      exclusive: true,
    });
    expect(plan).toEqual({ add: ["u1", "u2", "u3"], remove: ["u7", "u8", "u9"] });
    fc.assert(
      fc.property(scenario, ({ desired, live, managed, exclusive }) => {
        const plan = planFor({ desired, live, managed }, exclusive);
        expect(plan.add).toEqual([...plan.add].sort());
        expect(plan.remove).toEqual([...plan.remove].sort());
      }),
    );
  });

  it("chunked calls are never empty, never over the size, and cover each id once", () => {
    fc.assert(
      fc.property(scenario, ({ desired, live, managed, exclusive, size }) => {
        const plan = planFor({ desired, live, managed }, exclusive);
        for (const list of [plan.add, plan.remove]) {
          const calls = chunk(list, size);
          for (const call of calls)
            expect(call.length).toBeGreaterThanOrEqual(1), expect(call.length).toBeLessThanOrEqual(size);
          expect(calls.flat()).toEqual(list);
          expect(calls.length).toBe(Math.ceil(list.length / size));
        }
      }),
    );
  });

  it("rejects a chunk size that is not a positive integer", () => {
    expect(() => chunk(["a"], 0)).toThrow(/positive integer/);
  });
});
