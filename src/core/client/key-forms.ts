/**
 * The forms a server may echo the key in (issue 38, class 2), for redaction.ts. Two kinds:
 *
 * - forms found and replaced in place: the key as sent, URL-encoded, JSON-escaped, every byte
 *   percent-encoded (either hex case), any case, and base64 / base64url of any text holding
 *   it (`Bearer <key>`, the whole header line): a base64 text encodes the key in one of three
 *   alignments, and the characters that depend on the key alone are the same whatever
 *   surrounds it, so each alignment's core is looked for;
 * - forms a text can hide the key in between its characters (HTML entities, zero-width and
 *   other invisible characters, base64 broken into lines): the text is read with those undone
 *   and, where it still holds the key, it is withheld whole rather than cut around.
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
 * Whether `text` still hides `key` in a form that interleaves it (see the file's comment):
 * read with entities and percent-escapes decoded (twice, for double encoding), invisible
 * characters and whitespace dropped, in any case, and as base64 broken into lines.
 */
export function hidesKey(text: string, key: string): boolean {
  let read = text;
  for (let i = 0; i < 2; i++) read = withoutInvisible(decodePercent(decodeEntities(read)));
  const lower = read.toLowerCase();
  if (lower.includes(key.toLowerCase())) return true;
  const packed = read.replace(/\s+/g, "");
  return packed.toLowerCase().includes(key.toLowerCase()) || base64Cores(key).some((c) => packed.includes(c));
}
