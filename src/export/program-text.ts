/**
 * What every language's emitter of the imported program (program-walk.ts) spells the same way:
 * string literals that are inert and plain to read, and variables that are valid and unique.
 */

/** How a language writes a code point it escapes: `\u00e9`, `\U0001f600`, `\u{1f600}`. */
export type CodePoint = (cp: number) => string;

const hex = (cp: number, width: number) => cp.toString(16).padStart(width, "0");
/** `\uXXXX`, and `\UXXXXXXXX` past the BMP: Python, Go and YAML. */
export const u8Escape: CodePoint = (cp) => (cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`);
/** `\uXXXX`, and `\u{X}` past the BMP: JavaScript and TypeScript. */
export const braceEscape: CodePoint = (cp) => (cp > 0xffff ? `\\u{${hex(cp, 1)}}` : `\\u${hex(cp, 4)}`);

const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * A double-quoted string literal. Escaped: the quote, the backslash, and every character a
 * reader cannot see or a parser may take as a line end (controls, format characters such as
 * bidi overrides and U+FEFF, U+2028 and U+2029, and any separator but the space). Past the
 * BMP, printable characters stay as they are. Valid in Python, Go, TypeScript and YAML alike.
 */
export function quoted(s: string, codePoint: CodePoint): string {
  let out = '"';
  for (const ch of s) {
    if (SHORT[ch]) out += SHORT[ch];
    else if (/[\p{C}\p{Z}]/u.test(ch) && ch !== " ") out += codePoint(ch.codePointAt(0)!);
    else out += ch;
  }
  return `${out}"`;
}

/**
 * A variable for each logical name, in order: letters, digits and `_` (others become `_`), not
 * starting with a digit, not one of `reserved`, and unique (`eng_2` after `eng`).
 */
export function variables(names: readonly string[], reserved: ReadonlySet<string>): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let v = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=[0-9])/, "_") || "_";
    if (reserved.has(v) || v === "_") v = `${v}_`;
    const base = v;
    for (let i = 2; taken.has(v) || reserved.has(v); i++) v = `${base}_${i}`;
    taken.add(v);
    return v;
  });
}

/** The resources a program refers to by variable (a set's guardrail): the others need none in Go. */
export const referenced = (args: ReadonlyArray<ReadonlyArray<{ ref?: number }>>): Set<number> =>
  new Set(args.flat().flatMap((a) => (a.ref === undefined ? [] : [a.ref])));
