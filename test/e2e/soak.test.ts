/**
 * The soak in CI: a fixed seed and a fixed number of rounds (test/helpers/soak.ts). Longer
 * runs: `npm run soak -- --rounds N --seed S`.
 */
import { describe, expect, inject, it } from "vitest";
import { runSoak } from "../helpers/soak";

const SEED = 20261123;
const ROUNDS = 5;

describe(`soak (seed ${SEED}, ${ROUNDS} rounds)`, () => {
  it("every round converges: service = program = state, no duplicate, no orphan", async () => {
    const result = await runSoak(inject("e2e"), { rounds: ROUNDS, seed: SEED, log: (l) => console.log(l) });
    console.log(
      `soak: ${result.rounds} rounds, seed ${result.seed}, ${result.ups} ups (${result.failedUps} failed under faults), ${result.outOfBand} out-of-band changes, faults ${JSON.stringify(result.faults)}`,
    );
    expect(result.rounds).toBe(ROUNDS);
    expect(result.outOfBand).toBeGreaterThan(0);
    expect(Object.keys(result.faults).length).toBeGreaterThan(0);
  });
});
