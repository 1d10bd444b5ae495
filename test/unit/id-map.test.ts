/** A set's ids as a list and as the id map, one pair for every face and library (core/assignments/id-map.ts, issue 39). */
import { describe, expect, it } from "vitest";
import { assignedIds, toIdMap } from "../../src/core/assignments/id-map";

describe("id map", () => {
  it("toIdMap keeps each id once, in the list's order, an id spelled __proto__ too", () => {
    const map = toIdMap(["u2", "u1", "u2", "__proto__"]);
    expect(Object.keys(map)).toEqual(["u2", "u1", "__proto__"]);
    expect(Object.values(map)).toEqual([true, true, true]);
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
  });

  it("assignedIds gives the program's list back: the ids assigned here, sorted, no status", () => {
    expect(assignedIds({ u2: true, u1: true, u3: "on guardrail Ops (3f2b8c1e…)", u4: false })).toEqual(["u1", "u2"]);
    expect(assignedIds(toIdMap(["b", "a"]))).toEqual(["a", "b"]);
    expect(assignedIds(undefined)).toEqual([]);
    expect(assignedIds(null)).toEqual([]);
  });
});
