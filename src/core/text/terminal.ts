/**
 * The one neutraliser for text from outside (a server's message, its ids and names, a state's
 * resource names) on its way to a person: a terminal, a log line, an error message, and,
 * through markdown.ts, a Markdown view. A line break or tab becomes one space, so no text can
 * forge a line; every other invisible code point (text/controls.ts: an ANSI escape, a bidi
 * control such as U+202E, a zero-width character, an unassigned code point) is shown as
 * `<U+202E>`, so a reader sees that something was there and cannot be shown text in an order
 * or a colour other than the bytes (Trojan Source, CVE-2021-42574); and the length is bounded.
 */
import { isInvisible } from "./controls";

/** Longest outside string shown, in characters (escapes included). */
export const SHOWN_MAX = 120;

/**
 * Line breaks and tabs: shown as one space, so a name cannot start a new line. The
 * vertical tab is spelled `\u000b`: Stryker mutates `\v` into `\V`, an invalid escape under the
 * `u` flag, and that one mutant stopped the module from loading in every mutation run.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a vertical tab is one of the breaks matched.
const BREAKS = /[\t\n\u000b\f\r\u0085\u2028\u2029]+/gu;

const escapeOf = (c: string) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`;

/**
 * `s` with line breaks flattened and every invisible code point made visible, cut to at most
 * `max` characters at a code point (never inside an escape), with `…` when cut.
 */
export function visible(s: string, max = SHOWN_MAX): string {
  let out = "";
  for (const c of s.replace(BREAKS, " ")) {
    const shown = isInvisible(c) ? escapeOf(c) : c;
    if (out.length + shown.length > max) return `${out}…`;
    out += shown;
  }
  return out;
}

/** A plain token (a UUID, a slug, a timestamp): what an id the service assigns looks like. */
const PLAIN_TOKEN = /^[\w.:-]{1,80}$/;

/**
 * A service id (guardrail, workspace) or other short service value for a message: as is when
 * it is a plain token such as a UUID, else quoted and neutralised (`visible`), so it can
 * neither drive a terminal nor pass for a plain id. `none` for null or absent.
 */
export function idText(id: unknown): string {
  if (id === null || id === undefined) return "none";
  const s = typeof id === "string" ? id : String(id);
  return PLAIN_TOKEN.test(s) ? s : JSON.stringify(visible(s, 80));
}

/** Wide in a terminal (East Asian Wide and Fullwidth, emoji): two columns each. */
const WIDE =
  /[\u1100-\u115F\u231A\u231B\u2329\u232A\u23E9-\u23EC\u23F0\u23F3\u25FD\u25FE\u2614\u2615\u2648-\u2653\u267F\u2693\u26A1\u26AA\u26AB\u26BD\u26BE\u26C4\u26C5\u26CE\u26D4\u26EA\u26F2\u26F3\u26F5\u26FA\u26FD\u2705\u270A\u270B\u2728\u274C\u274E\u2753-\u2755\u2757\u2795-\u2797\u27B0\u27BF\u2B1B\u2B1C\u2B50\u2B55\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uA960-\uA97F\uAC00-\uD7A3\uF900-\uFAFF\uFE10-\uFE19\uFE30-\uFE6F\uFF00-\uFF60\uFFE0-\uFFE6\u{16FE0}-\u{1B2FF}\u{1F004}\u{1F0CF}\u{1F18E}\u{1F191}-\u{1F19A}\u{1F200}-\u{1F64F}\u{1F680}-\u{1F6FF}\u{1F7E0}-\u{1F7EB}\u{1F90C}-\u{1F9FF}\u{1FA70}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;
/** Drawn on the character before: no column of its own. */
const ZERO = /[\p{Mn}\p{Me}]/u;

/** The columns `s` takes in a terminal (a `visible` text: no control is left to count). */
export function displayWidth(s: string): number {
  let w = 0;
  for (const c of s) w += ZERO.test(c) ? 0 : WIDE.test(c) ? 2 : 1;
  return w;
}
