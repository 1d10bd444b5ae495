/**
 * `npm run soak -- --rounds N --seed S`: the model-based soak of support/soak.ts for as
 * long as asked, under the real CLI. Prints one line per round and a summary; exits 1 on the
 * first divergence, naming the round and the seed to replay it.
 */
import { parseArgs } from "node:util";
import { preparePulumiTemplate } from "../support/pulumi-template";
import { runSoak } from "../support/soak";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    seed: { type: "string", default: String(Date.now() % 100000) },
  },
});
const rounds = Number(values.rounds);
const seed = Number(values.seed);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(seed)) {
  console.error(
    `usage: npm run soak -- --rounds N --seed S (got --rounds ${JSON.stringify(values.rounds)} --seed ${JSON.stringify(values.seed)})`,
  );
  process.exit(2);
}
const started = Date.now();
runSoak(preparePulumiTemplate("guardrails-soak-"), { rounds, seed, log: (l) => console.log(l) }).then(
  (r) => {
    console.log(
      `soak passed: ${r.rounds} rounds, seed ${r.seed}, ${r.ups} ups (${r.failedUps} failed under faults), ${r.outOfBand} out-of-band changes, faults ${JSON.stringify(r.faults)}, ${Math.round((Date.now() - started) / 1000)} s`,
    );
  },
  (err) => {
    console.error(`soak FAILED (seed ${seed}): ${(err as Error).message}`);
    process.exit(1);
  },
);
