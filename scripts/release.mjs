#!/usr/bin/env node
// A release in one command (issue 42). For package.json's version X.Y.Z:
//
//   1. checks: the work tree is clean, the tags vX.Y.Z and sdk/go/vX.Y.Z are new, CHANGELOG.md has
//      a `## X.Y.Z` section;
//   2. `npm run sdk:check` (the committed SDKs are what the schema generates), then builds
//      (scripts/prepare.mjs: a build unless dist/ already holds the build of these sources);
//   3. writes into --out (default dist/release; new, empty or an earlier release's, never a link:
//      it is replaced whole, and only once every artifact is made), and nothing else there: the npm tarball
//      (`npm pack`), the five standalone plugin archives (`plugin-pack.mjs sea --platform all`),
//      the Python wheel (scripts/sdk-pack.mjs) and one SHA256SUMS over all of them;
//   4. tags vX.Y.Z and sdk/go/vX.Y.Z (the Go module's tag: its go.mod is in sdk/go) on HEAD and
//      prints the push command. It never pushes.
//
//   node scripts/release.mjs [--dry-run] [--out DIR] [--unsigned-darwin]   (`npm run release -- --dry-run`)
//   node scripts/release.mjs --from-tag [--out DIR]    (.github/workflows/release.yml)
//
// --dry-run reports a dirty tree or an existing tag but goes on, and tags nothing: CI runs it
// (.ci/run), so the steps the workflow takes cannot rot. --from-tag is the workflow's: HEAD must
// carry vX.Y.Z already (the push of that tag started it); it builds and checks the same, and tags
// only sdk/go/vX.Y.Z if missing, which the workflow pushes. A missing CHANGELOG section fails in
// every mode. Needs git, npm, Go (sdk:check), python3 with pip (the wheel) and rcodesign
// (RCODESIGN_VERSION in scripts/plugin-sea.mjs; scripts/ensure-rcodesign builds it): the two darwin
// executables are signed ad hoc, since macOS on Apple silicon runs no unsigned binary. Without it
// the release stops before building, naming what is missing, unless --unsigned-darwin says to go
// on: then those two archives are named `...-darwin-<arch>-unsigned.tar.gz` (so SHA256SUMS says so,
// and the workflow's patterns, which want signed ones, match neither) and the tag's message says
// so. --from-tag refuses --unsigned-darwin: what the workflow publishes is signed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { archiveName, findSigner, PLATFORMS } from "./plugin-sea.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Every file a release of `version` attaches, in the order the workflow lists them. */
export function releaseArtifacts(version, unsignedDarwin = false) {
  return [
    `pulumi-guardrails-${version}.tgz`,
    ...Object.keys(PLATFORMS).map((platform) => archiveName(platform, version, unsignedDarwin)),
    `pulumi_guardrails-${version}-py3-none-any.whl`,
    "SHA256SUMS",
  ];
}

/** The git tags a release of `version` makes: the package's and the Go module's. */
export const releaseTags = (version) => [`v${version}`, `sdk/go/v${version}`];

/** A release's version: X.Y.Z, or X.Y.Z-pre (it names files and tags, and reaches a regular expression). */
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?$/;

/** A file name a release of some version makes (so a folder of them is a release's, safe to replace). */
const isReleaseArtifact = (name) =>
  [...releaseArtifacts("\0"), ...releaseArtifacts("\0", true)].some((a) =>
    new RegExp(`^${a.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace("\0", "[0-9A-Za-z.-]+")}$`).test(name),
  );

/**
 * Why `out` cannot take a release, if it cannot: it is replaced whole, so it must be new, empty,
 * or an earlier release's folder (only artifacts in it), and a folder itself, not a link to one.
 */
export function outProblem(out) {
  let stat;
  try {
    stat = lstatSync(out);
  } catch {
    return undefined; // new
  }
  if (stat.isSymbolicLink()) return `--out ${out} is a symbolic link: give the folder itself`;
  if (!stat.isDirectory()) return `--out ${out} is not a folder`;
  const other = readdirSync(out).filter((f) => !isReleaseArtifact(f));
  if (other.length > 0)
    return `--out ${out} holds ${other.slice(0, 3).join(", ")}${other.length > 3 ? ", ..." : ""}, which no release made; it is replaced whole: give a new or empty folder`;
  return undefined;
}

const die = (message) => {
  console.error(`release: ${message}`);
  process.exit(1);
};
const git = (...args) => execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
const tagExists = (tag) => {
  try {
    git("rev-parse", "--quiet", "--verify", `refs/tags/${tag}`);
    return true;
  } catch {
    return false;
  }
};
/** A step's child: its output goes to stderr, so stdout holds only what this script reports. */
const step = (label, command, args, options = {}) => {
  console.error(`release: ${label}`);
  return execFileSync(command, args, { cwd: root, stdio: ["ignore", 2, "inherit"], ...options });
};

function parseArgs(args) {
  const opts = { mode: "release", out: join(root, "dist/release"), unsignedDarwin: false };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--dry-run" || args[i] === "--from-tag") {
      if (opts.mode !== "release") die("--dry-run and --from-tag: one or the other");
      opts.mode = args[i].slice(2);
    } else if (args[i] === "--out") opts.out = resolve(args[++i] ?? die("--out needs a folder"));
    else if (args[i] === "--unsigned-darwin") opts.unsignedDarwin = true;
    else die(`unknown argument ${args[i]}: expected --dry-run, --from-tag, --out DIR or --unsigned-darwin`);
  }
  if (opts.mode === "from-tag" && opts.unsignedDarwin)
    die("--from-tag refuses --unsigned-darwin: the release the workflow publishes has signed darwin executables");
  return opts;
}

/** What stands in the way of a release of `version` in `mode`: [fatal problems, reported ones]. */
function preflight(version, mode, unsignedDarwin) {
  const fatal = [];
  const reported = [];
  if (!unsignedDarwin) {
    const { missing } = findSigner();
    if (missing) fatal.push(`${missing}; or pass --unsigned-darwin to release them unsigned (named -unsigned)`);
  }
  const [tag, goTag] = releaseTags(version);
  const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
  const escaped = version.replaceAll(".", "\\.");
  if (!new RegExp(`^## \\[?v?${escaped}\\]?(\\s|$)`, "m").test(changelog))
    fatal.push(`CHANGELOG.md has no "## ${version}" section`);
  const dirty = git("status", "--porcelain");
  if (dirty) (mode === "dry-run" ? reported : fatal).push(`the work tree is not clean:\n${dirty}`);
  if (mode === "from-tag") {
    const at = git("tag", "--points-at", "HEAD").split("\n");
    if (!at.includes(tag)) fatal.push(`HEAD does not carry ${tag} (it carries: ${at.join(" ") || "no tag"})`);
  } else {
    for (const t of [tag, goTag])
      if (tagExists(t)) (mode === "dry-run" ? reported : fatal).push(`the tag ${t} exists already`);
  }
  return [fatal, reported];
}

const sha256 = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** The artifacts into `out`, checked to be exactly releaseArtifacts(version), and SHA256SUMS. */
function build(version, out, unsignedDarwin) {
  step("npm run sdk:check", "npm", ["run", "sdk:check", "--silent"]);
  step("build (scripts/prepare.mjs)", process.execPath, [join(root, "scripts/prepare.mjs")]);
  // Into a fresh folder beside --out, moved into place only when complete: a failure leaves --out as it was.
  mkdirSync(dirname(out), { recursive: true });
  const partial = mkdtempSync(join(dirname(out), `.${basename(out)}.partial-`));
  try {
    artifacts(version, partial, unsignedDarwin);
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
  rmSync(out, { recursive: true, force: true }); // outProblem: new, or only an earlier release's artifacts
  renameSync(partial, out);
  return releaseArtifacts(version, unsignedDarwin).map((f) => join(out, f));
}

/** Every artifact into the folder `out`, checked to be exactly releaseArtifacts(version). */
function artifacts(version, out, unsignedDarwin) {
  step("npm pack", "npm", ["pack", "--pack-destination", out, "--loglevel=error"]);
  step("the five plugin archives", process.execPath, [
    join(root, "scripts/plugin-pack.mjs"),
    ...["sea", "--platform", "all", "--out", out, unsignedDarwin ? "--unsigned-darwin" : "--sign-darwin"],
  ]);
  const packages = mkdtempSync(join(tmpdir(), "release-sdk-"));
  try {
    step("the wheel (scripts/sdk-pack.mjs)", process.execPath, [join(root, "scripts/sdk-pack.mjs"), packages]);
    const wheel = readdirSync(packages).filter((f) => f.endsWith(".whl"));
    for (const f of wheel) copyFileSync(join(packages, f), join(out, f));
  } finally {
    rmSync(packages, { recursive: true, force: true });
  }
  const want = releaseArtifacts(version, unsignedDarwin);
  const files = want.filter((f) => f !== "SHA256SUMS");
  // sha256sum's own format, one SHA256SUMS over every artifact (it replaces the archives' own).
  writeFileSync(join(out, "SHA256SUMS"), files.map((f) => `${sha256(join(out, f))}  ${f}\n`).join(""));
  const got = readdirSync(out).sort();
  if (JSON.stringify(got) !== JSON.stringify([...want].sort()))
    throw new Error(`${out} holds ${got.join(", ")}; expected ${want.join(", ")}`);
}

export function main(args) {
  const { mode, out, unsignedDarwin } = parseArgs(args);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  if (typeof version !== "string" || !VERSION.test(version))
    die(`package.json's version ${JSON.stringify(version)}: expected X.Y.Z or X.Y.Z-pre (it names the tags and files)`);
  const problem = outProblem(out);
  if (problem) die(problem);
  const [tag, goTag] = releaseTags(version);
  const [fatal, reported] = preflight(version, mode, unsignedDarwin);
  for (const r of reported) console.error(`release: --dry-run goes on, but a release would stop here: ${r}`);
  if (fatal.length) die(fatal.join("\n"));
  for (const file of build(version, out, unsignedDarwin)) console.log(file);
  if (mode === "dry-run") {
    console.error(`release: --dry-run: tagged nothing; a release tags ${tag} and ${goTag} on HEAD`);
    return;
  }
  const message = `pulumi-guardrails ${version}${unsignedDarwin ? " (its darwin executables are unsigned)" : ""}`;
  if (mode === "release") git("tag", "--annotate", tag, "--message", message);
  if (!tagExists(goTag)) git("tag", "--annotate", goTag, "--message", `${message}: the Go SDK`);
  console.error(`release: tagged ${mode === "release" ? `${tag} and ` : ""}${goTag}; to publish:`);
  console.error(`  git push origin ${tag} ${goTag}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    die(err.message);
  }
}
