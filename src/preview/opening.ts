/**
 * The summary's first line, the reviewer's question answered: what loosens, for whom, and how
 * many members and keys that touches. A guardrail whose settings loosen touches everyone on it
 * after the change (a workspace default: everyone of its workspace without an assignment); an
 * id that moves, joins or leaves touches itself. `may loosen` (a secret, a value known after
 * apply, a guardrail not in the preview) is said beside, never dropped.
 */
import type { Direction } from "../core/fields/loosening";
import { code } from "../core/text/markdown";
import { guardrailLabel, some } from "./marks";
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

/**
 * A guardrail's name as Markdown, with its logical name beside it when another guardrail of
 * the summary has the same name (a rename without an alias keeps it).
 */
export function labelIn(all: GuardrailChange[]) {
  return (g: GuardrailChange): string => {
    const twin = all.some((o) => o !== g && o.name === g.name);
    return `${guardrailLabel(g.name, g.isDefault)}${twin ? ` (${code(g.logical, 60)})` : ""}`;
  };
}

function reach(all: GuardrailChange[], d: Direction): Reach {
  const r: Reach = { items: [], ids: { members: new Set(), keys: new Set() }, uncounted: new Set() };
  const label = labelIn(all);
  for (const g of all) {
    const fields = [...new Set(g.judged.filter((j) => j.direction === d).map((j) => j.field))];
    const counts = (g.op !== "create" || g.succeeds || g.takesOver) && (g.op !== "delete" || g.isDefault || g.releases);
    if (fields.length && counts) {
      const how = g.succeeds
        ? `${code(g.logical, 60)}, succeeds ${code(g.succeeds, 60)}: `
        : g.takesOver
          ? "takes over: "
          : g.op === "delete" && g.isDefault && g.resets === "unknown"
            ? "removed, resetOnDelete secret: "
            : g.op === "delete" && !g.isDefault
              ? "deleted: "
              : "";
      r.items.push(`${guardrailLabel(g.name, g.isDefault)} (${how}${some(fields, 8)})`);
      if (g.isDefault) r.uncounted.add(`everyone of its workspace without an assignment`);
      const unlisted: string[] = [];
      for (const kind of ["members", "keys"] as const) {
        const h = g.sets[kind].holders;
        // A deleted guardrail's set lists nobody afterwards: anyone on it the stack does not list is released.
        if (g.op === "delete" && !g.isDefault) unlisted.push(kind);
        else if (Array.isArray(h)) for (const id of h) r.ids[kind].add(id);
        else if (h === "secret") r.uncounted.add(`a secret ${kind} list`);
        else if (!g.isDefault && g.op !== "create") unlisted.push(kind);
      }
      if (unlisted.length) r.uncounted.add(`any ${unlisted.join(" and ")} on ${label(g)} this preview does not list`);
    }
    // A replaced guardrail's old one is deleted with its assignments: anyone on it the stack does not list loses these.
    const lost = [...new Set((g.released ?? []).filter((j) => j.direction === d).map((j) => j.field))];
    // A replaced default's old workspace is reset (resetOnDelete): everyone of it without an assignment loses these.
    if (lost.length && g.isDefault) {
      r.items.push(`${guardrailLabel(g.name, true)} (old workspace reset: ${some(lost, 8)})`);
      r.uncounted.add("everyone of its old workspace without an assignment");
    } else if (lost.length) {
      r.items.push(`${guardrailLabel(g.name, g.isDefault)} (replaced: ${some(lost, 8)})`);
      r.uncounted.add(`any members and keys on ${label(g)} this preview does not list`);
    }
    for (const kind of ["members", "keys"] as const) moves(g.sets[kind], kind, d, r, label(g));
  }
  return r;
}

/** Ids of one set whose verdict is `d`, grouped by where they come from and go. */
function moves(s: SetChanges, kind: "members" | "keys", d: Direction, r: Reach, place: string): void {
  const groups = new Map<string, string[]>();
  const add = (where: string, id: string) => {
    if (s.verdicts.get(id)?.direction !== d) return;
    const ids = groups.get(where) ?? [];
    if (!groups.has(where)) groups.set(where, ids);
    ids.push(id);
  };
  for (const id of s.added) add(`join ${place}`, id);
  for (const [id] of s.restored) add(`return to ${place}`, id);
  for (const [id, from] of [...s.movedIn, ...s.taken]) add(`move from ${from} to ${place}`, id);
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
    all.reduce(
      (n, g) =>
        n + (g.op === "create" && !g.succeeds && !g.takesOver ? 0 : g.judged.filter((j) => j.direction === d).length),
      0,
    );
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
