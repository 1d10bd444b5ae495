/**
 * The summary's first line, the reviewer's question answered: what loosens, for whom, and how
 * many members and keys that touches. A guardrail whose settings loosen touches everyone on it
 * after the change (a workspace default: everyone of its workspace without an assignment); an
 * id that moves, joins or leaves touches itself. `may loosen` (a secret, a value known after
 * apply, a guardrail not in the preview) is said beside, never dropped.
 */
import type { Direction } from "../core/fields/loosening";
import { code, text } from "../core/text/markdown";
import { some } from "./marks";
import type { GuardrailChange, SetChanges } from "./model";

/** Items named in the opening line; the rest are counted. */
const NAMED_MAX = 4;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

interface Reach {
  items: string[];
  ids: Record<"members" | "keys", Set<string>>;
  /** Reached too, but not countable: secret lists, lists not in the preview, a workspace's unassigned. */
  uncounted: Set<string>;
}

function reach(all: GuardrailChange[], d: Direction): Reach {
  const r: Reach = { items: [], ids: { members: new Set(), keys: new Set() }, uncounted: new Set() };
  for (const g of all) {
    const fields = [...new Set(g.judged.filter((j) => j.direction === d).map((j) => j.field))];
    if (fields.length && g.op !== "create" && (g.op !== "delete" || g.isDefault)) {
      r.items.push(`${text(g.name, 60)} (${some(fields, 8)})`);
      if (g.isDefault) r.uncounted.add(`everyone of its workspace without an assignment`);
      const unlisted: string[] = [];
      for (const kind of ["members", "keys"] as const) {
        const h = g.sets[kind].holders;
        if (Array.isArray(h)) for (const id of h) r.ids[kind].add(id);
        else if (h === "secret") r.uncounted.add(`a secret ${kind} list`);
        else if (!g.isDefault) unlisted.push(kind);
      }
      if (unlisted.length)
        r.uncounted.add(`any ${unlisted.join(" and ")} on ${text(g.name, 60)} this preview does not list`);
    }
    for (const kind of ["members", "keys"] as const) moves(g, g.sets[kind], kind, d, r);
  }
  return r;
}

/** Ids of one set whose verdict is `d`, grouped by where they come from and go. */
function moves(g: GuardrailChange, s: SetChanges, kind: "members" | "keys", d: Direction, r: Reach): void {
  const place = text(g.name, 60);
  const groups = new Map<string, string[]>();
  const add = (where: string, id: string) => {
    if (s.verdicts.get(id)?.direction !== d) return;
    const ids = groups.get(where) ?? [];
    if (!groups.has(where)) groups.set(where, ids);
    ids.push(id);
  };
  for (const id of s.added) add(`join ${place}`, id);
  for (const [id] of s.restored) add(`return to ${place}`, id);
  for (const [id, from] of [...s.movedIn, ...s.taken]) add(`move from ${text(from, 60)} to ${place}`, id);
  for (const id of s.removed) add(`leave ${place} for no assignment`, id);
  for (const [where, ids] of groups) {
    const who = plural(ids.length, kind === "members" ? "member" : "key");
    const verb = ids.length === 1 ? where.replace(/^(\w+)/, "$1s") : where;
    r.items.push(
      `${who} ${verb} (${some(
        ids.sort().map((id) => code(id, 60)),
        3,
      )})`,
    );
    for (const id of ids) r.ids[kind].add(id);
  }
  if (s.secret && d === "unknown") {
    r.items.push(`a secret ${kind} list of ${place} changes`);
    r.uncounted.add(`a secret ${kind} list`);
  }
}

function touches(r: Reach): string {
  const counted = r.ids.members.size + r.ids.keys.size > 0 || r.uncounted.size === 0;
  const parts = [
    ...(counted ? [`${plural(r.ids.members.size, "member")} and ${plural(r.ids.keys.size, "key")}`] : []),
    ...[...r.uncounted].sort(),
  ];
  return `touches ${parts.join(", and ")}`;
}

/** The opening line, and whether anything loosens or may loosen. */
export function openingLine(all: GuardrailChange[]): { line: string; loosens: boolean } {
  const [loose, maybe] = [reach(all, "loosening"), reach(all, "unknown")];
  const parts: string[] = [];
  if (loose.items.length) parts.push(`**🔓 Loosens:** ${some(loose.items, NAMED_MAX, "; ")} · ${touches(loose)}`);
  if (maybe.items.length)
    parts.push(
      `**❔ May loosen** (cannot tell from the preview): ${some(maybe.items, NAMED_MAX, "; ")} · ${touches(maybe)}`,
    );
  if (parts.length) return { line: parts.join(" · "), loosens: true };
  const count = (d: Direction) =>
    all.reduce((n, g) => n + (g.op === "create" ? 0 : g.judged.filter((j) => j.direction === d).length), 0);
  const [t, n] = [count("tightening"), count("neutral")];
  const counts = [t ? `${plural(t, "change")} ${t === 1 ? "tightens" : "tighten"}` : "", n ? `${n} neutral` : ""]
    .filter(Boolean)
    .join(", ");
  return { line: `**🔒 Nothing loosens${counts ? `:** ${counts}.` : ".**"}`, loosens: false };
}

/** Largest summary, in characters: a GitHub comment holds 65,536. */
export const MAX_SUMMARY_CHARS = 60_000;

/** Cuts at a line end under the limit, and says how much is left out. */
export function bounded(md: string): string {
  if (md.length <= MAX_SUMMARY_CHARS) return md;
  const cut = md.lastIndexOf("\n", MAX_SUMMARY_CHARS - 200);
  return `${md.slice(0, cut)}\n\n… cut here: ${md.length - cut} more characters. The job's log has the whole preview.\n`;
}
