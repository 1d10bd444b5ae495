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
}

/** Default bound on the rows of one listing: far above any real organization, far below exhausting memory. */
export const MAX_LIST_ROWS = 1_000_000;
/** Default run of empty pages tolerated: 2,000 removed rows in a row at the largest page size. */
export const MAX_EMPTY_PAGES = 20;

const defaultKey = (row: unknown): string => {
  const id = (row as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id : JSON.stringify(row);
};

/** Rows of every page, in order. Throws `fail(reason)` as soon as the pages cannot be right. */
export async function* paginate<T>(
  fetchPage: (offset: number, limit: number) => Promise<PageResult<T>>,
  limit: number,
  options: PaginateOptions<T> = {},
): AsyncGenerator<T, void, undefined> {
  const key = options.key ?? defaultKey;
  const maxRows = options.maxRows ?? MAX_LIST_ROWS;
  const fail = options.fail ?? ((reason: string) => new UserError(reason));
  const maxEmpty = options.maxEmptyPages ?? MAX_EMPTY_PAGES;
  const seen = new Set<string>();
  let offset = 0;
  let emptyRun = 0;
  for (;;) {
    const page = await fetchPage(offset, limit);
    const count = page.total_count;
    if (!Number.isSafeInteger(count) || count < 0) throw fail(`total_count ${String(count)} is not a count`);
    if (count > maxRows)
      throw fail(`total_count ${count} is more than the ${maxRows} rows a listing may hold; the count cannot be right`);
    if (page.data.length > limit)
      throw fail(
        `the page at offset ${offset} holds ${page.data.length} rows though ${limit} were asked for; the server ignores limit`,
      );
    let fresh = 0;
    for (const row of page.data) {
      const k = key(row);
      if (seen.has(k)) continue;
      seen.add(k);
      fresh++;
      yield row;
    }
    offset += limit;
    if (offset >= count) return;
    if (page.data.length > 0 && fresh === 0) {
      throw fail(
        `the page at offset ${offset - limit} repeats ${page.data.length} row(s) already read though total_count is ${count}; stopping rather than paging on (a server that ignores offset)`,
      );
    }
    emptyRun = page.data.length === 0 ? emptyRun + 1 : 0;
    if (emptyRun > maxEmpty) {
      throw fail(
        `${emptyRun} empty pages in a row up to offset ${offset - limit} though total_count is ${count}; stopping rather than paging on (a count that cannot be right)`,
      );
    }
  }
}

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
