/**
 * A guardrail's name as a reviewer must see it (issue 38, class 6): always a code span (never
 * plain text a name could dress as the summary's own words, such as its verdict line), and
 * marked when it can pass for another name: letters of Latin mixed with letters of a script
 * that has Latin look-alikes (`Strіct` with a Cyrillic і), or a name made only of look-alike
 * letters (fullwidth or mathematical Latin, an all-Cyrillic `Ореn`). A marked name shows each
 * non-ASCII character as `<U+0456>`, so the two names no longer look the same.
 */
import { code, SHOWN_MAX } from "./markdown";

/** Scripts with letters that pass for Latin ones. */
const LOOKALIKE_SCRIPTS = [/\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /\p{Script=Armenian}/u, /\p{Script=Cherokee}/u];
const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;
/** Cyrillic and Greek letters drawn like a Latin letter (a name of these alone reads as Latin). */
const LOOKALIKES = new Set([..."аеорсухіјѕԁԛԝһӏвкмнтАВЕКМНОРСТХІЈЅΑΒΕΖΗΙΚΜΝΟΡΤΥΧοαινρτυ"]);

/** Why a name can pass for another, or undefined when it cannot. */
export function confusable(name: string): "mixed scripts" | "look-alike letters" | undefined {
  const letters = [...name].filter((c) => LETTER.test(c));
  const nonAscii = letters.filter((c) => c.codePointAt(0)! > 0x7f);
  if (nonAscii.length === 0) return undefined;
  // Each letter's script, where it matters: Latin, or one with Latin look-alikes (Han, Arabic, ... do not count).
  const scripts = new Set(
    letters.map((c) => (LATIN.test(c) ? "Latin" : (LOOKALIKE_SCRIPTS.find((re) => re.test(c))?.source ?? "other"))),
  );
  scripts.delete("other");
  if (scripts.size > 1) return "mixed scripts";
  // Latin letters outside ASCII that fold to ASCII ones (fullwidth, mathematical), or look-alikes alone.
  const folds = nonAscii.some((c) => /^[A-Za-z]$/.test(c.normalize("NFKC")));
  if (folds || letters.every((c) => c.codePointAt(0)! <= 0x7f || LOOKALIKES.has(c))) return "look-alike letters";
  return undefined;
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
