#!/usr/bin/env node
/**
 * `npm run mutate [-- <group|module>...] [--check <report.json>...]`: runs Stryker
 * (mutation/stryker.config.mjs) on each named group (mutation/groups.mjs: core, guards, text;
 * all three when none is named) or module, one Stryker process at a time, then checks the floor
 * from each JSON report: every module at or above its group's floor, and every surviving mutant
 * listed in mutation/survivors.json with the reason it cannot matter. Exits 1 naming each module
 * under its floor and each survivor not listed. `--check` reads reports already written instead
 * of running Stryker. Not part of .ci/run: the three groups take about half an hour on two idle
 * cores with `--concurrency 2`.
 *
 * By default each run uses the test files that import a mutated module by its own path (not
 * through a folder's index.ts): fewer tests can only kill fewer mutants, so a floor met this way
 * is met by the whole suite too, and a module's own tests are the ones that should pin it.
 * `--all-tests` runs every non-e2e test file Stryker's related mode picks (much slower: the
 * client's modules reach most provider tests, each starting an emulator).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { GROUPS } from "../mutation/groups.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const SURVIVORS = join(root, "mutation", "survivors.json");
/** Stryker's statuses: detected, undetected, and the rest (not counted in the score). */
const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** The group a module belongs to, or undefined. */
export function groupOf(file) {
  return Object.entries(GROUPS).find(([, g]) => g.modules.includes(file))?.[0];
}

/** Whitespace collapsed, so a survivor entry survives reformatting. */
const squash = (s) => s.replace(/\s+/g, " ").trim();

/** The source text a mutant replaces (the report's columns are 1-based). */
export function originalOf(source, location) {
  const lines = source.split("\n");
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1].slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1].slice(0, end.column - 1),
  ].join("\n");
}

/** The whole source lines a mutant spans. */
const linesOf = (source, { start, end }) =>
  source
    .split("\n")
    .slice(start.line - 1, end.line)
    .join("\n");

/**
 * Whether a survivor-list entry names this mutant: same file, mutator and original text, and,
 * when given, the same replacement and a line holding `in` (to tell apart two mutants of the
 * same text, such as two `[]`). Whitespace is collapsed, so reformatting keeps the entry.
 */
export function matches(entry, file, mutant, original, source) {
  return (
    entry.file === file &&
    entry.mutator === mutant.mutatorName &&
    squash(entry.original) === squash(original) &&
    (entry.replacement === undefined || squash(entry.replacement) === squash(mutant.replacement ?? "")) &&
    (entry.in === undefined || squash(linesOf(source, mutant.location)).includes(squash(entry.in)))
  );
}

/**
 * Checks one Stryker JSON report against the floors and the survivor list. Returns the rows of
 * the score table and the problems (modules under their floor, survivors not listed).
 */
export function checkReport(report, survivors) {
  const rows = [];
  const problems = [];
  const used = new Set();
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const group = groupOf(file);
    const floor = group ? GROUPS[group].floor : undefined;
    const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
    const undetected = mutants.filter((m) => UNDETECTED.has(m.status));
    const valid = detected + undetected.length;
    const score = valid === 0 ? 100 : (100 * detected) / valid;
    let unlisted = 0;
    for (const m of undetected) {
      const original = originalOf(source, m.location);
      // An entry stands for one mutant: a second of the same text needs an entry of its own.
      const entry = survivors.find((e) => !used.has(e) && matches(e, file, m, original, source));
      if (entry) {
        used.add(entry);
        continue;
      }
      unlisted++;
      problems.push(
        `survivor not in mutation/survivors.json: ${file}:${m.location.start.line} ${m.mutatorName} (${m.status}): ` +
          `${JSON.stringify(squash(original))} -> ${JSON.stringify(squash(m.replacement ?? ""))}`,
      );
    }
    rows.push({ file, group, mutants: valid, detected, survived: undetected.length, unlisted, score, floor });
    if (floor !== undefined && score < floor)
      problems.push(`under its floor: ${file} scores ${score.toFixed(1)}%, the ${group} floor is ${floor}%`);
  }
  const files = new Set(Object.keys(report.files));
  const stale = survivors.filter((e) => files.has(e.file) && !used.has(e));
  return { rows, problems, stale };
}

function printRows(rows) {
  for (const r of rows)
    console.log(
      `${r.file.padEnd(36)} ${String(r.mutants).padStart(4)} mutants  ${String(r.survived).padStart(3)} undetected ` +
        `(${r.unlisted} unlisted)  ${r.score.toFixed(1).padStart(5)}%  floor ${r.floor ?? "-"}%`,
    );
}

const TEST_DIRS = ["test/unit", "test/emulator", "test/conformance", "test/provider"];
const SPECIFIER = /(?:from\s+|import\s*\(\s*)"(\.[^"]+)"/g;

/** The repository file a relative specifier stands for (`x` is `x.ts`, or `x/index.ts`). */
function resolved(fromFile, spec) {
  const base = join(dirname(fromFile), spec);
  return [`${base}.ts`, join(base, "index.ts"), base].find((f) => f.endsWith(".ts") && existsSync(join(root, f)));
}

/** The non-e2e test files that import one of `modules` by its own path. */
export function testsImporting(modules) {
  const wanted = new Set(modules);
  return TEST_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".test.ts"))
      .map((f) => relative(root, join(root, dir, f))),
  ).filter((test) => {
    const text = readFileSync(join(root, test), "utf8");
    return [...text.matchAll(SPECIFIER)].some((m) => wanted.has(resolved(test, m[1])));
  });
}

/** Runs Stryker on `modules`, writing `reportPath`; returns the seconds it took. */
function runStryker(modules, reportPath, allTests, strykerArgs = []) {
  const started = Date.now();
  const env = { ...process.env, MUTATE_REPORT: reportPath };
  if (!allTests) {
    const tests = testsImporting(modules);
    if (tests.length === 0) {
      console.log(
        `mutate: no test file imports ${modules.join(", ")}: every non-e2e file Stryker's related mode picks runs`,
      );
      return runStryker(modules, reportPath, true, strykerArgs);
    }
    console.log(`mutate: ${modules.join(", ")}: ${tests.length} test files import it: ${tests.join(", ")}`);
    env.MUTATE_TESTS = tests.join(",");
  }
  const res = spawnSync(
    "npx",
    ["stryker", "run", "mutation/stryker.config.mjs", "--mutate", modules.join(","), ...strykerArgs],
    {
      cwd: root,
      stdio: "inherit",
      env,
    },
  );
  if (res.status !== 0) {
    console.error(`mutate: Stryker failed (exit ${res.status}) on ${modules.join(", ")}`);
    process.exit(1);
  }
  return Math.round((Date.now() - started) / 1000);
}

/** What each argument names: a group, or one module of a group. */
function targets(args) {
  if (args.length === 0) return Object.keys(GROUPS).map((g) => ({ name: g, modules: GROUPS[g].modules }));
  const unknown = args.filter((a) => !GROUPS[a] && !groupOf(a));
  if (unknown.length > 0) {
    console.error(
      `mutate: ${unknown.join(", ")}: neither a group (${Object.keys(GROUPS).join(", ")}) nor one of their modules`,
    );
    process.exit(2);
  }
  return args.map((a) =>
    GROUPS[a] ? { name: a, modules: GROUPS[a].modules } : { name: basename(a, ".ts"), modules: [a] },
  );
}

function main(argv) {
  const survivors = JSON.parse(readFileSync(SURVIVORS, "utf8")).survivors;
  const allTests = argv.includes("--all-tests");
  argv = argv.filter((a) => a !== "--all-tests");
  // Passed on to Stryker: `--concurrency N` (test processes) and `--timeoutMS N` (per mutant).
  const strykerArgs = [];
  for (const flag of ["--concurrency", "--timeoutMS"]) {
    const at = argv.indexOf(flag);
    if (at < 0) continue;
    const value = argv[at + 1];
    if (!/^[1-9][0-9]*$/.test(value ?? "")) {
      console.error(`mutate: ${flag} needs a positive whole number, got ${JSON.stringify(value ?? null)}`);
      process.exit(2);
    }
    strykerArgs.push(flag, value);
    argv.splice(at, 2);
  }
  const checkAt = argv.indexOf("--check");
  const reports =
    checkAt >= 0
      ? argv.slice(checkAt + 1).map((path) => ({ path, seconds: undefined }))
      : targets(argv).map(({ name, modules }) => {
          const path = join("reports", "mutation", `${name}.json`);
          return { path, seconds: runStryker(modules, path, allTests, strykerArgs) };
        });
  const problems = [];
  for (const { path, seconds } of reports) {
    const result = checkReport(JSON.parse(readFileSync(join(root, path), "utf8")), survivors);
    console.log(`\n${path}${seconds === undefined ? "" : ` (${seconds} s)`}`);
    printRows(result.rows);
    for (const e of result.stale)
      console.log(`note: survivor entry no longer needed: ${e.file} ${e.mutator} ${JSON.stringify(e.original)}`);
    problems.push(...result.problems);
  }
  for (const p of problems) console.error(`mutate: ${p}`);
  process.exit(problems.length > 0 ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
