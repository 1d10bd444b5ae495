/**
 * Writing the exported files: only into the named folder, never through a link. A clone of
 * someone else's repository can hold `guardrails/engineering.yaml -> ~/.npmrc` (or a link to
 * nothing, which a plain write would create); the export refuses every link, dangling or not,
 * before it writes anything, and opens each file so that a link swapped in afterwards is
 * never followed either.
 */
import { randomBytes } from "node:crypto";
import { shown } from "../core/args/messages";
import { isInvisible } from "../core/text/controls";
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
  type Stats,
} from "node:fs";
import { join, resolve } from "node:path";
import { UserError } from "../core/user-error";

/** One file to write: its plain name inside the folder, and its text. */
export interface FileToWrite {
  fileName: string;
  text: string;
}

/** A target the export will not write: a link, something other than a file, or a name that leaves the folder. */
export class ExportTargetError extends UserError {
  constructor(
    readonly problems: string[],
    options?: ErrorOptions,
  ) {
    super(problems.join("\n"), options);
  }
}

/** `writeFiles` found files it would overwrite. */
export class ExportConflictError extends UserError {
  constructor(readonly existing: string[]) {
    super(
      `${existing.length} file(s) already exist: ${existing.join(", ")}; pass --force (force: true) to overwrite them`,
    );
  }
}

/** A file name: no separator and no control character (NUL included), which no file of ours needs. */
/** A name with no separator and no invisible character: a bidi control or a zero-width one
 * would make the file a reader sees differ from the one written. */
const plainName = (name: string) => name.length > 0 && !/[/\\]/.test(name) && ![...name].some(isInvisible);
const lstat = (path: string): Stats | undefined => lstatSync(path, { throwIfNoEntry: false });
const LINK =
  "is a symbolic link; guardrails-export never writes through a link: remove it, or export into another folder";

/**
 * Writes each file into `dir` (created if missing). Before writing anything it refuses, naming
 * each: a folder that is a link, a name that is not a plain file name, a target that is a link
 * or not a regular file; then, without `force`, every file that exists. A new file is opened
 * with O_CREAT|O_EXCL, which never follows a link; with `force`, the text goes to a new
 * temporary file in the folder that is renamed over the old one (a rename replaces the entry,
 * never a link's target).
 *
 * The system refusing (EACCES, ENOTDIR, ENOSPC...) is an `ExportTargetError` too.
 *
 * @returns the paths written.
 */
export function writeFiles(dir: string, files: readonly FileToWrite[], options: { force?: boolean } = {}): string[] {
  try {
    return writeInto(dir, files, options);
  } catch (err) {
    throw systemFailure(dir, err);
  }
}

function writeInto(dir: string, files: readonly FileToWrite[], options: { force?: boolean }): string[] {
  // Resolved first: `lstat("link/")` and `lstat("link/.")` follow the link, and the writes
  // below use the same lexical path (join normalizes it), so the check sees what they see.
  const folder = resolve(dir);
  const top = lstat(folder);
  if (top?.isSymbolicLink())
    throw new ExportTargetError([
      `${dir} is a symbolic link; guardrails-export writes only into a real folder: pass the folder it points to, or another one`,
    ]);
  if (top && !top.isDirectory()) throw new ExportTargetError([`${dir} is not a folder`]);
  const paths = files.map((f) => join(dir, f.fileName));
  const problems: string[] = [];
  const existing: string[] = [];
  files.forEach((f, i) => {
    if (!plainName(f.fileName) || f.fileName === "." || f.fileName === "..") {
      problems.push(`${shown(f.fileName)} is not a plain file name; an export writes only directly into its folder`);
      return;
    }
    const st = top ? lstat(paths[i]!) : undefined;
    if (st?.isSymbolicLink()) problems.push(`${paths[i]} ${LINK}`);
    else if (st && !st.isFile())
      problems.push(`${paths[i]} is not a regular file; guardrails-export replaces only files it could have written`);
    else if (st) existing.push(paths[i]!);
  });
  if (problems.length > 0) throw new ExportTargetError(problems);
  if (existing.length > 0 && !options.force) throw new ExportConflictError(existing);
  mkdirSync(folder, { recursive: true });
  files.forEach((f, i) => {
    if (existing.includes(paths[i]!)) replaceFile(dir, paths[i]!, f.text);
    else createFile(paths[i]!, f.text);
  });
  return paths;
}

/**
 * The system refusing a write (EACCES, ENOSPC, EROFS...) is the user's to fix, so it reads as one
 * line; anything else passes through. Only the system's errors name the call that failed.
 */
function systemFailure(dir: string, err: unknown): unknown {
  const { syscall } = (err ?? {}) as NodeJS.ErrnoException;
  if (typeof syscall !== "string") return err;
  return new ExportTargetError([`cannot write into ${dir}: ${(err as Error).message}`], { cause: err });
}

/**
 * O_EXCL fails on any existing entry, a link to nothing included: with O_CREAT it never follows a
 * link (POSIX), so O_NOFOLLOW would add nothing.
 */
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

function createFile(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, CREATE, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // Appeared since the check: a link is named as one; anything else is a conflict, never overwritten.
    if (lstat(path)?.isSymbolicLink()) throw new ExportTargetError([`${path} ${LINK}`]);
    if (code === "EEXIST") throw new ExportConflictError([path]);
    throw err;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

function replaceFile(dir: string, path: string, text: string): void {
  const temp = join(dir, `.guardrails-export-${randomBytes(6).toString("hex")}.tmp`);
  try {
    createFile(temp, text);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}
