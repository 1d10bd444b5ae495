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
