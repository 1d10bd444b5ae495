/**
 * How a judged change reads: its mark (text and an emoji without variation selectors, so the
 * neutraliser's check for invisible characters holds) and its words. Field names and the words
 * of the loosening table are fixed strings; every value and element goes through markdown.ts.
 */
import type { Direction, Judged } from "../core/fields/loosening";
import { code } from "../core/text/markdown";
import { nameCode } from "../core/text/names";
import { show } from "./values";

/** Each direction's mark, first in every marked line. */
export const MARK: Record<Direction, string> = {
  loosening: "🔓 **loosens**",
  unknown: "❔ **may loosen**",
  tightening: "🔒 tightens",
  neutral: "➖ neutral",
};

/** A value in a code span (bounded), secrets masked; a guardrail's name marked when it can pass for another (names.ts). */
const value = (v: unknown, field?: string) =>
  field === "name" && typeof v === "string" ? nameCode(v, 80) : code(show(v), 80);

/** One change in words: `limitUsd: \`100\` → \`250\` (raised)`, `allowedModels \`x\`: added`. */
export function changeText(j: Judged): string {
  const subject = `${j.field}${j.element !== undefined ? ` ${code(j.element, 80)}` : ""}`;
  const [b, a] = [j.before !== undefined, j.after !== undefined];
  if (b && a) return `${subject}: ${value(j.before, j.field)} → ${value(j.after, j.field)} (${j.what})`;
  if (a) return `${subject}: ${j.what} ${value(j.after, j.field)}`;
  if (b) return `${subject}: ${j.what} (was ${value(j.before, j.field)})`;
  return `${subject}: ${j.what}`;
}

/** A short form for lists of gains: `limitUsd raised`, `allowedModels \`x\` added`. */
export function gainText(j: Judged): string {
  return `${j.field}${j.element !== undefined ? ` ${code(j.element, 60)}` : ""} ${j.what}`;
}

/** At most `max` items joined, then how many more. */
export function some(items: string[], max: number, sep = ", "): string {
  return items.slice(0, max).join(sep) + (items.length > max ? `${sep}… and ${items.length - max} more` : "");
}

/** A setting of a new guardrail: `limitUsd: \`100\``, `contentFilterBuiltins \`email\`: \`block\``. */
export function settingText(j: Judged): string {
  const subject = `${j.field}${j.element !== undefined ? ` ${code(j.element, 80)}` : ""}`;
  return j.after !== undefined ? `${subject}: ${value(j.after, j.field)}` : subject;
}

/** The prefix steps.ts gives a workspace default's name. */
const DEFAULT_PREFIX = "default of workspace ";

/**
 * A guardrail's name as Markdown: always a code span (names.ts: marked when it can pass for
 * another), so no name can read as the summary's own words; a workspace default as `default of
 * workspace \`Acme\``.
 */
export function guardrailLabel(name: string, isDefault: boolean, max = 60): string {
  return isDefault && name.startsWith(DEFAULT_PREFIX)
    ? `${DEFAULT_PREFIX}${nameCode(name.slice(DEFAULT_PREFIX.length), max)}`
    : nameCode(name, max);
}
