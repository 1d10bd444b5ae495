/**
 * A user string (a path, a guardrail name) as inert Markdown: one inline code span, so no link,
 * mention, heading or HTML can come out of it, and bounded in length.
 */
const MAX = 200;

/** `s` as an inline code span: no backticks or line breaks inside, at most 200 characters. */
export function literal(s: string): string {
  const flat = s.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, "?").replace(/`/g, "'");
  return `\`${flat.length > MAX ? `${flat.slice(0, MAX)}…` : flat}\``;
}
