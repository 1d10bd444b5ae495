/**
 * Neutralising user-supplied strings for a pull-request comment. Anything a guardrail file can
 * set (names, ids, values) reaches the Markdown only through these: no newline, no raw HTML,
 * no code-span breakout, no live mention, no emphasis or link, and a bounded length, so a
 * crafted name cannot forge a headline or hide the rest of the comment.
 */

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Longest user string shown, in characters. */
export const SHOWN_MAX = 120;

function bounded(s: string, max: number): string {
  const flat = s.replace(CONTROLS, " ");
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A code span. Backticks inside become a look-alike (ˋ) so the span cannot close early; a
 * code span is never parsed for HTML, emphasis or mentions.
 */
export function code(s: string, max = SHOWN_MAX): string {
  const inner = bounded(s, max).replace(/`/g, "ˋ");
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
  const escaped = bounded(s, max).replace(/`/g, "ˋ").replace(/[!-/:-@[-_{-~]/g, (c) => `\\${c}`);
  return escaped.replace(/\\@/g, "@\u200b") || "(unnamed)";
}
