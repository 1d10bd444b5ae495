/**
 * A journal of guardrail creates on this machine, so a `pulumi up` killed in the middle of a
 * create (SIGKILL, a CI runner's timeout) leaves a trace the next `up` can recover from.
 *
 * Before its POST, a create writes an entry: the resource (project/stack/name, which the
 * Guardrail passes as the hidden input `__resource`), a digest of the service URL and create
 * body, the start time, its pid and the pids of the engine above it. When the POST answers,
 * the entry records the id, and it stays until a later call (diff, read, update, delete)
 * shows that the engine recorded that id. The engine only calls `create` for a resource it
 * has not recorded, so when a create finds an entry for its own resource and body from a run
 * whose engine is gone, that run's guardrail was never recorded: with an id it is adopted;
 * without one (the process died before the answer) the guardrail created since the entry's
 * start is looked for. The key and any secret never enter an entry, nor does the body: only
 * its digest, in a folder only this user can write and read (journal-files.ts).
 *
 * Everything read back is untrusted: an entry is validated (a bad one is ignored), and the id
 * the server answered is data: file names carry its digest, never the id itself.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { discard, journalDir, privateFolder, readRegular, writePrivate } from "./journal-files";

/** Linux's PID_MAX_LIMIT. 0, 1 and negatives are no provider process: `kill(0 | -1)` signals groups, 1 is init. */
const PID = z.number().int().min(2).max(4_194_304);

/** What a journal entry records; an entry that does not fit is ignored. */
const journalEntry = z.object({
  v: z.literal(1),
  /** `project/stack/name` of the resource. */
  resource: z.string().min(1).max(4096),
  /** createKey's digest. */
  key: z.string().regex(/^[0-9a-f]{64}$/),
  started: z.number().int().positive(),
  pid: PID,
  /** The provider's parent and grandparent: the CLI sits there (the plugin runs under `sh`). */
  engine: z.array(PID).max(2),
  /** The id the POST answered, as the server sent it. */
  id: z.string().min(1).max(1024).optional(),
});

/** What a journal entry records. */
export type JournalEntry = z.infer<typeof journalEntry>;

/** Entries older than this are dropped unread: the run they belong to is long over. */
const MAX_AGE_MS = 7 * 24 * 3600_000;
/** An entry started further in the future than this is not one of ours. */
const MAX_CLOCK_AHEAD_MS = 5 * 60_000;

/**
 * The identity of a create: the resource, the service it goes to and exactly what it asks for.
 * Object keys are sorted (list order is kept), so the entry of one version is found by the next
 * whatever order its code builds the body's keys in.
 */
export function createKey(resource: string, baseUrl: string, body: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([resource, baseUrl, body], sortedKeys))
    .digest("hex");
}

/** What stands for an id in a file name: its digest, so no server's id is ever part of a path. */
const idTag = (id: string) => createHash("sha256").update(id).digest("hex").slice(0, 16);

function sortedKeys(_key: string, value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function parentOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so split after ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
}

const ENGINE = [process.ppid, parentOf(process.ppid)].filter((p): p is number => p !== undefined && p > 1);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** When process `pid` started, in ms since the epoch (from /proc; USER_HZ is 100); undefined when unknown. */
function startedAt(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** How much later than an entry a process may seem to have started and still be the one named in it (clock steps). */
const START_SLACK_MS = 60_000;

/**
 * Whether the process `pid` that an entry started at `since` names may still be running. Pids
 * are reused: a live process that started after the entry is another one (a fresh container
 * hands out the same pids every run), so the entry's process is gone. Unknown start: alive.
 */
export function stillRuns(pid: number, since: number): boolean {
  return alive(pid) && !((startedAt(pid) ?? -Infinity) > since + START_SLACK_MS);
}

let counter = 0;

/** One create's entry. */
export class JournalHandle {
  private file: string;

  private constructor(
    private readonly dir: string,
    private readonly base: string,
    readonly entry: JournalEntry,
  ) {
    this.file = join(dir, `${base}.json`);
  }

  /** Writes the entry before the POST; never fails the create (a read-only home just loses the journal). */
  static begin(resource: string, key: string, dir = journalDir()): JournalHandle {
    const entry: JournalEntry = { v: 1, resource, key, started: Date.now(), pid: process.pid, engine: ENGINE };
    const handle = new JournalHandle(dir, `${key.slice(0, 16)}-${process.pid}-${++counter}`, entry);
    try {
      // An unsafe folder was refused by orphans() before this create made any call.
      if (privateFolder(dir)) handle.write();
    } catch {
      // The journal is a recovery aid, not a precondition.
    }
    return handle;
  }

  /** The POST answered `id`: kept (the file name ends in the id's tag) until the engine shows it recorded it. */
  landed(id: string): void {
    const old = this.file;
    this.entry.id = id;
    this.file = join(this.dir, `${this.base}.${idTag(id)}.json`);
    this.write();
    discard(old);
  }

  /** The engine knows `id` (it called diff, read, update or delete with it): drop its entries. */
  static forget(id: string, dir?: string): void {
    try {
      const tag = `.${idTag(id)}.json`;
      const folder = dir ?? journalDir();
      for (const f of readdirSync(folder)) if (f.endsWith(tag)) discard(join(folder, f));
    } catch {
      // No journal folder (or a setting create reports): nothing to forget.
    }
  }

  remove(): void {
    discard(this.file);
  }

  private write(): void {
    try {
      writePrivate(this.file, JSON.stringify(this.entry));
    } catch {
      // As in begin.
    }
  }

  /**
   * Entries of earlier runs for this create key whose engine is gone, oldest first. Throws,
   * naming the folder and the fix, when others could have written it (journal-files.ts).
   */
  static orphans(key: string, dir = journalDir()): Array<{ entry: JournalEntry; file: string }> {
    if (!privateFolder(dir)) return [];
    const found: Array<{ entry: JournalEntry; file: string }> = [];
    for (const f of readdirSync(dir)) {
      if (!f.startsWith(key.slice(0, 16)) || !f.endsWith(".json")) continue;
      const file = join(dir, f);
      const entry = readEntry(file);
      // This process's own creates are never orphans; an entry of an earlier process that had its pid may be.
      if (!entry || entry.key !== key || (entry.pid === process.pid && stillRuns(entry.pid, entry.started))) continue;
      if (Date.now() - entry.started > MAX_AGE_MS) {
        discard(file);
        continue;
      }
      // A live run's create is never ours to recover; nor is one whose engine is unknown (no /proc: assume alive).
      if (entry.engine.length === 0 || entry.engine.every((p) => stillRuns(p, entry.started))) continue;
      found.push({ entry, file });
    }
    return found.sort((a, b) => a.entry.started - b.entry.started);
  }
}

/**
 * Where the entry that was in `file` is now, as its writer left it: still there, or moved to
 * `<base>.<tag>.json` because its POST answered (landed). Only an entry of the same create
 * (key, pid and start) counts.
 */
export function currentEntry(file: string, was: JournalEntry): { entry: JournalEntry; file: string } | undefined {
  const same = (e: JournalEntry | undefined) =>
    e !== undefined && e.key === was.key && e.pid === was.pid && e.started === was.started;
  const entry = readEntry(file);
  if (same(entry)) return { entry: entry!, file };
  const moved = `${basename(file, ".json")}.`;
  let names: string[] = [];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return undefined;
  }
  for (const f of names) {
    if (!f.startsWith(moved) || !f.endsWith(".json")) continue;
    const landed = readEntry(join(dirname(file), f));
    if (same(landed) && landed!.id) return { entry: landed!, file: join(dirname(file), f) };
  }
  return undefined;
}

/** The entry in `file`, when it is a regular file holding a valid entry; else undefined. */
export function readEntry(file: string): JournalEntry | undefined {
  const text = readRegular(file);
  if (text === undefined) return undefined;
  try {
    const parsed = journalEntry.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.started <= Date.now() + MAX_CLOCK_AHEAD_MS ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
