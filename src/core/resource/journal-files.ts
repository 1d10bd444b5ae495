/**
 * The create journal's files on disk, handled as hostile: the folder must be private (only
 * its owner, this user, may write it, or anyone could plant an entry the next create trusts),
 * a write never follows a link planted at its name, and a read opens regular files only (a
 * FIFO would block the create, a link could point anywhere).
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { redact } from "../client/redaction";
import { resolveSettings } from "../settings/config";
import { UserError } from "../user-error";

/** Largest entry read, in bytes; an entry is a few hundred. */
const MAX_ENTRY_BYTES = 16 * 1024;

/**
 * `GUARDRAILS_JOURNAL_DIR`, else `~/.pulumi-guardrails/journal`. A relative path is refused:
 * it would be made in whatever folder the program runs in (a repository), and a pasted key
 * would become a folder name there.
 */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.GUARDRAILS_JOURNAL_DIR;
  if (!dir) return join(homedir(), ".pulumi-guardrails", "journal");
  if (!isAbsolute(dir))
    throw new UserError(
      `GUARDRAILS_JOURNAL_DIR must be an absolute path to a folder only you can write (got the relative path ${JSON.stringify(shownPath(dir))})`,
    );
  return dir;
}

/**
 * Makes the folder if it is missing (mode 0700) and checks that only this user can write it.
 * False when it cannot be made (a read-only home: the journal is lost, the create goes on);
 * throws, naming the folder and the fix, when it exists and others could write it.
 */
export function privateFolder(dir: string): boolean {
  try {
    makeFolder(dir);
  } catch {
    // Nothing there (a read-only home): the journal is lost. Something in the way is reported below.
    if (!lstatQuiet(dir)) return false;
  }
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return false;
  const uid = process.getuid?.();
  // Mode bits and owners mean nothing on Windows (no getuid): nothing to check there.
  if (uid === undefined) return true;
  const mode = (st.mode & 0o777).toString(8);
  const shown = shownPath(dir);
  const refuse = (why: string, fix: string) =>
    new UserError(
      `the create journal folder ${shown} ${why}, so entries in it could be planted; ${fix}, or set GUARDRAILS_JOURNAL_DIR to a folder only you can write`,
    );
  const link = lstatQuiet(dir);
  // A link's owner can point it elsewhere at any moment, whatever the folder it points at now.
  if (link?.isSymbolicLink() && link.uid !== uid && link.uid !== 0)
    throw refuse(`is a link owned by uid ${link.uid}`, "remove the link");
  if (!st.isDirectory()) throw refuse("is not a folder", `remove it (it is made again, private)`);
  // Others could move the folder away and put theirs in its place; a sticky parent (/tmp) stops them.
  const parent = statSync(dirname(dir), { throwIfNoEntry: false });
  if (parent && parent.mode & 0o002 && !(parent.mode & 0o1000))
    throw refuse(
      `is in ${shownPath(dirname(dir))}, which others can write`,
      "move it into a folder only you can write",
    );
  if (st.uid !== uid)
    throw refuse(`is owned by uid ${st.uid}, not by this user (uid ${uid})`, `remove it (it is made again, private)`);
  if (st.mode & 0o002) throw refuse(`is writable by others (mode ${mode})`, `run \`chmod 700 ${shown}\``);
  if (st.mode & 0o020) throw refuse(`is writable by its group (mode ${mode})`, `run \`chmod 700 ${shown}\``);
  return true;
}

/**
 * `mkdir -p`, mode 0700, one level at a time: Node 20's recursive mkdirSync spins forever where
 * mkdir answers ENOENT under an existing parent (/proc), which would stall the create.
 */
function makeFolder(dir: string): void {
  const parent = dirname(dir);
  if (parent !== dir && !lstatQuiet(parent)) makeFolder(parent);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}

function lstatQuiet(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** `path` as a message may quote it: never with the API key in it, even when the key was pasted into GUARDRAILS_JOURNAL_DIR. */
export function shownPath(path: string): string {
  let key: string | undefined;
  try {
    key = resolveSettings().apiKey;
  } catch {
    // Not configured: no key to hide.
  }
  return redact(path, key);
}

/** Removes `file` if it is there; never throws (a journal that cannot be tidied must not fail a create that succeeded). */
export function discard(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Left for the age limit (create-journal.ts) to drop.
  }
}

/**
 * Writes `text` to `file` atomically, readable by this user only: through a temp file of
 * random name created exclusively, never through a link, then renamed over `file` (a rename
 * replaces a link at `file`, it does not follow it).
 */
export function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${randomBytes(8).toString("hex")}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * The text of `file` when it is a regular file (not a link, FIFO, device or folder) of bounded
 * size that this user owns (one another user planted while the folder was open, or linked in,
 * is not ours); else undefined.
 */
export function readRegular(file: string): string | undefined {
  try {
    // lstat first: a FIFO is never opened at all (even a non-blocking open lets a writer in).
    const seen = lstatSync(file);
    if (!seen.isFile() || seen.size > MAX_ENTRY_BYTES) return undefined;
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const st = fstatSync(fd);
      // Swapped between the lstat and the open: not the file we looked at.
      if (!st.isFile() || st.ino !== seen.ino || st.dev !== seen.dev) return undefined;
      if (process.getuid && st.uid !== process.getuid()) return undefined;
      const buf = Buffer.alloc(MAX_ENTRY_BYTES + 1);
      const n = readSync(fd, buf, 0, buf.length, 0);
      return n > MAX_ENTRY_BYTES ? undefined : buf.subarray(0, n).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}
