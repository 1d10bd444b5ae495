/**
 * A secret (an id, a name, a value) taken out of a text that may echo it: a server's message,
 * a failure built from one. Every kind's secret-hiding (assignments/secret-ids.ts,
 * args/secret-text.ts) reads texts through this one matcher.
 */
import { isInvisible } from "./controls";

/**
 * One character of a text as read (`read`, lower case; "" for a blank or an invisible
 * character, which an id may be split by) and where it stands in the text: an escape (`\uXXXX`,
 * `\xXX`, `%XX`, `&#NN;`, `&#xNN;`) is one character read from several.
 */
interface Unit {
  read: string;
  start: number;
  end: number;
}

const ESCAPE = /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|%([0-9a-fA-F]{2})|&#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}));/y;

function unitsOf(text: string): Unit[] {
  const units: Unit[] = [];
  for (let i = 0; i < text.length; ) {
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(text);
    const hex = m ? (m[1] ?? m[2] ?? m[3] ?? m[5]) : undefined;
    const code = m ? (hex === undefined ? Number(m[4]) : Number.parseInt(hex, 16)) : text.codePointAt(i)!;
    const end = m ? ESCAPE.lastIndex : i + String.fromCodePoint(code).length;
    const c = code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    units.push({ read: /\s/.test(c) || isInvisible(c) ? "" : c.toLowerCase(), start: i, end });
    i = end;
  }
  return units;
}

/**
 * `text` with every id of `ids` as `[secret]`, in every form a server may echo it in: any
 * case, escaped (`\u`, `\x`, percent-encoding, numeric HTML entities), split by blanks or
 * invisible characters. Overlapping matches (one id inside another) become one `[secret]`.
 */
export function withoutIds(text: string, ids: Iterable<string>): string {
  // Blanks and invisible characters dropped: an id split by them is read whole.
  const units = unitsOf(text).filter((u) => u.read !== "");
  const read = units.map((u) => u.read);
  const spans: Array<[number, number]> = [];
  for (const id of new Set(ids)) {
    // Compared a character (code point) at a time, each in lower case, as the units are read.
    const want = [...id].map((c) => c.toLowerCase());
    if (want.length === 0) continue;
    for (let i = 0; i + want.length <= read.length; i++)
      if (want.every((c, j) => read[i + j] === c)) spans.push([units[i]!.start, units[i + want.length - 1]!.end]);
  }
  if (spans.length === 0) return text;
  spans.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of spans) {
    if (start >= at) out += `${text.slice(at, start)}[secret]`;
    at = Math.max(at, end);
  }
  return out + text.slice(at);
}
