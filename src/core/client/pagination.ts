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
 * A row is on two pages only at the position they share. Anywhere else, the order shifted between
 * reads (rows with equal sort keys in no stable order: rows 50 and 250 trade places after page 0,
 * and 250 is never read), so a repeated row starts the walk again too; it is never dropped in
 * silence (issue 38's attack pass).
 *
 * Empty and short pages are not an error at once: a service that keeps removed rows in its list
 * windows (the contract allows short pages, and the emulator's `--short-pages` does this)
 * answers them. A run of empty pages longer than `maxEmptyPages` is taken as a count that cannot
 * be right. A boundary whose shared row the earlier page does not show (it was short) cannot be
 * checked that way: such a walk counts only when a second walk agrees with it, row for row. And
 * a short page could as well be a server that serves fewer rows than asked for (50 of 100: two
 * walks agree on 153 of 300 rows), so the rest of such a page's window is read once more: a
 * removed row stays removed, and a row there the page did not show means rows were left out.
 *
 * Every page's size counts against the read's `maxBytes` (over all its walks and probes), so
 * rows as large as a response allows cannot fill the heap inside the row bound.
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
import { type Bounds, leftOut, ListChanged, type PageResult, type Spent, type Walk, walkOnce } from "./page-walk";

export { type PageResult, pagesFor } from "./page-walk";

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
