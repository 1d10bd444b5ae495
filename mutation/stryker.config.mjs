/**
 * Stryker's settings for `npm run mutate` (scripts/mutate.mjs), which passes the modules to
 * mutate (`--mutate`) and the report's path; the groups, their floors and the survivor list are
 * in mutation/groups.mjs and mutation/survivors.json. Run from the repository root.
 */
export default {
  testRunner: "vitest",
  plugins: ["@stryker-mutator/vitest-runner"],
  vitest: { configFile: "mutation/vitest.config.mts", related: true },
  coverageAnalysis: "perTest",
  // Two cores shared with other work: one test process. Raise with --concurrency on an idle machine.
  concurrency: 1,
  // A loaded machine stretches test times; a mutant that hangs still counts as killed (timeout).
  timeoutMS: 30_000,
  timeoutFactor: 2,
  // With every test file (`npm run mutate -- --all-tests`) the first run alone takes minutes.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress", "json"],
  clearTextReporter: { allowColor: false, logTests: false, maxTestsToLog: 0 },
  jsonReporter: { fileName: process.env.MUTATE_REPORT ?? "reports/mutation/mutation.json" },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
  // The sandbox is a copy of the repository without what no unit test reads.
  ignorePatterns: ["reports", "coverage", "bench/results", ".state", ".pulumi", "examples/**/node_modules"],
  // Module-level constants (a regular expression, a limit) are mutated too: each such mutant reruns
  // every related test file, but a regex losing its anchor is exactly what a floor must notice.
  ignoreStatic: false,
};
