#!/usr/bin/env node
// Runs the whole vitest suite (unit, emulator, conformance, provider and e2e under the real
// pulumi CLI), then prints one plain closing line, "tests: N passed, N failed, N skipped",
// and exits with vitest's code. Extra args go to vitest (e.g. `npm test -- --project unit`).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "guardrails-vitest-"));
const results = join(dir, "results.json");
const run = spawnSync(
  "npx",
  ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...process.argv.slice(2)],
  { stdio: "inherit" },
);
let line = "tests: 0 passed, 1 failed (vitest wrote no results)";
try {
  const r = JSON.parse(readFileSync(results, "utf8"));
  line = `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + (r.numTodoTests ?? 0)} skipped`;
} catch {}
rmSync(dir, { recursive: true, force: true });
console.log(line);
process.exit(run.status ?? 1);
