/**
 * How a rule writes a resource's value into a message. A value the program did not mark
 * secret is quoted; a secret one never is (`[secret]`), and where the pack could not tell
 * which inputs were secret (its provenance policy did not run) nothing is quoted (`[hidden]`).
 * A quoted value is hostile text bound for terminals and PR comments: it is JSON-quoted, then
 * neutralised as all outside text is (core/text/markdown.ts `visible`: line breaks flattened,
 * control, bidi and invisible characters shown as `<U+202E>`, cut to a bounded length). A
 * value shaped like an API key is never quoted, secret or not: a key pasted into the wrong arg
 * is still a key (issue 24).
 */
import { holdsKey } from "../core/client/redaction";
import { visible } from "../core/text/markdown";

/** Writes the value of the top-level property `key` (the value itself may be an item of it). */
export type Show = (key: string, value: unknown) => string;

/** Longest quoted value, in characters (escapes included). */
const MAX_CHARS = 80;
const MAX_ITEMS = 5;

/** A text as a message may quote it: neutralised and bounded. */
const shown = (text: string): string => visible(text, MAX_CHARS);

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
