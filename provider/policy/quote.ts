/**
 * How a rule writes a resource's value into a message. A value the program did not mark
 * secret is quoted; a secret one never is (`[secret]`), and where the pack could not tell
 * which inputs were secret (its provenance policy did not run) nothing is quoted (`[hidden]`).
 * A quoted value is hostile text bound for terminals and PR comments: it is JSON-quoted, its
 * control, bidi and invisible characters escaped, and cut to a bounded length.
 */

/** Writes the value of the top-level property `key` (the value itself may be an item of it). */
export type Show = (key: string, value: unknown) => string;

/** Characters shown as `\uXXXX`: C0/C1 controls, bidi controls, zero-width and other invisible marks. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const MAX_CHARS = 80;
const MAX_ITEMS = 5;

/** One value as JSON, escaped and bounded. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const chars = [...text];
  if (chars.length > MAX_CHARS) text = `${chars.slice(0, MAX_CHARS - 1).join("")}…`;
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
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
