import { describe, expect, it } from "vitest";
import { collect, paginate } from "../../src/core/client/pagination";

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
