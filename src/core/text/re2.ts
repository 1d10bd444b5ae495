/**
 * The one place a regular expression someone else wrote is compiled to be matched: a
 * program's `nameRegex`, which the plugin runs against names a server sends. JavaScript's
 * engine backtracks, so `^(a+)+$` against 34 a's and a `!` runs for hours and no length
 * bound helps (issue 38). RE2 matches in time linear in the input; its syntax
 * (https://github.com/google/re2/wiki/Syntax) has no lookarounds and no backreferences.
 * re2js is a pure JavaScript port, so the plugin's bundle stays one file.
 */
import { RE2JS } from "re2js";
import { escapeInvisible } from "./controls";

/** A compiled pattern: whether it matches anywhere in a text (unanchored, as `RegExp.test`). */
export interface LinearRegex {
  test(text: string): boolean;
}

/** What RE2 does not take that JavaScript does, and where its syntax is, for messages. */
export const RE2_SYNTAX =
  "RE2 syntax has no lookarounds and no backreferences (https://github.com/google/re2/wiki/Syntax)";

/**
 * The pattern compiled by RE2, or why RE2 refuses it: RE2's own words without their prefix,
 * invisible characters escaped (they quote a piece of the pattern).
 */
export function compileRe2(pattern: string): { ok: true; regex: LinearRegex } | { ok: false; reason: string } {
  try {
    const re = RE2JS.compile(pattern);
    return { ok: true, regex: { test: (text) => re.test(text) } };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, reason: escapeInvisible(message.replace(/^error parsing regexp:\s*/, "")) };
  }
}
