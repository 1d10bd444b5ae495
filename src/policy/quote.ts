/**
 * How a rule writes a resource's value into a message. A value the program did not mark
 * secret is quoted; a secret one never is (`[secret]`), and where the pack could not tell
 * which inputs were secret (its provenance policy did not run) nothing is quoted (`[hidden]`).
 * A quoted value is hostile text bound for terminals and PR comments: it is JSON-quoted, its
 * control, bidi and invisible characters escaped, and cut to a bounded length. A value shaped
 * like an API key is never quoted, secret or not: a key pasted into the wrong arg is still a
 * key (issue 24).
 */
import { holdsKey } from "../core/client/redaction";

/** Writes the value of the top-level property `key` (the value itself may be an item of it). */
export type Show = (key: string, value: unknown) => string;

/**
 * Code points shown as `\uXXXX` (`\u{XXXXX}` beyond the BMP): every control, format (bidi,
 * zero-width, tags), surrogate, private-use and unassigned one, the line and paragraph
 * separators, and the default-ignorable ones that render as nothing (Hangul fillers, variation
 * selectors), as tools/shared/markdown.ts.
 */
const INVISIBLE = /[\p{C}\p{Default_Ignorable_Code_Point}\u2028\u2029]/gu;
const MAX_CHARS = 80;
const MAX_ITEMS = 5;

/** One value as JSON, escaped and bounded; a key-shaped one not at all. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return holdsKey(text) ? "[a value shaped like an API key, not shown]" : shown(text);
}

/** A resource's name in the program, JSON-quoted, escaped and bounded (the URN beside it is whole). */
export const quoteName = (name: string): string => shown(JSON.stringify(name));

function shown(text: string): string {
  const chars = [...text];
  const cut = chars.length > MAX_CHARS ? `${chars.slice(0, MAX_CHARS - 1).join("")}…` : text;
  return cut.replace(INVISIBLE, (c) => {
    const hex = c.codePointAt(0)!.toString(16);
    return hex.length > 4 ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
  });
}

/** A `Show` that quotes what `secretKeys` does not name; `undefined` (not known) hides everything. */
export function showValues(secretKeys: ReadonlySet<string> | undefined): Show {
  if (!secretKeys) return () => "[hidden]";
  return (key, value) => (secretKeys.has(key) ? "[secret]" : quote(value));
}

/** Some items of `key`, each shown, at most a handful (`"a", "b" and 3 more`). */
export function showItems(show: Show, key: string, items: readonly unknown[]): string {
  const shown = items.slice(0, MAX_ITEMS).map((v) => show(key, v));
  // One marker for a hidden list: how many items there are says little, their values nothing.
  if (shown.every((s) => s.startsWith("["))) return shown[0] ?? "";
  const more = items.length - shown.length;
  return shown.join(", ") + (more > 0 ? ` and ${more} more` : "");
}
