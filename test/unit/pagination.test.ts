import { describe, expect, it } from "vitest";
import { collect, paginate } from "../../src/core/client/pagination";
import { UserError } from "../../src/core/user-error";

/** A fake list of `total` slots where `hidden` slots are filtered out of pages (short pages). */
function pages(total: number, hidden: Set<number>) {
  const calls: Array<[number, number]> = [];
  const fetchPage = async (offset: number, limit: number) => {
    calls.push([offset, limit]);
    const data = [];
    for (let i = offset; i < Math.min(total, offset + limit); i++) if (!hidden.has(i)) data.push(i);
    return { data, total_count: total };
  };
  return { fetchPage, calls };
}

describe("paginate", () => {
  it("steps offset by limit until total_count, through short pages", async () => {
    const { fetchPage, calls } = pages(25, new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12]));
    const rows = await collect(paginate(fetchPage, 10));
    expect(rows).toEqual([10, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    expect(calls).toEqual([
      [0, 10],
      [10, 10],
      [20, 10],
    ]);
  });

  it("an empty first page with more rows behind it does not stop the walk", async () => {
    const { fetchPage } = pages(15, new Set([0, 1, 2, 3, 4]));
    expect(await collect(paginate(fetchPage, 5))).toHaveLength(10);
  });

  it("a long run of empty pages stops with an error (docs/api-contract.md rule 16)", async () => {
    const { fetchPage, calls } = pages(1_000, new Set(Array.from({ length: 1_000 }, (_, i) => i)));
    await expect(collect(paginate(fetchPage, 10, { maxEmptyPages: 3 }))).rejects.toThrow(
      "4 empty pages in a row up to offset 30 though total_count is 1000",
    );
    expect(calls).toHaveLength(4);
  });

  it("a row seen on an earlier page is not yielded twice", async () => {
    const fetchPage = async (offset: number) => ({ data: offset === 0 ? ["a", "b"] : ["b", "c"], total_count: 4 });
    expect(await collect(paginate(fetchPage, 2))).toEqual(["a", "b", "c"]);
  });

  it("an empty list takes one call", async () => {
    const { fetchPage, calls } = pages(0, new Set());
    expect(await collect(paginate(fetchPage, 100))).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("an exact multiple takes exactly total/limit calls", async () => {
    const { fetchPage, calls } = pages(300, new Set());
    expect(await collect(paginate(fetchPage, 100))).toHaveLength(300);
    expect(calls).toHaveLength(3);
  });
});

/** A live list of `rows` served page by page after `delayMs`, counting calls and pages in flight. */
function liveList(rows: number[], delayMs = 2) {
  const stats = { calls: 0, inFlight: 0, maxInFlight: 0 };
  const fetchPage = async (offset: number, limit: number) => {
    stats.calls++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    await new Promise((r) => setTimeout(r, delayMs));
    stats.inFlight--;
    return { data: rows.slice(offset, offset + limit), total_count: rows.length };
  };
  return { fetchPage, stats };
}
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("paginate in parallel (issue 29)", () => {
  it("keeps up to N pages in flight and still makes the minimum calls, rows in order", async () => {
    const { fetchPage, stats } = liveList(range(1_000));
    expect(await collect(paginate(fetchPage, 10, { concurrency: 4 }))).toEqual(range(1_000));
    expect(stats).toMatchObject({ calls: 100, maxInFlight: 4 });
  });

  it.each([1, 4])(
    "a row removed mid-walk (at concurrency %i) does not hide the row that moved up a page",
    async (n) => {
      const rows = range(30);
      const { fetchPage: inner } = liveList(rows);
      let edited = false;
      const fetchPage = async (offset: number, limit: number) => {
        const page = await inner(offset, limit);
        if (!edited) {
          edited = true;
          rows.splice(5, 1); // row 10 moves from page 1 to page 0, already read
        }
        return page;
      };
      expect(await collect(paginate(fetchPage, 10, { concurrency: n }))).toEqual(range(30).filter((i) => i !== 5));
    },
  );

  it("a list that changes under every walk stops with an error instead of reading moved rows", async () => {
    let total = 30;
    const fetchPage = async (offset: number, limit: number) => {
      total++;
      return { data: range(total).slice(offset, offset + limit), total_count: total };
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow(
      /total_count went from \d+ to \d+\) on 3 reads in a row/,
    );
  });

  it("an overlong page deep in the walk stops it, with a bounded overshoot", async () => {
    const { fetchPage: inner, stats } = liveList(range(100_000));
    const fetchPage = async (offset: number, limit: number) => {
      const page = await inner(offset, limit);
      return offset === 50 ? { ...page, data: [...page.data, -1] } : page;
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 50 holds 11 rows though 10 were asked for",
    );
    expect(stats.calls).toBeLessThanOrEqual(6 + 2 * 4);
  });

  it("a slow page holds the walk back: pages read ahead of it are bounded, so a bad one costs few calls", async () => {
    const { fetchPage: inner, stats } = liveList(range(100_000), 1);
    const fetchPage = async (offset: number, limit: number) => {
      if (offset !== 10) return inner(offset, limit);
      await new Promise((r) => setTimeout(r, 300));
      return { data: range(11), total_count: 100_000 };
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 10 holds 11 rows though 10 were asked for",
    );
    // Page 0, the slow page 1, and at most 2 × 4 pages past the first one not yet taken.
    expect(stats.calls).toBeLessThanOrEqual(1 + 2 * 4);
  });

  it("a run of empty pages stops with a bounded number of calls, not one per page of the count", async () => {
    const stats = { calls: 0 };
    const fetchPage = async () => {
      stats.calls++;
      await new Promise((r) => setTimeout(r, 1));
      return { data: [], total_count: 1_000_000 };
    };
    await expect(collect(paginate(fetchPage, 100, { concurrency: 4, maxEmptyPages: 3 }))).rejects.toThrow(
      "4 empty pages in a row up to offset 300 though total_count is 1000000",
    );
    expect(stats.calls).toBeLessThanOrEqual(4 + 2 * 4);
  });

  it("a server that ignores offset is caught in parallel", async () => {
    const fetchPage = async () => ({ data: [1, 2, 3], total_count: 1_000 });
    await expect(collect(paginate(fetchPage, 3, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 3 repeats 3 row(s) already read though total_count is 1000",
    );
  });

  it("an impossible count on a later page stops the walk (not taken as a change of the list)", async () => {
    const fetchPage = async (offset: number, limit: number) => ({
      data: range(100).slice(offset, offset + limit),
      total_count: offset === 40 ? -1 : 100,
    });
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow("total_count -1 is not a count");
  });
});

// Issue 31: the edges a mutant of pagination.ts moved without a failing test.
describe("paginate: the edges", () => {
  const counting = (count: number) => async () => ({ data: [], total_count: count });

  it("a row's string id is its identity: the same id with other fields is a row already read", async () => {
    const fetchPage = async (offset: number) => ({
      data:
        offset === 0
          ? [
              { id: "a", v: 1 },
              { id: "b", v: 1 },
            ]
          : [
              { id: "a", v: 2 },
              { id: "b", v: 2 },
            ],
      total_count: 6,
    });
    await expect(collect(paginate(fetchPage, 2))).rejects.toThrow("the page at offset 2 repeats 2 row(s) already read");
  });

  it("a row without a string id, null included, is known by its JSON", async () => {
    const fetchPage = async (offset: number) => ({
      data: offset === 0 ? [null, { id: 7, v: 1 }] : [{ id: 7, v: 2 }, null],
      total_count: 4,
    });
    expect(await collect(paginate(fetchPage, 2))).toEqual([null, { id: 7, v: 1 }, { id: 7, v: 2 }]);
  });

  it("by default a count over 1,000,000 rows is refused with a UserError, and exactly 1,000,000 is not", async () => {
    const err = await collect(paginate(counting(1_000_001), 1_000_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      "total_count 1000001 is more than the 1000000 rows a listing may hold; the count cannot be right",
    );
    expect(await collect(paginate(counting(1_000_000), 1_000_000))).toEqual([]);
  });

  it("a count over maxRows is refused before any other page is asked for", async () => {
    const calls: number[] = [];
    const fetchPage = async (offset: number) => {
      calls.push(offset);
      return { data: [], total_count: 51 };
    };
    await expect(collect(paginate(fetchPage, 10, { maxRows: 50 }))).rejects.toThrow(
      "total_count 51 is more than the 50 rows a listing may hold; the count cannot be right",
    );
    expect(calls).toEqual([0]);
  });

  it("the last page may be empty however few empty pages are tolerated: the walk ends there anyway", async () => {
    const tail = pages(30, new Set(range(10).map((i) => i + 20)));
    expect(await collect(paginate(tail.fetchPage, 10, { maxEmptyPages: 0 }))).toEqual(range(20));
    const only = pages(5, new Set(range(5)));
    expect(await collect(paginate(only.fetchPage, 10, { maxEmptyPages: 0 }))).toEqual([]);
    const middle = pages(30, new Set(range(10).map((i) => i + 10)));
    await expect(collect(paginate(middle.fetchPage, 10, { maxEmptyPages: 0 }))).rejects.toThrow(
      "1 empty pages in a row up to offset 10 though total_count is 30",
    );
  });

  it("no page is asked for once the walk has failed, though pages were still in flight", async () => {
    const { fetchPage: inner, stats } = liveList(range(1_000), 5);
    const fetchPage = async (offset: number, limit: number) => {
      const page = await inner(offset, limit);
      return offset === 10 ? { ...page, data: [...page.data, -1] } : page;
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 10 holds 11 rows though 10 were asked for",
    );
    const calls = stats.calls;
    await new Promise((r) => setTimeout(r, 60));
    expect(stats.calls).toBe(calls);
  });

  it("a page that fails to load fails the walk with its error, and no page is asked for after it", async () => {
    const { fetchPage: inner, stats } = liveList(range(1_000), 5);
    const fetchPage = async (offset: number, limit: number) => {
      if (offset === 20) throw new Error("connection reset");
      return inner(offset, limit);
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow("connection reset");
    const calls = stats.calls;
    await new Promise((r) => setTimeout(r, 60));
    expect(stats.calls).toBe(calls);
  });

  it("at most 2 × concurrency pages are asked for ahead of one still outstanding", async () => {
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const { fetchPage: inner } = liveList(range(100), 1);
    const requested: number[] = [];
    const fetchPage = async (offset: number, limit: number) => {
      requested.push(offset);
      if (offset === 10) await held;
      return inner(offset, limit);
    };
    const rows = collect(paginate(fetchPage, 10, { concurrency: 2 }));
    await new Promise((r) => setTimeout(r, 60));
    expect(requested).toEqual([0, 10, 20, 30, 40]);
    release();
    expect(await rows).toEqual(range(100));
  });
});
