/**
 * Control and invisible characters, in one place: which code points text from outside (a
 * server's message, a file, a pull request, a program's value) may not carry raw into a
 * terminal, a log line, a state status or a Markdown view, and how each is shown instead.
 * Three sets, each inside the next:
 * - controls: C0, DEL and C1 (category Cc): ANSI escapes, newlines, NUL;
 * - layout characters: controls, format characters (bidi controls, zero-width ones, tags)
 *   and the line and paragraph separators;
 * - invisible characters: every control, format, surrogate, private-use and unassigned code
 *   point, the separators, and the default-ignorable ones that render as nothing (Hangul
 *   fillers, variation selectors). A bidi control shown raw can reorder what a reader sees
 *   (Trojan Source, CVE-2021-42574).
 */

const CONTROLS = /\p{Cc}+/gu;
const ONE_CONTROL = /\p{Cc}/u;
const LAYOUT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;
const INVISIBLE = /[\p{C}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/gu;
const ONE_INVISIBLE = /^[\p{C}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]$/u;

/**
 * Whether `s` holds a control character (C0, DEL or C1: an ANSI escape, a newline, NUL).
 * guardrails-ci refuses such a path; other invisible characters are shown escaped instead.
 */
export const hasControl = (s: string): boolean => ONE_CONTROL.test(s);

/** Whether the one code point `c` is invisible (see above). */
export const isInvisible = (c: string): boolean => ONE_INVISIBLE.test(c);

/** `s` with each run of controls as one space: for a server's text kept on an error. */
export const blankControls = (s: string): string => s.replace(CONTROLS, " ");

/**
 * `s` with each run of layout characters as one space: for a service-given name in a one-line
 * status. The set is part of what state holds (status strings), so it does not change.
 */
export const blankLayout = (s: string): string => s.replace(LAYOUT, " ");

/**
 * `s` with every invisible character escaped as JSON escapes it (`\u202e`; one escape per
 * UTF-16 unit beyond the BMP), for messages that quote a value as JSON: JSON leaves DEL, C1,
 * bidi and zero-width characters and the separators raw, and a terminal acts on them.
 */
export const escapeInvisible = (s: string): string =>
  s.replace(INVISIBLE, (c) =>
    [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""),
  );
