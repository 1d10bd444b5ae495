#!/usr/bin/env node
// `npm run prepare`: builds the package unless dist/ already holds the build of exactly these
// sources. npm runs `prepare` on `npm ci` and `npm install` here, on `npm pack`, and, because the
// examples install the package from `file:../..` with install-links, on every `npm ci` in an
// example. A build rewrites every file under dist/ and deletes dist/plugin/ first, so a build
// started by one test pulled the emulator and the plugin out from under the tests running them
// (an emulator that read a half-written dist/emulator/store.js died with "Cannot read properties
// of undefined (reading 'open')"). `npm run build` always builds, and then records the hash of
// its inputs in dist/.build-stamp (`--stamp`); prepare compares against it.
//
//   node scripts/prepare.mjs           build unless dist/.build-stamp matches the inputs
//   node scripts/prepare.mjs --stamp   record the inputs' hash (the last step of `npm run build`)
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** What tsc and the plugin bundler read (tsconfig.build.json's and tsconfig.sdk.json's includes). */
export const INPUT_DIRS = ["src", "tools", "emulator", "bench", "support", "codegen", "sdk/nodejs"];
export const INPUT_FILES = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "tsconfig.sdk.json",
  "scripts/plugin-pack.mjs",
];
/** A build that lost one of these is no build, whatever the stamp says. */
export const OUTPUTS = ["dist/src/index.js", "dist/emulator/cli.js", "dist/plugin/main.js", "dist/sdk/nodejs/index.js"];
export const STAMP = "dist/.build-stamp";

const SOURCE = /\.(ts|mts|cts|json)$/;

function walk(root, dir, out) {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const rel = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== "results") walk(root, rel, out);
    } else if (e.isFile() && SOURCE.test(e.name)) out.push(rel);
  }
}

/** sha256 over the path and bytes of every input, in a stable order. */
export function inputsHash(root) {
  const files = [];
  for (const d of INPUT_DIRS) walk(root, d, files);
  for (const f of INPUT_FILES) if (existsSync(join(root, f))) files.push(f);
  files.sort();
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(`${f}\0`);
    hash.update(readFileSync(join(root, f)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** True when dist/ is the build of the current inputs. */
export function buildIsCurrent(root) {
  if (!OUTPUTS.every((f) => existsSync(join(root, f)))) return false;
  let stamp;
  try {
    stamp = readFileSync(join(root, STAMP), "utf8").trim();
  } catch {
    return false;
  }
  return stamp === inputsHash(root);
}

function main() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  if (process.argv[2] === "--stamp") {
    writeFileSync(join(root, STAMP), `${inputsHash(root)}\n`);
    return;
  }
  if (buildIsCurrent(root)) {
    console.error(`pulumi-guardrails: ${relative(process.cwd(), join(root, "dist")) || "dist"}/ is current; no build`);
    return;
  }
  const r = spawnSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  process.exit(r.status ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
