/**
 * Offset pagination, hidden behind an async iterator. Steps `offset` by `limit` until
 * `offset >= total_count`; a short page does not end the walk (docs/api-contract.md, Pagination),
 * but the walk stops with an error when the pages cannot be right (rule 16): a page of rows
 * all read before (a server that ignores `offset`), a page longer than asked for, a count
 * past the bound, or a long run of empty pages. A broken server never makes a client loop or
 * grow without bound.
 *
 * Empty pages are not an error at once: a service that keeps removed rows in its list
 * windows (the contract allows short pages, and the emulator's `--short-pages` does this)
 * answers an empty page for a window of removed rows. A run of them longer than
 * `maxEmptyPages` is taken as a count that cannot be right.
 *
 * Pages go out in parallel (issue 29): the first page gives `total_count`, the rest go out with
 * up to `concurrency` in flight, and are checked in offset order as they arrive, so every
 * guard above holds and a broken server still costs a bounded number of calls (at most
 * `2 × concurrency` pages past the one that stops the walk). Rows are handed out only once
 * the whole walk is read: a page whose `total_count` differs from the first page's says the
 * list changed while it was read, so a row may have moved onto a page already read; the walk
 * then starts again (`maxWalks` in all) rather than miss it.
 */
import { UserError } from "../user-error";

export interface PageResult<T> {
  data: T[];
  total_count: number;
}

/** Bounds of one paged walk. */
export interface PaginateOptions<T> {
  /** A row's identity, to tell new rows from repeated ones. @default its `id` field, else its JSON */
  key?: (row: T) => string;
  /** Most rows one listing may hold; a count above it is taken as wrong. @default 1,000,000 */
  maxRows?: number;
  /** Consecutive empty pages tolerated before the count is taken as wrong. @default 20 */
  maxEmptyPages?: number;
  /** Builds the error that stops the walk (the client makes a `PaginationError` naming the URL). @default a plain Error */
  fail?: (reason: string) => Error;
  /** Pages in flight at once after the first. @default 1 */
  concurrency?: number;
  /** Walks tried while the list keeps changing under them, before the walk stops with an error. @default 3 */
  maxWalks?: number;
}

/** Default bound on the rows of one listing: far above any real organization, far below exhausting memory. */
export const MAX_LIST_ROWS = 1_000_000;
/** Default run of empty pages tolerated: 2,000 removed rows in a row at the largest page size. */
export const MAX_EMPTY_PAGES = 20;
/** Default walks tried while the list keeps changing under them. */
export const MAX_WALKS = 3;

const defaultKey = (row: unknown): string => {
  const id = (row as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : JSON.stringify(row);
};

/** A page whose `total_count` differs from the first one's: the list changed during the walk. */
class ListChanged {
  constructor(
    readonly from: number,
    readonly to: number,
  ) {}
}

type Bounds<T> = Required<Omit<PaginateOptions<T>, "concurrency" | "maxWalks">> & { limit: number };

/** The checks of one page, in offset order; collects its new rows. Throws when the pages cannot be right. */
class WalkState<T> {
  readonly rows: T[] = [];
  private readonly seen = new Set<string>();
  private emptyRun = 0;
  total = -1;

  constructor(private readonly b: Bounds<T>) {}

  /** Checks a page's count and length (any order), so a broken count is never taken for a change. */
  check(page: PageResult<T>, offset: number): void {
    const { fail, maxRows, limit } = this.b;
    const count = page.total_count;
    if (!Number.isSafeInteger(count) || count < 0) throw fail(`total_count ${String(count)} is not a count`);
    if (count > maxRows)
      throw fail(`total_count ${count} is more than the ${maxRows} rows a listing may hold; the count cannot be right`);
    if (page.data.length > limit)
      throw fail(
        `the page at offset ${offset} holds ${page.data.length} rows though ${limit} were asked for; the server ignores limit`,
      );
    if (this.total >= 0 && count !== this.total) throw new ListChanged(this.total, count);
  }

  /** Takes the page at `offset` (pages come in offset order); `last` when it is the walk's last page. */
  absorb(page: PageResult<T>, offset: number, last: boolean): void {
    const { fail, key, maxEmptyPages } = this.b;
    const count = page.total_count;
    let fresh = false;
    for (const row of page.data) {
      const k = key(row);
      if (this.seen.has(k)) continue;
      this.seen.add(k);
      fresh = true;
      this.rows.push(row);
    }
    if (last) return;
    if (page.data.length > 0 && !fresh) {
      throw fail(
        `the page at offset ${offset} repeats ${page.data.length} row(s) already read though total_count is ${count}; stopping rather than paging on (a server that ignores offset)`,
      );
    }
    this.emptyRun = page.data.length === 0 ? this.emptyRun + 1 : 0;
    if (this.emptyRun > maxEmptyPages) {
      throw fail(
        `${this.emptyRun} empty pages in a row up to offset ${offset} though total_count is ${count}; stopping rather than paging on (a count that cannot be right)`,
      );
    }
  }
}

/**
 * Fetches pages 1..count-1 with at most `concurrency` in flight and no page sent more than
 * `2 × concurrency` ahead of the first not yet taken; hands them to `take` in order. Stops at
 * the first error (pages still in flight are dropped).
 */
function fetchInOrder<T>(
  count: number,
  concurrency: number,
  fetchAt: (index: number) => Promise<PageResult<T>>,
  take: (index: number, page: PageResult<T>) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ready = new Map<number, PageResult<T>>();
    let next = 1;
    let taken = 1;
    let inFlight = 0;
    let stopped = false;
    const stop = (err: unknown) => {
      stopped = true;
      reject(err);
    };
    const pump = (): void => {
      for (let page = ready.get(taken); !stopped && page !== undefined; page = ready.get(taken)) {
        ready.delete(taken);
        try {
          take(taken++, page);
        } catch (err) {
          stop(err);
          return;
        }
      }
      if (stopped) return;
      if (taken >= count) {
        resolve();
        return;
      }
      while (next < count && inFlight < concurrency && next < taken + 2 * concurrency) {
        const index = next++;
        inFlight++;
        fetchAt(index).then(
          (page) => {
            inFlight--;
            ready.set(index, page);
            pump();
          },
          // The first failure stops the walk for good: nothing reads inFlight after it, and a
          // second reject is a no-op.
          stop,
        );
      }
    };
    pump();
  });
}

/** One walk: every row, or the change that makes it unreliable. */
async function walkOnce<T>(
  fetchPage: (offset: number, limit: number) => Promise<PageResult<T>>,
  bounds: Bounds<T>,
  concurrency: number,
): Promise<T[] | ListChanged> {
  const { limit } = bounds;
  const state = new WalkState(bounds);
  const first = await fetchPage(0, limit);
  state.check(first, 0);
  state.total = first.total_count;
  const count = Math.max(1, Math.ceil(state.total / limit));
  state.absorb(first, 0, count === 1);
  try {
    await fetchInOrder(
      count,
      concurrency,
      async (i) => {
        const page = await fetchPage(i * limit, limit);
        state.check(page, i * limit);
        return page;
      },
      (i, page) => state.absorb(page, i * limit, i === count - 1),
    );
  } catch (err) {
    if (err instanceof ListChanged) return err;
    throw err;
  }
  return state.rows;
}

/** Rows of every page, in order. Throws `fail(reason)` as soon as the pages cannot be right. */
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
  };
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const maxWalks = options.maxWalks ?? MAX_WALKS;
  for (let walk = 1; ; walk++) {
    const result = await walkOnce(fetchPage, bounds, concurrency);
    if (Array.isArray(result)) return yield* result;
    if (walk >= maxWalks)
      throw bounds.fail(
        `the list changed while it was read (total_count went from ${result.from} to ${result.to}) on ${walk} reads in a row; stopping rather than miss rows that moved between pages`,
      );
  }
}

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
