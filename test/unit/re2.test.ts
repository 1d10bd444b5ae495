/**
 * The one compiler of patterns someone else wrote (src/core/text/re2.ts): RE2, so a match
 * takes time linear in the text whatever the pattern (issue 38, class 4). A hang here would
 * freeze the test runner itself; the provider test (test/provider/name-regex.test.ts) runs
 * the same pattern in child processes, where a hang fails by the test's timeout.
 */
import { describe, expect, it } from "vitest";
import { compileRe2 } from "../../src/core/text/re2";

const test = (pattern: string, text: string) => {
  const c = compileRe2(pattern);
  if (!c.ok) throw new Error(c.reason);
  return c.regex.test(text);
};

describe("compileRe2", () => {
  it("matches a catastrophic pattern for JavaScript's engine at once, both ways", () => {
    expect(test("^(a+)+$", "a".repeat(34))).toBe(true);
    expect(test("^(a+)+$", `${"a".repeat(5000)}!`)).toBe(false);
    expect(test("(x+x+)+y", "x".repeat(5000))).toBe(false);
  });

  it("is unanchored like RegExp.test, and reads code points, classes and inline flags", () => {
    expect(test("win", "twin")).toBe(true);
    expect(test("^eng-", "team-eng-x")).toBe(false);
    expect(test("^.$", "😀")).toBe(true);
    expect(test("^\\p{L}+$", "Équipe")).toBe(true);
    expect(test("(?i)^ENG", "eng-main")).toBe(true);
    expect(test("\\d{3}", "ab12c")).toBe(false);
  });

  it("refuses what RE2 does not take, in RE2's words, invisible characters escaped", () => {
    expect(compileRe2("(?=x)")).toEqual({ ok: false, reason: "invalid or unsupported Perl syntax: `(?=`" });
    expect(compileRe2("(a)\\1")).toEqual({ ok: false, reason: "invalid escape sequence: `\\1`" });
    expect(compileRe2("a{2000}")).toEqual({ ok: false, reason: "invalid repeat count: `{2000}`" });
    const bidi = compileRe2("[\u202e");
    expect(bidi.ok).toBe(false);
    expect(bidi.ok ? "" : bidi.reason).not.toContain("\u202e");
  });
});
