/**
 * A guardrail's name as a reviewer must see it (issue 38, class 6): always a code span (never
 * plain text a name could dress as the summary's own words, such as its verdict line), and
 * marked when it can pass for another name:
 * - letters of two or more scripts, whatever the scripts (`Strіct` with a Cyrillic і, Latin
 *   beside Lisu `ꓢ`, Latin beside Han);
 * - ASCII letters beside any other letter that is not an accented Latin letter (one that
 *   decomposes to an ASCII letter and combining marks, as `é` and `ü` do): a dotless `ı`, a long
 *   `ſ`, a Latin `ɑ`, a fullwidth `Ｓ`, a combining mark on an ASCII letter;
 * - a name made only of look-alike letters (fullwidth or mathematical Latin, an all-Cyrillic
 *   `Ореn`, all Lisu).
 * A marked name shows each non-ASCII character as `<U+0456>`, so the two names no longer look the same.
 */
import { code, SHOWN_MAX } from "./markdown";

const LETTER = /\p{L}/u;
const ASCII_LETTER = /^[A-Za-z]$/;
const MARK = /\p{M}/u;
/** Cyrillic and Greek letters drawn like a Latin letter (a name of these alone reads as Latin). */
const LOOKALIKES = new Set([..."аеорсухіјѕԁԛԝһӏвкмнтАВЕКМНОРСТХІЈЅΑΒΕΖΗΙΚΜΝΟΡΤΥΧοαινρτυ"]);
/** Scripts whose letters are drawn after Latin capitals (Lisu, Cherokee): a name of these alone reads as Latin. */
const LATIN_LIKE = /^[\p{Script=Lisu}\p{Script=Cherokee}]$/u;

/** The script of a letter, by the Unicode Script property (Latin, Cyrillic, Han, ...). */
function scriptOf(c: string): string {
  for (const s of SCRIPTS) if (s.re.test(c)) return s.name;
  return "other";
}
/** The scripts a name may mix; any other letter is its own "other" script (still counted). */
const SCRIPTS = [
  "Latin",
  "Cyrillic",
  "Greek",
  "Armenian",
  "Cherokee",
  "Lisu",
  "Han",
  "Hiragana",
  "Katakana",
  "Hangul",
  "Arabic",
  "Hebrew",
  "Georgian",
  "Thai",
  "Devanagari",
  "Coptic",
  "Runic",
  "Ogham",
  "Tifinagh",
  "Vai",
  "Canadian_Aboriginal",
  "Ethiopic",
  "Mongolian",
  "Tamil",
  "Bengali",
].map((name) => ({ name, re: new RegExp(`^\\p{Script=${name}}$`, "u") }));

/** An accented Latin letter: an ASCII letter and combining marks once decomposed (é, ü), never a look-alike. */
const accented = (c: string) => {
  const d = c.normalize("NFD");
  return d.length > 1 && ASCII_LETTER.test(d[0]!) && [...d.slice(1)].every((m) => MARK.test(m));
};

/** Why a name can pass for another, or undefined when it cannot. */
export function confusable(name: string): "mixed scripts" | "look-alike letters" | undefined {
  const chars = [...name.normalize("NFC")];
  const letters = chars.filter((c) => LETTER.test(c));
  const odd = letters.filter((c) => c.codePointAt(0)! > 0x7f && !accented(c));
  // Han, Hiragana and Katakana are written together (Japanese), as Hangul may be with Han.
  const scripts = new Set(letters.map((c) => scriptOf(c).replace(/^(Han|Hiragana|Katakana|Hangul)$/, "CJK")));
  if (scripts.size > 1) return "mixed scripts";
  const ascii = letters.some((c) => ASCII_LETTER.test(c));
  // A combining mark left after NFC on an ASCII letter (`i` + U+0307): drawn like the plain letter.
  const markOnAscii = chars.some((c, i) => MARK.test(c) && i > 0 && ASCII_LETTER.test(chars[i - 1]!));
  if (ascii && (odd.length > 0 || markOnAscii)) return "look-alike letters";
  if (odd.length === 0) return undefined;
  // No ASCII letter: look-alikes alone (fullwidth or mathematical Latin, Cyrillic or Greek look-alikes, Lisu).
  const alike = (c: string) =>
    ASCII_LETTER.test(c.normalize("NFKC")) || LOOKALIKES.has(c) || LATIN_LIKE.test(c) || accented(c);
  return letters.every(alike) ? "look-alike letters" : undefined;
}

const escaped = (s: string) =>
  [...s]
    .map((c) => (c.codePointAt(0)! > 0x7e ? `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>` : c))
    .join("");

/**
 * A name as Markdown: a code span (markdown.ts's neutraliser: no line break, no span breakout,
 * invisible characters shown), followed by ` (⚠ mixed scripts)` or ` (⚠ look-alike letters)`
 * with every non-ASCII character spelled out when it can pass for another name.
 */
export function nameCode(name: string, max = SHOWN_MAX): string {
  const why = confusable(name);
  return why ? `${code(escaped(name), max)} (⚠ ${why})` : code(name, max);
}
