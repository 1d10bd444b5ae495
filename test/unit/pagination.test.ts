import { describe, expect, it } from "vitest";
import { fetchInOrder } from "../../src/core/client/fetch-in-order";
import { pagesFor } from "../../src/core/client/page-walk";
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
  it("steps offset by limit - 1 until total_count, through short pages; a boundary they hide takes a second walk", async () => {
    const { fetchPage, calls } = pages(25, new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12]));
    const rows = await collect(paginate(fetchPage, 10));
    expect(rows).toEqual([10, 11, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]);
    // Page 0 is empty, so the row at offset 9 it shares with page 1 is not on it: only a second
    // walk that agrees row for row confirms the first.
    const walk = [
      [0, 10],
      [9, 10],
      [18, 10],
    ];
    expect(calls).toEqual([...walk, ...walk]);
  });

  it("an empty first page with more rows behind it does not stop the walk", async () => {
    const { fetchPage } = pages(15, new Set([0, 1, 2, 3, 4]));
    expect(await collect(paginate(fetchPage, 5))).toHaveLength(10);
  });

  it("a long run of empty pages stops with an error (docs/api-contract.md rule 16)", async () => {
    const { fetchPage, calls } = pages(1_000, new Set(Array.from({ length: 1_000 }, (_, i) => i)));
    await expect(collect(paginate(fetchPage, 10, { maxEmptyPages: 3 }))).rejects.toThrow(
      "4 empty pages in a row up to offset 27 though total_count is 1000",
    );
    expect(calls).toHaveLength(4);
  });

  // Issue 38 (attack pass): a repeated row was dropped in silence, so a row that moved onto a
  // page already read (an unstable order among equal sort keys) was never read, with no error.
  it("a row on two pages away from the row they share means the order shifted: the read fails, saying so", async () => {
    const rows = ["a", "b", "b", "c"];
    const calls: number[] = [];
    const fetchPage = async (offset: number, limit: number) => {
      calls.push(offset);
      return { data: rows.slice(offset, offset + limit), total_count: 4 };
    };
    await expect(collect(paginate(fetchPage, 3))).rejects.toThrow(
      "the list changed while it was read (the page at offset 0 held 1 row(s) already read on another page: rows moved between pages) on 3 reads in a row",
    );
    // Each walk stops at the page that shows the repeat, here its first.
    expect(calls).toEqual([0, 0, 0]);
  });

  it("an empty list takes one call", async () => {
    const { fetchPage, calls } = pages(0, new Set());
    expect(await collect(paginate(fetchPage, 100))).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it("the overlap costs one call per limit × (limit - 1) rows: none up to limit, then few", async () => {
    for (const [total, expected] of [
      [100, 1],
      [199, 2],
      [200, 3],
      [300, 4],
      [10_000, 101],
    ] as const) {
      const { fetchPage, calls } = pages(total, new Set());
      expect(await collect(paginate(fetchPage, 100))).toHaveLength(total);
      expect(calls, `${total} rows`).toHaveLength(expected);
      expect(pagesFor(total, 100)).toBe(expected);
    }
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
    // 1 + ⌈990 / 9⌉: pages of 10 that share a row with the page before.
    expect(stats).toMatchObject({ calls: 111, maxInFlight: 4 });
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
      return offset === 45 ? { ...page, data: [...page.data, -1] } : page;
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 45 holds 11 rows though 10 were asked for",
    );
    expect(stats.calls).toBeLessThanOrEqual(6 + 2 * 4);
  });

  it("a slow page holds the walk back: pages read ahead of it are bounded, so a bad one costs few calls", async () => {
    const { fetchPage: inner, stats } = liveList(range(100_000), 1);
    const fetchPage = async (offset: number, limit: number) => {
      if (offset !== 9) return inner(offset, limit);
      await new Promise((r) => setTimeout(r, 300));
      return { data: range(11), total_count: 100_000 };
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 9 holds 11 rows though 10 were asked for",
    );
    // Page 0, the slow page 1, and at most 2 × 4 pages past the first one not yet taken.
    expect(stats.calls).toBeLessThanOrEqual(1 + 2 * 4);
  });

  it("a run of empty pages stops with a bounded number of calls, not one per page of the count", async () => {
    const stats = { calls: 0 };
    const fetchPage = async () => {
      stats.calls++;
      await new Promise((r) => setTimeout(r, 1));
      return { data: [], total_count: 90_000 };
    };
    await expect(collect(paginate(fetchPage, 100, { concurrency: 4, maxEmptyPages: 3 }))).rejects.toThrow(
      "4 empty pages in a row up to offset 297 though total_count is 90000",
    );
    expect(stats.calls).toBeLessThanOrEqual(4 + 2 * 4);
  });

  it("a server that ignores offset is caught in parallel", async () => {
    const fetchPage = async () => ({ data: [1, 2, 3], total_count: 1_000 });
    await expect(collect(paginate(fetchPage, 3, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 2 repeats 3 row(s) already read though total_count is 1000",
    );
  });

  it("an impossible count on a later page stops the walk (not taken as a change of the list)", async () => {
    const fetchPage = async (offset: number, limit: number) => ({
      data: range(100).slice(offset, offset + limit),
      total_count: offset === 36 ? -1 : 100,
    });
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow("total_count -1 is not a count");
  });
});

// Issue 38: a list that shifts under a walk without its count changing.
describe("paginate: a shift across a page boundary is seen, not only a changed count", () => {
  /** 450 rows; after page 0 is read, 20 rows leave its window and 20 join at the end. */
  function swapAfterFirstPage() {
    const rows = range(450);
    const { fetchPage: inner, stats } = liveList(rows);
    let edited = false;
    const fetchPage = async (offset: number, limit: number) => {
      const page = await inner(offset, limit);
      if (!edited) {
        edited = true;
        rows.splice(10, 20);
        rows.push(...range(20).map((i) => 1_000 + i));
      }
      return page;
    };
    return { fetchPage, stats, final: () => [...rows].sort((a, b) => a - b) };
  }

  it.each([1, 4, 8])("an equal-count swap at concurrency %i: the read holds every row there at its end", async (n) => {
    const { fetchPage, stats, final } = swapAfterFirstPage();
    const rows = await collect(paginate(fetchPage, 100, { concurrency: n }));
    expect([...rows].sort((a, b) => a - b)).toEqual(final());
    // A walk stopped at the first boundary, then a whole one: 5 pages (0, 99, 198, 297, 396).
    expect(stats.calls).toBeGreaterThanOrEqual(1 + 1 + 5);
    expect(stats.calls).toBeLessThanOrEqual(1 + 2 * n + 5);
  });

  it("a list that shifts under every walk fails, saying what it saw, without yielding a row", async () => {
    let shift = 0;
    const yielded: number[] = [];
    const fetchPage = async (offset: number, limit: number) => {
      const page = { data: range(450 + shift).slice(shift + offset, shift + offset + limit), total_count: 450 };
      shift += 3;
      return page;
    };
    const err = await (async () => {
      for await (const row of paginate(fetchPage, 100, { concurrency: 4 })) yielded.push(row);
    })().catch((e: Error) => e);
    expect((err as Error).message).toBe(
      "the list changed while it was read (the row at offset 99 was not the same on the two pages that share it) on 3 reads in a row; stopping rather than miss rows that moved between pages",
    );
    expect(yielded).toEqual([]);
  });

  it("short pages at every boundary: two walks must agree, and a list that never agrees fails", async () => {
    // Every 99th slot hidden, so no page shows the row it shares with the next.
    const hidden = new Set(range(500).filter((i) => i % 99 === 0));
    const steady = pages(500, hidden);
    expect(await collect(paginate(steady.fetchPage, 100))).toEqual(range(500).filter((i) => !hidden.has(i)));
    // Each short page whose last row the next page does not show has the rest of its window read
    // again once (6 here), on the first walk only: the second agrees with a walk already probed.
    expect(steady.calls).toHaveLength(2 * pagesFor(500, 100) + 6);
    expect(steady.calls.slice(6, 12)).toEqual([
      [98, 2],
      [197, 2],
      [296, 2],
      [395, 2],
      [494, 2],
      [499, 1],
    ]);
    let walk = 0;
    const drifting = async (offset: number, limit: number) => {
      if (offset === 0) walk++;
      // Each walk sees one row of page 2's window under another id.
      const data = range(500)
        .slice(offset, offset + limit)
        .filter((i) => !hidden.has(i))
        .map((i) => (i === 250 ? -walk : i));
      return { data, total_count: 500 };
    };
    await expect(collect(paginate(drifting, 100))).rejects.toThrow(
      "the list changed while it was read (two reads of it did not hold the same rows) on 3 reads in a row",
    );
  });

  it("a list of hidden rows only is confirmed by a second walk like any other", async () => {
    const { fetchPage, calls } = pages(30, new Set(range(30)));
    expect(await collect(paginate(fetchPage, 10, { maxEmptyPages: 5 }))).toEqual([]);
    expect(calls).toHaveLength(2 * pagesFor(30, 10));
  });

  it("a second walk with a row fewer does not confirm the first; a third that agrees with it does", async () => {
    const hidden = new Set(range(500).filter((i) => i % 99 === 0));
    let walk = 0;
    const fetchPage = async (offset: number, limit: number) => {
      if (offset === 0) walk++;
      const data = range(500)
        .slice(offset, offset + limit)
        .filter((i) => !hidden.has(i) && (walk === 1 || i !== 250));
      return { data, total_count: 500 };
    };
    const rows = await collect(paginate(fetchPage, 100));
    expect(rows).not.toContain(250);
    expect(walk).toBe(3);
  });

  it("one walk allowed and its boundary unchecked: it fails saying so, not that the list changed", async () => {
    const { fetchPage } = pages(25, new Set([9]));
    await expect(collect(paginate(fetchPage, 10, { maxWalks: 1 }))).rejects.toThrow(
      "1 reads of the list could not be confirmed (short pages hide the rows pages share, so a second read must agree)",
    );
  });

  it("every one of maxWalks walks is tried before the read fails", async () => {
    let walks = 0;
    let shift = 0;
    const fetchPage = async (offset: number, limit: number) => {
      if (offset === 0) walks++;
      shift += 3;
      return { data: range(450 + shift).slice(shift + offset, shift + offset + limit), total_count: 450 };
    };
    await expect(collect(paginate(fetchPage, 100, { maxWalks: 2 }))).rejects.toThrow("on 2 reads in a row");
    expect(walks).toBe(2);
  });

  it("pages of one row from a server that ignores offset: the repeat is caught at once", async () => {
    const calls: number[] = [];
    const fetchPage = async (offset: number) => {
      calls.push(offset);
      return { data: ["same"], total_count: 50 };
    };
    await expect(collect(paginate(fetchPage, 1))).rejects.toThrow("the page at offset 1 repeats 1 row(s)");
    expect(calls).toEqual([0, 1]);
  });

  it("pages of one row cannot share one: every read takes a second walk that must agree", async () => {
    const { fetchPage, calls } = pages(5, new Set());
    expect(await collect(paginate(fetchPage, 1))).toEqual(range(5));
    expect(calls.map(([o]) => o)).toEqual([0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
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
    await expect(collect(paginate(fetchPage, 2))).rejects.toThrow("the page at offset 1 repeats 2 row(s) already read");
  });

  it("a row without a string id, null included, is known by its JSON", async () => {
    const rows = [null, { id: 7, v: 1 }, { id: 7, v: 2 }, null];
    const fetchPage = (total: number) => async (offset: number, limit: number) => ({
      data: rows.slice(offset, Math.min(total, offset + limit)),
      total_count: total,
    });
    expect(await collect(paginate(fetchPage(3), 2))).toEqual([null, { id: 7, v: 1 }, { id: 7, v: 2 }]);
    await expect(collect(paginate(fetchPage(4), 2))).rejects.toThrow(
      "the page at offset 2 held 1 row(s) already read on another page",
    );
  });

  it("by default a count over 100,000 rows is refused with a UserError, and exactly 100,000 is not", async () => {
    const err = await collect(paginate(counting(100_001), 100_000)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      "total_count 100001 is more than the 100000 rows this list may hold; the count cannot be right (raise the client's maxListRows if it is)",
    );
    expect(await collect(paginate(counting(100_000), 100_000))).toEqual([]);
  });

  it("a count over maxRows is refused before any other page is asked for", async () => {
    const calls: number[] = [];
    const fetchPage = async (offset: number) => {
      calls.push(offset);
      return { data: [], total_count: 51 };
    };
    await expect(collect(paginate(fetchPage, 10, { maxRows: 50 }))).rejects.toThrow(
      "total_count 51 is more than the 50 rows this list may hold; the count cannot be right",
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
      "1 empty pages in a row up to offset 9 though total_count is 30",
    );
  });

  it("no page is asked for once the walk has failed, though pages were still in flight", async () => {
    const { fetchPage: inner, stats } = liveList(range(1_000), 5);
    const fetchPage = async (offset: number, limit: number) => {
      const page = await inner(offset, limit);
      return offset === 9 ? { ...page, data: [...page.data, -1] } : page;
    };
    await expect(collect(paginate(fetchPage, 10, { concurrency: 4 }))).rejects.toThrow(
      "the page at offset 9 holds 11 rows though 10 were asked for",
    );
    const calls = stats.calls;
    await new Promise((r) => setTimeout(r, 60));
    expect(stats.calls).toBe(calls);
  });

  it("a page that fails to load fails the walk with its error, and no page is asked for after it", async () => {
    const { fetchPage: inner, stats } = liveList(range(1_000), 5);
    const fetchPage = async (offset: number, limit: number) => {
      if (offset === 18) throw new Error("connection reset");
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
      if (offset === 9) await held;
      return inner(offset, limit);
    };
    const rows = collect(paginate(fetchPage, 10, { concurrency: 2 }));
    await new Promise((r) => setTimeout(r, 60));
    expect(requested).toEqual([0, 9, 18, 27, 36]);
    release();
    expect(await rows).toEqual(range(100));
  });
});

// Issue 38, the attack pass: reads that came back partial with no error, and a list whose rows
// grew the heap to 4.4 GB (test/unit/pagination-hostile.test.ts runs the attacker's servers).
describe("paginate: a read holds every row, or fails", () => {
  it("a row moved onto a page already read is seen at once, and a walk over the settled list is whole", async () => {
    // Rows 5 and 25 trade places after page 0 of the first walk, for good.
    const rows = range(30);
    const { fetchPage: inner, stats } = liveList(rows);
    const fetchPage = async (offset: number, limit: number) => {
      const page = await inner(offset, limit);
      if (stats.calls === 1) [rows[5], rows[25]] = [rows[25]!, rows[5]!];
      return page;
    };
    expect([...(await collect(paginate(fetchPage, 10)))].sort((a, b) => a - b)).toEqual(range(30));
    // The first walk stops at the page at offset 18 (it shows row 5 again), the second reads 4 pages.
    expect(stats.calls).toBe(3 + 4);
  });

  it("a page of a short list that serves fewer rows than its window, with no page after it, is probed too", async () => {
    const calls: Array<[number, number]> = [];
    const fetchPage = async (offset: number, limit: number) => {
      calls.push([offset, limit]);
      return { data: range(30).slice(offset, offset + Math.min(limit, 20)), total_count: 30 };
    };
    await expect(collect(paginate(fetchPage, 100, { maxWalks: 1 }))).rejects.toThrow(
      "the list changed while it was read (the page at offset 0 showed 20 of the 30 rows of its window, and a second read of the rest of that window found 10 row(s) it had left out: a server that serves fewer rows than asked for) on 1 reads in a row",
    );
    expect(calls).toEqual([
      [0, 100],
      [20, 10],
    ]);
  });

  it("a short page whose last row the next page shows is not probed: removed rows hide nothing there", async () => {
    const { fetchPage, calls } = pages(25, new Set([3]));
    expect(await collect(paginate(fetchPage, 10))).toEqual(range(25).filter((i) => i !== 3));
    expect(calls).toEqual([
      [0, 10],
      [9, 10],
      [18, 10],
    ]);
  });

  it("a probe that finds a row the list gained meanwhile starts the walk again", async () => {
    // Slots 5 and 9 hold removed rows while the first walk reads, so page 0 cannot show the row it
    // shares with page 1; slot 9's row is back before the probe of page 0's window reads it.
    const hidden = new Set([5, 9]);
    const { fetchPage: inner, calls } = pages(25, hidden);
    const fetchPage = async (offset: number, limit: number) => {
      if (calls.length === 3) hidden.delete(9);
      return inner(offset, limit);
    };
    expect(await collect(paginate(fetchPage, 10))).toEqual(range(25).filter((i) => i !== 5));
    // Walk 1, the probe of page 0 (offsets 8 and 9), then walk 2, whose boundaries all match.
    expect(calls).toEqual([
      [0, 10],
      [9, 10],
      [18, 10],
      [8, 2],
      [0, 10],
      [9, 10],
      [18, 10],
    ]);
  });

  it("a probe that fails to load fails the read with its error, not as a list that changed", async () => {
    const { fetchPage: inner, calls } = pages(25, new Set([9]));
    const fetchPage = async (offset: number, limit: number) => {
      if (limit === 1) throw new Error("connection reset"); // the probe of page 0: offset 9, 1 row
      return inner(offset, limit);
    };
    await expect(collect(paginate(fetchPage, 10))).rejects.toThrow("connection reset");
    expect(calls).toHaveLength(3);
  });

  it("a page holding more rows than its count leaves from its offset is refused", async () => {
    const fetchPage = async (offset: number, limit: number) => ({
      data: offset === 18 ? range(10) : range(25).slice(offset, offset + limit),
      total_count: 25,
    });
    await expect(collect(paginate(fetchPage, 10))).rejects.toThrow(
      "the page at offset 18 holds 10 rows though its total_count 25 leaves 7 from there",
    );
  });

  it("a read stops once its pages pass 256 MiB by default, naming the size and the page", async () => {
    const calls: number[] = [];
    const fetchPage = async (offset: number, limit: number) => {
      calls.push(offset);
      return { data: range(1_000).slice(offset, offset + limit), total_count: 1_000, bytes: 100 * 1024 * 1024 };
    };
    await expect(collect(paginate(fetchPage, 10))).rejects.toThrow(
      "the pages read came to 314572800 bytes by the page at offset 18, past the 268435456 bytes one list may take; stopping rather than grow without bound (raise the client's maxListBytes if the list is right)",
    );
    expect(calls).toEqual([0, 9, 18]);
  });

  it("the byte budget is the read's, across its walks and probes, and a read just inside it passes", async () => {
    const hidden = new Set([9]);
    const { fetchPage: inner, calls } = pages(25, hidden);
    const sized = (bytes: number) => async (offset: number, limit: number) => ({
      ...(await inner(offset, limit)),
      bytes,
    });
    // Walk 1 (3 pages), its probe (1), walk 2 (3 pages): 7 pages of 10 bytes.
    expect(await collect(paginate(sized(10), 10, { maxBytes: 70 }))).toHaveLength(24);
    expect(calls).toHaveLength(7);
    await expect(collect(paginate(sized(10), 10, { maxBytes: 69 }))).rejects.toThrow(
      "the pages read came to 70 bytes by the page at offset 18, past the 69 bytes",
    );
  });
});

describe("fetchInOrder", () => {
  it("hands pages 1..count-1 over in order however they arrive, with at most `concurrency` in flight", async () => {
    const taken: number[] = [];
    const stats = { inFlight: 0, max: 0 };
    await fetchInOrder(
      8,
      3,
      async (i) => {
        stats.inFlight++;
        stats.max = Math.max(stats.max, stats.inFlight);
        await new Promise((r) => setTimeout(r, (8 - i) * 2));
        stats.inFlight--;
        return i * 10;
      },
      (i, page) => taken.push(i, page),
    );
    expect(taken).toEqual([1, 10, 2, 20, 3, 30, 4, 40, 5, 50, 6, 60, 7, 70]);
    expect(stats.max).toBe(3);
  });

  it("one page asks for nothing", async () => {
    const asked: number[] = [];
    await fetchInOrder(
      1,
      4,
      async (i) => asked.push(i),
      () => {},
    );
    expect(asked).toEqual([]);
  });
});
