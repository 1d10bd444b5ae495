/**
 * Offset pagination, hidden behind an async iterator. The walk covers `0 <= offset < total_count`;
 * a short page does not end it (docs/api-contract.md, Pagination), but it stops with an error
 * when the pages cannot be right (rule 16): a page of rows all read before (a server that
 * ignores `offset`), a page longer than asked for, a count past the list's bound, or a long run
 * of empty pages. A broken server never makes a client loop or grow without bound.
 *
 * A read is a snapshot or it says it is not (issue 38). A list can shift under a walk without
 * its count changing: 20 rows leave page 0's window after it is read and 20 join at the end,
 * every later row moves up 20 places, and 20 rows are never read. So pages overlap by one row:
 * each page after the first starts at the last row of the one before (offsets step by
 * `limit - 1`), and that shared row must be the same on both. A shift across a boundary moves
 * a different row onto it, a changed `total_count` says the same more plainly, and either starts
 * the walk again (`maxWalks` in all, then an error saying what was seen). The overlap costs one
 * call per `limit × (limit - 1)` rows: none up to 100 rows, 1 in 1,000, 11 in 100,000.
 *
 * Empty and short pages are not an error at once: a service that keeps removed rows in its list
 * windows (the contract allows short pages, and the emulator's `--short-pages` does this)
 * answers them. A run of empty pages longer than `maxEmptyPages` is taken as a count that cannot
 * be right. A boundary whose shared row the earlier page does not show (it was short) cannot be
 * checked that way: such a walk counts only when a second walk agrees with it, row for row.
 *
 * Pages go out in parallel (issue 29): the first page gives `total_count`, the rest go out with
 * up to `concurrency` in flight, and are checked in offset order as they arrive, so every guard
 * above holds and a broken server still costs a bounded number of calls (at most
 * `2 × concurrency` pages past the one that stops the walk). Rows are handed out only once a
 * walk is known to be whole. A walk asks for at most the pages `total_count` needs, the count is
 * at most `maxRows`, and there are at most `maxWalks` walks: a server that invents rows is
 * stopped at its first page past the bound, or at the first boundary it does not keep.
 */
import { UserError } from "../user-error";
import { fetchInOrder } from "./fetch-in-order";

export interface PageResult<T> {
  data: T[];
  total_count: number;
  /** The size of the response the page came in, counted against the read's `maxBytes`. @default 0 */
  bytes?: number;
}

/** Bounds of one paged walk. */
export interface PaginateOptions<T> {
  /** A row's identity, to tell new rows from repeated ones. @default its `id` field, else its JSON */
  key?: (row: T) => string;
  /** Most rows this list may hold; a count above it is taken as wrong. @default 100,000 */
  maxRows?: number;
  /** Consecutive empty pages tolerated before the count is taken as wrong. @default 20 */
  maxEmptyPages?: number;
  /** Builds the error that stops the walk (the client makes a `PaginationError` naming the URL). @default a plain Error */
  fail?: (reason: string) => Error;
  /** Pages in flight at once after the first. @default 1 */
  concurrency?: number;
  /** Walks tried while the list keeps changing under them, before the walk stops with an error. @default 3 */
  maxWalks?: number;
  /** Most bytes of pages one read may take, over all its walks (a page says its size in `bytes`). @default 256 MiB */
  maxBytes?: number;
}

/**
 * Default bound on the rows of one list: above a real organization's members or keys (issue 29's
 * bench reads 100,000), far below exhausting memory; the client bounds each list by what its
 * operation can need (client.ts, LIST_ROWS).
 */
export const MAX_LIST_ROWS = 100_000;
/** Default run of empty pages tolerated: 2,000 removed rows in a row at the largest page size. */
export const MAX_EMPTY_PAGES = 20;
/** Default walks tried while the list keeps changing under them. */
export const MAX_WALKS = 3;
/**
 * Default bound on the bytes one read takes, every walk and probe: 100,000 assignment rows are
 * about 25 MB a walk; a server that sends rows as large as each field allows is stopped here, not
 * by the heap (issue 38).
 */
export const MAX_LIST_BYTES = 256 * 1024 * 1024;

const defaultKey = (row: unknown): string => {
  const id = (row as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : JSON.stringify(row);
};

/** What showed that the list changed during the walk: a count, a row two pages share, a row read twice. */
class ListChanged {
  constructor(readonly seen: string) {}
}

/** The rest of a short page's window, read again to see whether the page left live rows out. */
interface Probe {
  offset: number;
  limit: number;
  /** The page's offset, how many rows it showed of how many its window holds, and their keys. */
  page: number;
  shown: number;
  window: number;
  keys: ReadonlySet<string>;
}

/** A walk's rows, whether every page boundary was checked by its shared row, and the short pages to probe. */
interface Walk<T> {
  rows: T[];
  keys: ReadonlySet<string>;
  checked: boolean;
  total: number;
  probes: Probe[];
}

/** Offsets step by `limit - 1` so that neighbouring pages share a row; a page of 1 cannot. */
const stepOf = (limit: number): number => (limit > 1 ? limit - 1 : 1);

/** Pages a walk of `total` rows takes. */
export function pagesFor(total: number, limit: number): number {
  return 1 + Math.max(0, Math.ceil((total - limit) / stepOf(limit)));
}

type Bounds<T> = Required<Omit<PaginateOptions<T>, "concurrency" | "maxWalks">> & { limit: number };

/** Bytes one read has taken so far, over every walk and probe. */
interface Spent {
  bytes: number;
}

/** A page as the walk keeps it: where it starts, its keys, and the rows its window holds. */
interface Seen {
  offset: number;
  keys: string[];
  window: number;
}

/** The checks of one page, in offset order; collects its new rows. Throws when the pages cannot be right. */
class WalkState<T> {
  readonly rows: T[] = [];
  readonly seen = new Set<string>();
  readonly probes: Probe[] = [];
  private emptyRun = 0;
  /** The page before the one taken next. */
  private previous: Seen | undefined;
  /** False once a boundary could not be checked by its shared row. */
  checked = true;
  total = -1;

  constructor(
    private readonly b: Bounds<T>,
    private readonly spent: Spent,
  ) {}

  /** Checks a page's count, length and size (any order), so a broken count is never taken for a change. */
  check(page: PageResult<T>, offset: number, limit = this.b.limit): void {
    const { fail, maxRows, maxBytes } = this.b;
    const count = page.total_count;
    if (!Number.isSafeInteger(count) || count < 0) throw fail(`total_count ${String(count)} is not a count`);
    if (count > maxRows)
      throw fail(
        `total_count ${count} is more than the ${maxRows} rows this list may hold; the count cannot be right (raise the client's maxListRows if it is)`,
      );
    const length = page.data.length;
    if (length > limit)
      throw fail(
        `the page at offset ${offset} holds ${length} rows though ${limit} were asked for; the server ignores limit`,
      );
    if (length > count - offset)
      throw fail(
        `the page at offset ${offset} holds ${length} rows though its total_count ${count} leaves ${Math.max(0, count - offset)} from there`,
      );
    this.spent.bytes += page.bytes ?? 0;
    if (this.spent.bytes > maxBytes)
      throw fail(
        `the pages read came to ${this.spent.bytes} bytes by the page at offset ${offset}, past the ${maxBytes} bytes one list may take; stopping rather than grow without bound (raise the client's maxListBytes if the list is right)`,
      );
    if (this.total >= 0 && count !== this.total)
      throw new ListChanged(`total_count went from ${this.total} to ${count}`);
  }

  /** Takes the page at `offset` (pages come in offset order); `last` when it is the walk's last page. */
  absorb(page: PageResult<T>, offset: number, last: boolean): void {
    const { fail, key, maxEmptyPages, limit } = this.b;
    const count = page.total_count;
    const keys = page.data.map(key);
    const previous = this.previous;
    // The row this page shares with the one before, when both show it.
    const shared = previous !== undefined && limit > 1 && keys.length > 0 && keys[0] === previous.keys.at(-1);
    let fresh = false;
    let repeated = 0;
    keys.forEach((k, i) => {
      if (this.seen.has(k)) {
        if (i > 0 || !shared) repeated++;
        return;
      }
      this.seen.add(k);
      fresh = true;
      this.rows.push(page.data[i]!);
    });
    if (!last && keys.length > (shared ? 1 : 0) && !fresh) {
      throw fail(
        `the page at offset ${offset} repeats ${page.data.length} row(s) already read though total_count is ${count}; stopping rather than paging on (a server that ignores offset)`,
      );
    }
    if (previous !== undefined && !shared) {
      // The page before showed its whole window, so its last row is the one at this offset: a
      // different row here means rows moved across the boundary (or that one left) between reads.
      if (previous.keys.length === previous.window && limit > 1)
        throw new ListChanged(`the row at offset ${offset} was not the same on the two pages that share it`);
      this.checked = false;
      this.probe(previous);
    }
    // A row is on two pages only at the position they share: anywhere else, the order shifted
    // between the reads (rows with equal sort keys in no stable order), and a row was skipped.
    if (repeated > 0)
      throw new ListChanged(
        `the page at offset ${offset} held ${repeated} row(s) already read on another page: rows moved between pages`,
      );
    this.previous = { offset, keys, window: Math.min(limit, this.total - offset) };
    if (last) {
      this.probe(this.previous);
      return;
    }
    this.emptyRun = fresh ? 0 : this.emptyRun + 1;
    if (this.emptyRun > maxEmptyPages) {
      throw fail(
        `${this.emptyRun} empty pages in a row up to offset ${offset} though total_count is ${count}; stopping rather than paging on (a count that cannot be right)`,
      );
    }
  }

  /**
   * A short page whose last row is not checked by the next page may have left live rows out (a
   * server that serves fewer rows than asked for), not only removed ones: the rest of its window
   * is read again once the walk is done. An empty page is its own probe.
   */
  private probe(page: Seen): void {
    const shown = page.keys.length;
    if (shown === 0 || shown >= page.window) return;
    const rest = { offset: page.offset + shown, limit: page.window - shown };
    this.probes.push({ ...rest, page: page.offset, shown, window: page.window, keys: new Set(page.keys) });
  }
}

/** One walk: every row, or the change that makes it unreliable. */
async function walkOnce<T>(
  fetchPage: (offset: number, limit: number) => Promise<PageResult<T>>,
  bounds: Bounds<T>,
  spent: Spent,
  concurrency: number,
): Promise<Walk<T> | ListChanged> {
  const { limit } = bounds;
  const step = stepOf(limit);
  const state = new WalkState(bounds, spent);
  try {
    const first = await fetchPage(0, limit);
    state.check(first, 0);
    state.total = first.total_count;
    const count = pagesFor(state.total, limit);
    state.absorb(first, 0, count === 1);
    await fetchInOrder(
      count,
      concurrency,
      async (i) => {
        const page = await fetchPage(i * step, limit);
        state.check(page, i * step);
        return page;
      },
      (i, page) => state.absorb(page, i * step, i === count - 1),
    );
  } catch (err) {
    if (err instanceof ListChanged) return err;
    throw err;
  }
  return { rows: state.rows, keys: state.seen, checked: state.checked, total: state.total, probes: state.probes };
}

/**
 * Reads the rest of each short page's window again: a removed row stays removed, so a row there
 * that the page did not show means the page left live rows out. Answers what was found, if anything.
 */
async function leftOut<T>(
  fetchPage: (offset: number, limit: number) => Promise<PageResult<T>>,
  bounds: Bounds<T>,
  spent: Spent,
  concurrency: number,
  walk: Walk<T>,
): Promise<ListChanged | undefined> {
  const state = new WalkState(bounds, spent);
  state.total = walk.total;
  try {
    await fetchInOrder(
      walk.probes.length + 1,
      concurrency,
      async (i) => {
        const probe = walk.probes[i - 1]!;
        const page = await fetchPage(probe.offset, probe.limit);
        state.check(page, probe.offset, probe.limit);
        return page;
      },
      (i, page) => {
        const probe = walk.probes[i - 1]!;
        const missed = page.data.filter((row) => !probe.keys.has(bounds.key(row))).length;
        if (missed > 0)
          throw new ListChanged(
            `the page at offset ${probe.page} showed ${probe.shown} of the ${probe.window} rows of its window, and a second read of the rest of that window found ${missed} row(s) it had left out: a server that serves fewer rows than asked for`,
          );
      },
    );
  } catch (err) {
    if (err instanceof ListChanged) return err;
    throw err;
  }
  return undefined;
}

const sameRows = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean =>
  a.size === b.size && [...b].every((k) => a.has(k));

/**
 * Rows of every page, in order, once a walk is known whole: every boundary matched and no short
 * page left a live row out, or a second walk agreed row for row. Throws `fail(reason)` as soon as
 * the pages cannot be right, and when `maxWalks` walks in a row saw the list change (never a
 * partial list: a row missing from it would read as a row gone).
 */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<PageResult<T>>,
  limit: number,
  options: PaginateOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  const bounds: Bounds<T> = {
    limit,
    key: options.key ?? defaultKey,
    maxRows: options.maxRows ?? MAX_LIST_ROWS,
    fail: options.fail ?? ((reason: string) => new UserError(reason)),
    maxEmptyPages: options.maxEmptyPages ?? MAX_EMPTY_PAGES,
    maxBytes: options.maxBytes ?? MAX_LIST_BYTES,
  };
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const maxWalks = options.maxWalks ?? MAX_WALKS;
  const spent: Spent = { bytes: 0 };
  let unchecked: Walk<T> | undefined;
  let seen = "";
  for (let walk = 1; walk <= maxWalks; walk++) {
    const result = await walkOnce(fetchPage, bounds, spent, concurrency);
    if (result instanceof ListChanged) {
      seen = result.seen;
      unchecked = undefined;
      continue;
    }
    // A walk that agrees with one already probed needs no probe of its own.
    if (unchecked !== undefined && sameRows(unchecked.keys, result.keys)) return yield* result.rows;
    const hidden = await leftOut(fetchPage, bounds, spent, concurrency, result);
    if (hidden !== undefined) {
      seen = hidden.seen;
      unchecked = undefined;
      continue;
    }
    if (result.checked) return yield* result.rows;
    if (unchecked !== undefined) seen = "two reads of it did not hold the same rows";
    unchecked = result;
  }
  throw bounds.fail(
    seen
      ? `the list changed while it was read (${seen}) on ${maxWalks} reads in a row; stopping rather than miss rows that moved between pages`
      : `${maxWalks} reads of the list could not be confirmed (short pages hide the rows pages share, so a second read must agree); stopping rather than miss rows that moved between pages`,
  );
}

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
