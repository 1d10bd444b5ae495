/**
 * Which files a declarative path stands for, read safely: only regular files inside the
 * given folder. A symlink that leaves the folder, a FIFO, a device or a folder named
 * `x.yaml` is a problem naming the path, never opened and never echoed; a pull request can
 * put any of these in a guardrails folder, and the preview runs with the API key in its
 * environment.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  type Stats,
} from "node:fs";
import { basename, dirname, isAbsolute, join, type PlatformPath, relative, sep } from "node:path";
import { isPolicyFile } from "./file-name";

/** Largest config file read, in bytes: a million ids fit with room to spare. */
export const MAX_CONFIG_FILE_BYTES = 64 * 1024 * 1024;

const CONFIG_FILE = /\.(ya?ml|json)$/i;

/** A config file's text, or why it was not read. */
export type ReadOutcome = { path: string; text: string } | { path: string; problem: string };

/** What a path stands for: the file itself, or the folder's config files (sorted), each read or refused. */
export function readConfigFiles(pathOrDir: string): ReadOutcome[] {
  const top = lstatSync(pathOrDir);
  const isDir = top.isDirectory() || (top.isSymbolicLink() && safeStat(pathOrDir)?.isDirectory() === true);
  if (!isDir) return [readInside(pathOrDir, realpathSync(dirname(pathOrDir)))];
  const root = realpathSync(pathOrDir);
  return (
    readdirSync(pathOrDir)
      // guardrails/policy.yaml holds the organization rules (src/policy), not a guardrail.
      .filter((f) => CONFIG_FILE.test(f) && !isPolicyFile(f))
      .sort()
      .map((f) => readInside(join(pathOrDir, f), root))
  );
}

function safeStat(path: string): Stats | undefined {
  try {
    return lstatSync(realpathSync(path));
  } catch {
    return undefined;
  }
}

/** Reads `path` if it is, or links to, a regular file inside `root` (a real path). */
function readInside(path: string, root: string): ReadOutcome {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return {
      path,
      problem:
        code === "ENOENT" && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()
          ? "a symlink to nothing; not read"
          : `cannot read (${code})`,
    };
  }
  if (leavesFolder(root, real)) {
    return {
      path,
      problem: `a symlink that leaves its folder; not read (config files must be regular files inside ${basename(root)}/)`,
    };
  }
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; O_NOFOLLOW: the real path has no link left to swap in.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    return { path, problem: `cannot read (${(err as NodeJS.ErrnoException).code})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { path, problem: `not a regular file (${kindOf(st)}); not read` };
    if (st.size > MAX_CONFIG_FILE_BYTES)
      return {
        path,
        problem: `${st.size} bytes, over the ${MAX_CONFIG_FILE_BYTES}-byte limit of a config file; not read`,
      };
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return { path, text: buf.subarray(0, got).toString("utf8") };
  } finally {
    closeSync(fd);
  }
}

/**
 * What an opened entry that is not a file is. A link cannot be one (O_NOFOLLOW) and neither can
 * a socket (opening one fails with ENXIO), so what is neither a folder nor a FIFO is a device.
 */
function kindOf(st: Stats): string {
  if (st.isDirectory()) return "a folder";
  if (st.isFIFO()) return "a FIFO";
  return "a device";
}

type FolderPaths = Pick<PlatformPath, "relative" | "sep" | "isAbsolute">;
const NATIVE: FolderPaths = { relative, sep, isAbsolute };

/**
 * Whether `real` lies outside the folder `root` (both real paths), by the platform's paths (a test
 * passes `win32`). On Windows a target on another drive has no relative path: `relative`
 * answers it whole, an absolute path, which is outside too.
 */
export function leavesFolder(root: string, real: string, path: FolderPaths = NATIVE): boolean {
  const rel = path.relative(root, real);
  return rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}
