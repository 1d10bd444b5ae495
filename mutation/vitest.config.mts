/**
 * The suites Stryker runs for each mutant: every project but e2e (vitest.config.mts), as one
 * project, so the runner's related mode picks the test files that import the mutated module.
 *
 * Left out: the three policy test files that serialize a provider with Pulumi's closure
 * serializer (test/helpers/policy-pack.ts `serialized`). It needs trace events, which a worker
 * thread lacks, and the Stryker runner forces the threads pool. They test the policy pack, which
 * no mutation group holds; policy-rules and policy-event-log still run.
 *
 * Left out too: the tests that read the source as text (the size limits, the import walls, the
 * error classes). The sandbox holds the instrumented source, every mutant at once behind a
 * switch, so they fail there whatever the mutant, and they say nothing about behaviour.
 *
 * `MUTATE_TESTS` (set by scripts/mutate.mjs: the test files that import the mutated modules,
 * comma-separated) narrows the files to those; without it, every file above runs.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: process.env.MUTATE_TESTS?.split(",") ?? ["test/{unit,emulator,conformance,provider}/**/*.test.ts"],
    exclude: [
      "test/unit/policy-attack.test.ts",
      "test/unit/policy-hostile.test.ts",
      "test/unit/policy-native.test.ts",
      "test/unit/structure.test.ts",
      "test/unit/import-graph.test.ts",
      "test/unit/expected-errors.test.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
