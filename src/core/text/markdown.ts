/**
 * The Markdown neutraliser, on top of the one neutraliser of outside text (terminal.ts
 * `visible`), for strings that reach Markdown from outside: guardrail names, ids and
 * values from a pull request or the service, file names from a pull request, and values a
 * policy quotes (policy/quote.ts). Each comes out as
 * inert text: no newline, no raw HTML, no code-span breakout, no live mention, emphasis or link,
 * a bounded length, and no invisible character (text/controls.ts). A bidi control (U+202E,
 * U+2066, U+200F), a zero-width or other format character, a control character or an
 * unassigned code point is shown as `<U+202E>`, so a reviewer sees that something was there and cannot be shown text in
 * an order or a form other than the bytes (Trojan Source, CVE-2021-42574).
 */
import { SHOWN_MAX, visible } from "./terminal";

// The neutraliser itself lives in terminal.ts: one for every output, Markdown's on top of it.
export { SHOWN_MAX, visible };

/**
 * A code span. Backticks inside become a look-alike (ˋ) so the span cannot close early; a
 * code span is never parsed for HTML, emphasis or mentions.
 */
export function code(s: string, max = SHOWN_MAX): string {
  const inner = visible(s, max).replace(/`/g, "ˋ");
  // A span of blanks would render as nothing: show it quoted.
  return `\`${inner.trim() === "" ? JSON.stringify(inner) : inner.trim()}\``;
}

/** A code span inside a table cell: a `|` would end the cell. */
export function cell(s: string, max = SHOWN_MAX): string {
  return code(s, max).replace(/\|/g, "\\|");
}

/**
 * Plain text: every ASCII punctuation mark backslash-escaped (no HTML, heading, emphasis,
 * link or table syntax survives) and `@` followed by a zero-width space, which GitHub never
 * turns into a mention.
 */
export function text(s: string, max = SHOWN_MAX): string {
  // A backtick becomes the look-alike, as in code spans: an escaped one is easy to misread as a span's start.
  const escaped = visible(s, max)
    .replace(/`/g, "ˋ")
    .replace(/[!-/:-@[-_{-~]/g, (c) => `\\${c}`);
  return escaped.replace(/\\@/g, "@\u200b") || "(unnamed)";
}
