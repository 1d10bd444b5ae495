/**
 * The thin git side of `guardrails-ci preview`: list what a PR changed since its merge base,
 * then write the selected data files from the head into a working tree checked out at the base.
 * Blobs are read with `git cat-file`, so no filter, hook or attribute from the PR ever runs.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { selectFiles, type Change, type Selection } from "./select";

/** Runs git with fixed, quoting-free output. Wraps a failure with the command it ran. */
export function git(cwd: string, args: string[]): Buffer {
  try {
    return execFileSync("git", ["-c", "core.quotePath=false", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? "").trim();
    throw new Error(`git ${args.join(" ")} failed${stderr ? `: ${stderr}` : ""}`, { cause: err });
  }
}

const text = (cwd: string, args: string[]) => git(cwd, args).toString("utf8").trim();

/** Parses `git diff --raw -z --no-renames --no-abbrev`: `:oldmode newmode oldblob newblob status\0path\0`. */
export function parseRawDiff(out: string): Change[] {
  const fields = out.split("\0");
  const changes: Change[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const head = fields[i]!.replace(/^\n/, "");
    if (head === "") break;
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(head);
    if (!m) throw new Error(`unexpected line from git diff --raw: ${JSON.stringify(head.slice(0, 200))}`);
    changes.push({ status: m[5]!, path: fields[i + 1]!, newMode: m[2]!, newBlob: m[4]! });
  }
  return changes;
}

/** The commit a ref names, checked to be one. */
export function commitOf(cwd: string, ref: string): string {
  if (ref.startsWith("-")) throw new Error(`ref ${JSON.stringify(ref)} starts with "-"; expected a branch, tag or commit`);
  return text(cwd, ["rev-parse", "--verify", "--end-of-options", `${ref}^{commit}`]);
}

const diffRaw = (cwd: string, from: string, to: string) => parseRawDiff(git(cwd, ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", from, to, "--"]).toString("utf8"));

/** What the PR changed since it branched, with the size of each head-side blob, and what the base changed meanwhile. */
export function prChanges(cwd: string, base: string, head: string): { changes: Change[]; baseChanged: string[] } {
  const mergeBase = text(cwd, ["merge-base", base, head]);
  const regular = (c: Change) => (c.newMode === "100644" || c.newMode === "100755") && !/^0+$/.test(c.newBlob);
  const changes = diffRaw(cwd, mergeBase, head).map((c) => (regular(c) ? { ...c, size: Number(text(cwd, ["cat-file", "-s", c.newBlob])) } : c));
  return { changes, baseChanged: diffRaw(cwd, mergeBase, base).map((c) => c.path) };
}

/** Refuses to write through a symbolic link anywhere on the way to `path` (relative to `root`). */
function assertNoLinks(root: string, path: string): void {
  const parts = path.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const p = join(root, ...parts.slice(0, i));
    let isLink = false;
    try {
      isLink = lstatSync(p).isSymbolicLink();
    } catch {
      return; // does not exist yet, so nothing below it does either
    }
    if (isLink) throw new Error(`${parts.slice(0, i).join("/")} is a symbolic link in the working tree; refusing to write ${path} through it`);
  }
}

/** Writes the taken data files as plain 0644 files and deletes the removed ones. */
export function applySelection(cwd: string, selection: Selection): void {
  for (const { path, blob } of selection.take) {
    assertNoLinks(cwd, path);
    const target = join(cwd, path);
    mkdirSync(join(target, ".."), { recursive: true });
    try {
      unlinkSync(target);
    } catch {}
    writeFileSync(target, git(cwd, ["cat-file", "blob", blob]), { mode: 0o644, flag: "wx" });
  }
  for (const path of selection.remove) {
    assertNoLinks(cwd, path);
    try {
      unlinkSync(join(cwd, path));
    } catch {}
  }
}

/**
 * The whole preparation: the working tree must be checked out at `base` (everything executable
 * comes from it); decides, and writes the data files only when the key may be used.
 */
export function prepareDataPreview(cwd: string, options: { base: string; head: string; dataDir: string }): Selection {
  const base = commitOf(cwd, options.base);
  const head = commitOf(cwd, options.head);
  const checkedOut = commitOf(cwd, "HEAD");
  if (checkedOut !== base) throw new Error(`the working tree is at ${checkedOut}, not at the base ${base}; check out the base first, since everything but the data files comes from it`);
  const { changes, baseChanged } = prChanges(cwd, base, head);
  const selection = selectFiles(changes, { dataDir: options.dataDir, baseChanged });
  if (selection.exposeKey) applySelection(cwd, selection);
  return selection;
}
