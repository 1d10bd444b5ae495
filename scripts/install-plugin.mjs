#!/usr/bin/env node
// The package's postinstall: puts the native provider plugin where the Pulumi CLI finds it,
// $PULUMI_HOME/plugins/resource-guardrails-v<version>/ (PULUMI_HOME defaults to ~/.pulumi), in
// the layout `pulumi plugin install resource guardrails <version> --file <dist/plugin>` writes:
// the launcher and the bundle, copied (the plugin keeps working when node_modules goes away).
// Nothing is downloaded. It never fails the install: on any problem it says, on one line, the
// command that does the same by hand, and exits 0.
//
// It does nothing in a checkout of the repository (the package is not inside a node_modules
// folder), and nothing when the package carries no built plugin (dist/plugin/). It writes only
// below $PULUMI_HOME/plugins, never through a link: the plugin folder is made fresh under a
// temporary name (`<dir>.tmp<digits>`, a name the CLI skips and later cleans up) and renamed
// into place, with the CLI's own `<dir>.partial` marker present while an older copy is replaced.
// It trusts no folder from $PULUMI_HOME down that is a link, that another user owns or that
// anyone but its owner can write (issue 38): it refuses such a $PULUMI_HOME or plugins folder,
// and an existing plugin folder of another user; it replaces, never accepts as "already
// installed", a copy of its own that others could have changed. What it makes is 0700 (folders)
// and 0755 or 0644 (files), whatever the umask.
import { randomInt } from "node:crypto";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FILES = [
  ["pulumi-resource-guardrails", 0o755],
  ["pulumi-resource-guardrails.cmd", 0o644],
  ["main.js", 0o644],
];
const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(pkg, "dist/plugin");

/** Lstat that answers undefined for a path that is not there. */
const lstat = (path) => {
  try {
    return lstatSync(path);
  } catch (err) {
    if (err.code === "ENOENT") return undefined;
    throw err;
  }
};

/** A reason not to write where a person did not ask: the message says it, then the command by hand. */
class Refusal extends Error {}

const uid = typeof process.getuid === "function" ? process.getuid() : undefined;

/** Why `path` (lstat `st`) is not to be trusted: a link, another user's, or writable by others. */
function untrusted(path, st) {
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (uid === undefined) return undefined; // Windows: no owner or mode bits to read
  if (st.uid !== uid) return `${path} is owned by another user (uid ${st.uid})`;
  if (st.mode & 0o022) return `${path} can be written by other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** A folder of ours only we can write, made (0700) when missing; else a Refusal. */
function ownFolder(path, { parents = false } = {}) {
  if (!lstat(path)) mkdirSync(path, { recursive: parents, mode: 0o700 });
  const st = lstat(path);
  const why = untrusted(path, st);
  if (why) throw new Refusal(why);
  if (!st.isDirectory()) throw new Error(`${path} exists and is not a folder`);
}

/** True when `dir` already holds exactly this plugin (the same bytes, nothing linked, nothing others can change). */
function sameAsSource(dir) {
  return FILES.every(([name]) => {
    const path = join(dir, name);
    const st = lstat(path);
    return st?.isFile() && !untrusted(path, st) && readFileSync(path).equals(readFileSync(join(source, name)));
  });
}

/** $PULUMI_HOME and its plugins folder, each a folder of ours only we can write (checked again before the rename). */
function pluginsFolder(home) {
  ownFolder(home, { parents: true }); // above $PULUMI_HOME: where the user chose to put it
  const plugins = join(home, "plugins");
  ownFolder(plugins);
  return plugins;
}

function install(version) {
  const home = process.env.PULUMI_HOME || join(homedir(), ".pulumi");
  const plugins = pluginsFolder(home);
  const final = join(plugins, `resource-guardrails-v${version}`);
  const existing = lstat(final);
  if (existing?.isSymbolicLink()) throw new Refusal(`${final} is a symbolic link`);
  if (existing && !existing.isDirectory()) throw new Error(`${final} exists and is not a folder`);
  // Another user's folder is theirs to remove; one of ours that others can write is replaced.
  if (existing && uid !== undefined && existing.uid !== uid) throw new Refusal(untrusted(final, existing));
  if (existing && !untrusted(final, existing) && !lstat(`${final}.partial`) && sameAsSource(final))
    return `already installed in ${final}`;

  let staging;
  for (let tries = 0; !staging; tries++) {
    const candidate = `${final}.tmp${randomInt(1e9)}`;
    try {
      mkdirSync(candidate, { mode: 0o700 });
      staging = candidate;
    } catch (err) {
      if (err.code !== "EEXIST" || tries > 5) throw err;
    }
  }
  try {
    for (const [name, mode] of FILES) {
      writeFileSync(join(staging, name), readFileSync(join(source, name)), { flag: "wx", mode });
      chmodSync(join(staging, name), mode);
    }
    if (existing) {
      const partial = lstat(`${final}.partial`);
      if (partial && !partial.isFile()) throw new Error(`${final}.partial exists and is not a file`);
      if (!partial) writeFileSync(`${final}.partial`, "", { flag: "wx", mode: 0o600 });
      rmSync(final, { recursive: true });
    }
    pluginsFolder(home); // unchanged while the files were written
    renameSync(staging, final);
    rmSync(`${final}.partial`, { force: true });
    return `installed in ${final}`;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

function main() {
  // A checkout of the repository (its own `npm ci`), or a linked folder: not an installed package.
  if (basename(dirname(pkg)) !== "node_modules") return;
  const { version } = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  const byHand = `pulumi plugin install resource guardrails ${version} --file ${source}`;
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(String(version)) || version.length > 64) {
    console.error(`pulumi-guardrails: not installing the plugin: the package version is not a semantic version`);
    return;
  }
  if (!FILES.every(([name]) => existsSync(join(source, name)))) {
    console.error(`pulumi-guardrails: this package carries no built plugin (${source}); the native face needs one`);
    return;
  }
  try {
    console.log(`pulumi-guardrails: the native provider plugin is ${install(version)}`);
  } catch (err) {
    if (err instanceof Refusal)
      console.error(
        `pulumi-guardrails: not installing the native provider plugin: ${err.message}, and the plugin is ` +
          `written only into folders of yours that no one else can write, never through a link; check it, then run: ${byHand}`,
      );
    else
      console.error(`pulumi-guardrails: could not install the native provider plugin (${err.message}); run: ${byHand}`);
  }
}

try {
  main();
} catch (err) {
  console.error(`pulumi-guardrails: plugin install skipped (${err?.message ?? err})`);
}
process.exitCode = 0;
