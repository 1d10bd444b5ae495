/**
 * The thin git side of `guardrails-ci preview`: list what a PR changed since its merge base,
 * then write the selected data files from the head into a working tree checked out at the base.
 * Blobs are sized and read with batched `git cat-file` processes (one to size them all, one per 64
 * files to read), so no filter, hook or attribute from the PR ever runs.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../../src/export";
import { MAX_CHANGES, selectFiles, type Change, type Selection } from "./select";

/** Runs git with fixed, quoting-free output, `input` on its standard input. Wraps a failure with the command it ran. */
export function git(cwd: string, args: string[], input?: string): Buffer {
  try {
    return execFileSync("git", ["-c", "core.quotePath=false", ...args], {
      cwd,
      input,
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? "").trim();
    throw new UserError(`git ${args.join(" ")} failed${stderr ? `: ${stderr}` : ""}`, { cause: err });
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
    if (!m) throw new UserError(`unexpected line from git diff --raw: ${JSON.stringify(head.slice(0, 200))}`);
    changes.push({ status: m[5]!, path: fields[i + 1]!, newMode: m[2]!, newBlob: m[4]! });
  }
  return changes;
}

/** The commit a ref names, checked to be one. */
export function commitOf(cwd: string, ref: string): string {
  if (ref.startsWith("-"))
    throw new UserError(`ref ${JSON.stringify(ref)} starts with "-"; expected a branch, tag or commit`);
  return text(cwd, ["rev-parse", "--verify", "--end-of-options", `${ref}^{commit}`]);
}

const diffRaw = (cwd: string, from: string, to: string) =>
  parseRawDiff(
    git(cwd, ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", from, to, "--"]).toString("utf8"),
  );

/**
 * The size of each blob, from one `git cat-file --batch-check` process whatever their number
 * (one process per blob took 235 s for 5,000 paths). A blob git does not have is an error.
 */
export function blobSizes(cwd: string, blobs: string[]): Map<string, number> {
  const sizes = new Map<string, number>();
  const unique = [...new Set(blobs)];
  if (unique.length === 0) return sizes;
  const lines = git(cwd, ["cat-file", "--batch-check"], unique.map((b) => `${b}\n`).join(""))
    .toString("utf8")
    .split("\n");
  unique.forEach((blob, i) => {
    const m = /^([0-9a-f]+) (\S+) (\d+)$/.exec(lines[i] ?? "");
    if (!m || m[1] !== blob || m[2] !== "blob")
      throw new UserError(
        `git cat-file --batch-check answered ${JSON.stringify((lines[i] ?? "").slice(0, 200))} for ${blob}; expected "${blob} blob <size>"`,
      );
    sizes.set(blob, Number(m[3]));
  });
  return sizes;
}

/**
 * What the PR changed since it branched, with the size of each head-side blob, and what the base
 * changed meanwhile. Over MAX_CHANGES paths nothing is sized: the count alone refuses the PR.
 */
export function prChanges(cwd: string, base: string, head: string): { changes: Change[]; baseChanged: string[] } {
  const mergeBase = text(cwd, ["merge-base", base, head]);
  const baseChanged = diffRaw(cwd, mergeBase, base).map((c) => c.path);
  const changes = diffRaw(cwd, mergeBase, head);
  if (changes.length > MAX_CHANGES) return { changes, baseChanged };
  const regular = (c: Change) => (c.newMode === "100644" || c.newMode === "100755") && !/^0+$/.test(c.newBlob);
  const sizes = blobSizes(
    cwd,
    changes.filter(regular).map((c) => c.newBlob),
  );
  return { changes: changes.map((c) => (regular(c) ? { ...c, size: sizes.get(c.newBlob)! } : c)), baseChanged };
}

/** Blobs read per `git cat-file --batch` process: data files are at most 1 MiB, so one read holds at most 64 MiB. */
const BLOBS_PER_READ = 64;

/** The contents of a few blobs (at most BLOBS_PER_READ), from one `git cat-file --batch` process (no filter runs). */
export function readBlobs(cwd: string, blobs: string[]): Map<string, Buffer> {
  const contents = new Map<string, Buffer>();
  const unique = [...new Set(blobs)];
  if (unique.length === 0) return contents;
  const out = git(cwd, ["cat-file", "--batch"], unique.map((b) => `${b}\n`).join(""));
  let at = 0;
  for (const blob of unique) {
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol < 0 ? out.length : eol).toString("utf8");
    const m = /^([0-9a-f]+) blob (\d+)$/.exec(header);
    if (eol < 0 || !m || m[1] !== blob)
      throw new UserError(
        `git cat-file --batch answered ${JSON.stringify(header.slice(0, 200))} for ${blob}; expected "${blob} blob <size>"`,
      );
    const start = eol + 1;
    const end = start + Number(m[2]);
    if (end + 1 > out.length || out[end] !== 10) throw new UserError(`git cat-file --batch cut ${blob} short`);
    contents.set(blob, out.subarray(start, end));
    at = end + 1;
  }
  return contents;
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
    if (isLink)
      throw new UserError(
        `${parts.slice(0, i).join("/")} is a symbolic link in the working tree; refusing to write ${path} through it`,
      );
  }
}

/** Writes the taken data files as plain 0644 files and deletes the removed ones. */
export function applySelection(cwd: string, selection: Selection): void {
  for (let i = 0; i < selection.take.length; i += BLOBS_PER_READ) {
    const chunk = selection.take.slice(i, i + BLOBS_PER_READ);
    const contents = readBlobs(
      cwd,
      chunk.map((t) => t.blob),
    );
    for (const { path, blob } of chunk) {
      assertNoLinks(cwd, path);
      const target = join(cwd, path);
      mkdirSync(join(target, ".."), { recursive: true });
      try {
        unlinkSync(target);
      } catch {}
      writeFileSync(target, contents.get(blob)!, { mode: 0o644, flag: "wx" });
    }
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
  if (checkedOut !== base)
    throw new UserError(
      `the working tree is at ${checkedOut}, not at the base ${base}; check out the base first, since everything but the data files comes from it`,
    );
  const { changes, baseChanged } = prChanges(cwd, base, head);
  const selection = selectFiles(changes, { dataDir: options.dataDir, baseChanged });
  if (selection.exposeKey) applySelection(cwd, selection);
  return selection;
}
