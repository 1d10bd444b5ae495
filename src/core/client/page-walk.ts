/**
 * One walk of a paged list and the checks of each page (pagination.ts says what a read is and
 * why): counts, lengths and bytes as pages arrive, shared rows and repeats in offset order, and
 * the probes of short pages once the walk is done.
 */
import { fetchInOrder } from "./fetch-in-order";

export interface PageResult<T> {
  data: T[];
  total_count: number;
  /** The size of the response the page came in, counted against the read's `maxBytes`. @default 0 */
  bytes?: number;
}

/** What showed that the list changed during the walk: a count, a row two pages share, a row read twice. */
export class ListChanged {
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
export interface Walk<T> {
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

/** The bounds of one read, its options' defaults filled in (pagination.ts, PaginateOptions). */
export interface Bounds<T> {
  limit: number;
  key: (row: T) => string;
  maxRows: number;
  maxEmptyPages: number;
  fail: (reason: string) => Error;
  maxBytes: number;
}

/** Bytes one read has taken so far, over every walk and probe. */
export interface Spent {
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
export async function walkOnce<T>(
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
export async function leftOut<T>(
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
