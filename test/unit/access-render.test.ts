/**
 * Issue 41 attack pass: `guardrails-access`'s columns line up in a terminal whatever the service
 * names things: a wide (CJK, emoji) or combining character takes the columns it shows in.
 */
import { describe, expect, it } from "vitest";
import { columns } from "../../src/access/render";
import { displayWidth } from "../../src/core/text/terminal";

describe("columns", () => {
  it.each([
    ["工程", 4],
    ["e\u0301quipe", 6],
    ["🔒 keys", 7],
    ["plain", 5],
  ])("%j is %i columns wide", (s, w) => expect(displayWidth(s)).toBe(w));

  it("the second column starts at one screen column on every row", () => {
    const lines = columns([
      ["工程", "a"],
      ["e\u0301quipe", "b"],
      ["🔒 keys", "c"],
      ["plain", "d"],
    ]).split("\n");
    const at = lines.filter(Boolean).map((l) => displayWidth(l.slice(0, -1)));
    expect(new Set(at).size).toBe(1);
  });
});
