/**
 * Offset pagination, hidden behind an async iterator. Steps `offset` by `limit` until
 * `offset >= total_count`; a short page does not end the walk (API-CONTRACT.md, Pagination).
 */

export interface PageResult<T> {
  data: T[];
  total_count: number;
}

export async function* paginate<T>(fetchPage: (offset: number, limit: number) => Promise<PageResult<T>>, limit: number): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (;;) {
    const page = await fetchPage(offset, limit);
    yield* page.data;
    offset += limit;
    if (offset >= page.total_count) return;
  }
}

/** Collects an async iterable into an array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
