/**
 * The forms a server may echo the key in (issue 38, class 2), for redaction.ts. Two kinds:
 *
 * - forms found and replaced in place: the key as sent, URL-encoded, JSON-escaped, every byte
 *   percent-encoded (either hex case), any case, and base64 / base64url of any text holding
 *   it (`Bearer <key>`, the whole header line): a base64 text encodes the key in one of three
 *   alignments, and the characters that depend on the key alone are the same whatever
 *   surrounds it, so each alignment's core is looked for;
 * - a run of the key (`keyRuns`): a key cut short, or a piece of it, is the key when the run is
 *   16 characters or half the key, whichever is shorter (issue 38 attack pass);
 * - forms a text can hide the key in between its characters (HTML entities, `\u` and `\x`
 *   escapes, zero-width and other invisible characters, base64 broken into lines) or encode it
 *   in (hex bytes, base64 of base64): the text is read with those undone, encodings to a
 *   bounded depth, and, where it still holds the key or a run of it, it is withheld whole
 *   rather than cut around.
 */

import { isInvisible } from "../text/controls";

/** Shortest key whose base64 cores are looked for (a shorter one would match by chance). */
const MIN_BASE64 = 8;

/** The base64 characters that depend on `key` alone, in each of the three alignments. */
export function base64Cores(key: string): string[] {
  const bytes = Buffer.from(key, "utf8");
  if (bytes.length < MIN_BASE64) return [];
  const out: string[] = [];
  for (const pad of [0, 1, 2]) {
    const b = Buffer.concat([Buffer.alloc(pad), bytes]).toString("base64");
    const core = b.slice(Math.ceil((pad * 8) / 6), Math.floor(((pad + bytes.length) * 8) / 6));
    out.push(core, core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...new Set(out)];
}

/** The exact forms replaced in place (most specific first). */
export function exactForms(key: string): string[] {
  const bytes = [...Buffer.from(key, "utf8")];
  const hex = (upper: boolean) =>
    bytes.map((b) => `%${b.toString(16).padStart(2, "0")[upper ? "toUpperCase" : "toLowerCase"]()}`).join("");
  return [
    ...new Set([
      key,
      encodeURIComponent(key),
      JSON.stringify(key).slice(1, -1),
      hex(true),
      hex(false),
      ...base64Cores(key),
    ]),
  ];
}

/** Shortest run of a key that is the key: 16 characters, or half a shorter key; none for a key under 16. */
export function runLength(key: string): number | undefined {
  const n = Math.min(16, Math.floor(key.length / 2));
  return n >= 8 ? n : undefined;
}

/** ASCII letters in lower case, every other character kept: the length never changes. */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The spans (start, end) of `text` that are runs of `key` (`runLength` or longer, any case),
 * each as long as it goes, left to right.
 */
export function keyRuns(text: string, key: string): Array<[number, number]> {
  const n = runLength(key);
  if (n === undefined) return [];
  const k = asciiLower(key);
  const t = asciiLower(text);
  // Where each piece of the key (n characters) starts in the text: one native search a piece.
  const starts = new Set<number>();
  for (let i = 0; i + n <= k.length; i++)
    for (let at = t.indexOf(k.slice(i, i + n)); at >= 0; at = t.indexOf(k.slice(i, i + n), at + 1)) starts.add(at);
  const runs: Array<[number, number]> = [];
  let covered = 0;
  for (const start of [...starts].sort((a, b) => a - b)) {
    if (start < covered) continue;
    let end = start + n;
    while (end < t.length && k.includes(t.slice(start, end + 1))) end++;
    runs.push([start, end]);
    covered = end;
  }
  return runs;
}

/** Characters that show nothing (controls, zero-width and bidi characters, soft hyphens...): text/controls.ts. */
const withoutInvisible = (text: string): string => [...text].filter((c) => !isInvisible(c)).join("");

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  hyphen: "-",
  dash: "-",
  minus: "-",
  lowbar: "_",
  UnderBar: "_",
  period: ".",
  colon: ":",
  sol: "/",
  plus: "+",
  equals: "=",
  nbsp: " ",
};

/** HTML entities (numeric, and the named ones a key's characters have) decoded. */
function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});?/g, (all, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return NAMED[body] ?? all;
  });
}

/** `\uXXXX` and `\xXX` escapes (JSON's, JavaScript's) decoded. */
function decodeEscapes(text: string): string {
  return text.replace(
    /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g,
    (_all, u: string | undefined, x: string | undefined) => String.fromCharCode(Number.parseInt(u ?? x ?? "", 16)),
  );
}

/** How many encodings deep a text is read for the key (base64 of base64 of the key is two). */
const MAX_DECODE_DEPTH = 2;

/**
 * What the runs of `text` that may be hex bytes or base64 decode to (bytes as Latin-1: one
 * character a byte), at each alignment: a run may start with characters that are not its.
 */
function decodedRuns(text: string): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(/[0-9a-fA-F]{16,}/g))
    for (const from of [0, 1])
      out.push(Buffer.from(run.slice(from, from + ((run.length - from) & ~1)), "hex").toString("latin1"));
  for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{16,}/g))
    for (const from of [0, 1, 2, 3]) out.push(Buffer.from(run.slice(from), "base64").toString("latin1"));
  return out;
}

/** Whether `read` holds the key, a run of it or a base64 core, as it is or decoded (up to `MAX_DECODE_DEPTH`). */
function holds(read: string, key: string, depth: number): boolean {
  const packed = read.replace(/\s+/g, "");
  for (const t of [read, packed])
    if (t.toLowerCase().includes(key.toLowerCase()) || keyRuns(t, key).length > 0) return true;
  if (base64Cores(key).some((c) => packed.includes(c))) return true;
  return depth < MAX_DECODE_DEPTH && decodedRuns(packed).some((d) => holds(d, key, depth + 1));
}

/** Percent-escapes decoded where they decode; the rest left. */
function decodePercent(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * Whether `text` still hides `key` in a form that interleaves or encodes it (see the file's
 * comment): read with entities, `\u`/`\x` escapes and percent-escapes decoded (twice, for
 * double encoding), invisible characters and whitespace dropped, in any case, as base64
 * broken into lines, and with hex and base64 runs decoded (twice, for base64 of base64).
 */
export function hidesKey(text: string, key: string): boolean {
  let read = text;
  for (let i = 0; i < 2; i++) read = withoutInvisible(decodePercent(decodeEscapes(decodeEntities(read))));
  return holds(read, key, 0);
}
