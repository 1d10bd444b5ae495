/**
 * The Markdown of a preview summary (summary.ts reads the preview into changes): the opening
 * line (what loosens, for whom), the totals line, the call-outs for replacements and
 * deletions, then one section per guardrail with every change marked. Every user-supplied
 * string goes through the one neutraliser (core/text/markdown.ts).
 */
import { parseOnGuardrail } from "../core/assignments/status";
import type { Judged } from "../core/fields/loosening";
import { code, text } from "../core/text/markdown";
import { nameCode } from "../core/text/names";
import { changeText, gainText, guardrailLabel, MARK, settingText, some } from "./marks";
import { DIRECTIONS, worst, type GuardrailChange, type SetChanges, type Verdict } from "./model";
import { openingLine } from "./opening";
import { show } from "./values";

export type { GuardrailChange, SetChanges } from "./model";

/** Ids listed per kind of change, and changes per guardrail; the rest are counted (a PR comment has a size limit). */
const LISTED_MAX = 50;
/** A status as Markdown, without the short id the provider adds after a name (ids vary; the name tells the reviewer). */
const shortStatus = (status: string) => {
  const on = parseOnGuardrail(status);
  return on?.name ? `on guardrail ${nameCode(on.name, 60)}` : text(status);
};
const labelOf = (g: GuardrailChange) => guardrailLabel(g.name, g.isDefault, 120);

/** The summary of the guardrails a preview changes (at least one): its opening line, the rest, and whether anything loosens. */
export function renderChanges(all: GuardrailChange[]): { opening: string; body: string; loosens: boolean } {
  const sorted = all.sort((a, b) => a.name.localeCompare(b.name) || a.logical.localeCompare(b.logical));
  const { line, loosens } = openingLine(sorted);
  return {
    opening: line,
    loosens,
    body: [totalLine(sorted), ...callouts(sorted), ...sorted.map(section)].join("\n\n") + "\n",
  };
}

function totalLine(all: GuardrailChange[]): string {
  const count = (op: string) => all.filter((g) => g.op === op).length;
  const ops = ["create", "update", "replace", "delete", "import"]
    .map((op) => [op, count(op)] as const)
    .filter(([, n]) => n > 0);
  const verb: Record<string, string> = {
    create: "created",
    update: "updated",
    replace: "replaced",
    delete: "deleted",
    import: "imported",
  };
  const setTotals = (kind: "members" | "keys") => {
    const sum = (f: (s: SetChanges) => number) => all.reduce((n, g) => n + f(g.sets[kind]), 0);
    const parts = [
      [sum((s) => s.added.length + s.restored.length), "added"],
      [sum((s) => s.removed.length), "removed"],
      [sum((s) => s.movedIn.length + s.taken.length), "moved"],
      [sum((s) => (s.secret ? 1 : 0)), "secret list(s) changed"],
    ] as const;
    const shown = parts.filter(([n]) => n > 0).map(([n, w]) => `${n} ${w}`);
    return `${kind}: ${shown.length ? shown.join(", ") : "no change"}`;
  };
  const guardrailPart = ops.length ? ops.map(([op, n]) => `${n} ${verb[op]}`).join(", ") : "no setting changes";
  return `**Guardrails: ${guardrailPart} · ${setTotals("members")} · ${setTotals("keys")}**`;
}

function callouts(all: GuardrailChange[]): string[] {
  const risky = all.filter((g) => g.op === "replace" || g.op === "delete" || (g.op === "create" && g.takesOver));
  if (risky.length === 0) return [];
  const successor = (g: GuardrailChange) => all.find((o) => o.succeeds === g.logical);
  const lines = risky.map((g) =>
    g.takesOver
      ? `- ${labelOf(g)} (${code(g.logical)}) ${takenOver(g)}.`
      : g.op === "delete" && g.isDefault
        ? `- ${labelOf(g)} (${code(g.logical)}) leaves the stack: ${g.resets === "unknown" ? RESET_MAYBE : g.judged.length ? "**every setting is reset to no restriction** (resetOnDelete)" : "its settings stay in force on the service"}.`
        : g.op === "delete"
          ? `- ${labelOf(g)} (${code(g.logical)}) is **deleted**, with its member and key assignments${deletedHow(g, successor(g))}.`
          : `- ${labelOf(g)} (${code(g.logical)}) is **replaced** (a new guardrail, then the old one deleted): ${replacedBy(g)}${g.releases ? `; ${RELEASES}, falling back to ${g.releases}` : ""}.`,
  );
  return [`### Replacements and deletions\n\n${lines.join("\n")}`];
}

const RELEASES = "**anyone on it this stack does not list loses its settings**";
const RESET_MAYBE = "**every setting may be reset to no restriction** (resetOnDelete is secret)";
const TAKES_OVER =
  "every setting is written over that workspace's current default, which this preview does not show (what the program leaves out is cleared to no restriction)";

/** A default this preview creates or moves to another workspace: what it overwrites, and what becomes of the old workspace's. */
function takenOver(g: GuardrailChange): string {
  if (g.op === "create") return `is **taken over**: ${TAKES_OVER}`;
  const ws = g.other.find((s) => s.key === "workspaceId");
  const moved = ws ? `, workspaceId ${code(show(ws.before))} → ${code(show(ws.after))}` : "";
  const old =
    g.resets === "unknown"
      ? `at the old workspace ${RESET_MAYBE.replace("every setting", "every setting of the old workspace's default")}`
      : g.resets
        ? "**every setting of the old workspace's default is reset to no restriction** (resetOnDelete)"
        : "the old workspace's default keeps its settings";
  return `is **replaced**${moved}: it takes the new workspace's default over, and ${TAKES_OVER}; ${old}`;
}

/** What a deletion does to those on the guardrail: who succeeds it, and what anyone the stack does not list falls back to. */
function deletedHow(g: GuardrailChange, next: GuardrailChange | undefined): string {
  const by = next ? `; succeeded by ${code(next.logical)} (compared setting by setting there)` : "";
  if (g.releases) return `${by}; ${RELEASES}, falling back to ${g.releases}`;
  return next ? `${by}; every member and key on it moves there (exclusive sets)` : "";
}

/** What forces a replacement: the workspace moving, or another setting. */
function replacedBy(g: GuardrailChange): string {
  const ws = g.other.find((s) => s.key === "workspaceId");
  return ws
    ? `workspaceId ${code(show(ws.before))} → ${code(show(ws.after))}`
    : "a setting that forces replacement changed";
}

const WHAT: Record<string, string> = {
  create: "new",
  update: "update",
  replace: "replace",
  delete: "delete",
  same: "assignments only",
  import: "imported (adopted as it is on the service; nothing changes there)",
};

const TAKEN_OVER = {
  create: "takes over the workspace's default (its current settings are not in this preview)",
  replace: "replace: takes over the new workspace's default (its current settings are not in this preview)",
};

/** Worst first. */
const byWorst = (js: Judged[]) =>
  [...js].sort((a, b) => DIRECTIONS.indexOf(a.direction) - DIRECTIONS.indexOf(b.direction));

function section(g: GuardrailChange): string {
  const settings = g.op === "delete" && !g.isDefault && !g.releases ? [] : g.judged;
  const lost = g.released ?? [];
  const fresh = g.op === "create" && !g.succeeds && !g.takesOver;
  const all = [...settings, ...lost];
  const direction = fresh ? undefined : all.length ? worst(all.map((j) => j.direction)) : undefined;
  const what = g.succeeds
    ? `new, succeeds ${code(g.succeeds)}`
    : g.takesOver
      ? TAKEN_OVER[g.op === "create" ? "create" : "replace"]
      : (WHAT[g.op] ?? text(g.op));
  const where = g.outside ? "not in this preview" : code(g.logical);
  const head = `### ${labelOf(g)} (${where}): ${what}${direction ? ` · ${MARK[direction]}` : ""}`;
  const out = [head];
  if (g.isDefault) out.push("Holds every member and key of its workspace that has no assignment.");
  if (g.succeeds) out.push(`Compared setting by setting with ${code(g.succeeds)}, which this preview deletes:`);
  if (g.op === "delete" && g.releases)
    out.push(`Anyone on it that this stack does not list falls back to ${g.releases}:`);
  const rows = [
    ...g.other.map((o) => `- ${MARK.neutral} · ${o.key}: ${code(show(o.before))} → ${code(show(o.after))}`),
    ...byWorst(settings).map((j) => (fresh ? `- ${settingText(j)}` : `- ${MARK[j.direction]} · ${changeText(j)}`)),
  ];
  if (rows.length)
    out.push(
      rows.slice(0, LISTED_MAX).join("\n") +
        (rows.length > LISTED_MAX ? `\n- … and ${rows.length - LISTED_MAX} more change(s)` : ""),
    );
  if (lost.length)
    out.push(
      `${g.isDefault ? "Everyone of the old workspace without an assignment loses, as its default is reset to" : "Anyone on it that this stack does not list is dropped with the old guardrail and falls back to"} ${g.releases}:\n\n${byWorst(
        lost,
      )
        .map((j) => `- ${MARK[j.direction]} · ${changeText(j)}`)
        .join("\n")}`,
    );
  for (const kind of ["members", "keys"] as const) {
    const lines = setLines(g.sets[kind]);
    if (lines.length) out.push(`${kind === "members" ? "Members" : "Keys"}:\n${lines.join("\n")}`);
  }
  return out.join("\n\n");
}

/** A verdict after an id: ` · 🔓 **loosens**: limitUsd raised, …` (nothing for a move that changes nothing). */
export function verdictText(v: Verdict | undefined): string {
  if (!v) return "";
  // Elements of one list that change alike are counted: `allowedModels 2 added`.
  const alike = new Map<string, number>();
  for (const j of v.gains)
    if (j.element !== undefined) alike.set(`${j.field} ${j.what}`, (alike.get(`${j.field} ${j.what}`) ?? 0) + 1);
  const gains = [
    ...new Set(
      v.gains.map((j) =>
        j.element !== undefined && (alike.get(`${j.field} ${j.what}`) ?? 0) > 1
          ? `${j.field} ${alike.get(`${j.field} ${j.what}`)} ${j.what}`
          : gainText(j),
      ),
    ),
  ];
  const why = [gains.length ? some(gains, 12) : "", v.note ?? ""].filter(Boolean).join("; ");
  return ` · ${MARK[v.direction]}${why ? `: ${why}` : ""}`;
}

function setLines(s: SetChanges): string[] {
  const lines: string[] = [];
  const each = <T>(xs: T[], line: (x: T) => string) => {
    for (const x of xs.sort().slice(0, LISTED_MAX)) lines.push(line(x));
    if (xs.length > LISTED_MAX) lines.push(`- … and ${xs.length - LISTED_MAX} more`);
  };
  // Ids added or removed with one verdict share a line.
  const grouped = (label: string, ids: string[]) => {
    const groups = new Map<string, string[]>();
    for (const id of ids.sort()) {
      const v = verdictText(s.verdicts.get(id));
      const group = groups.get(v);
      if (group) group.push(id);
      else groups.set(v, [id]);
    }
    for (const [v, xs] of groups)
      lines.push(
        `- ${label}: ${some(
          xs.map((x) => code(x)),
          LISTED_MAX,
        )}${v}`,
      );
  };
  grouped("added", s.added);
  each(s.taken, ([id, from]) => `- added: ${code(id)} (moves from ${from})${verdictText(s.verdicts.get(id))}`);
  if (s.secret) lines.push(`- changed (the list is secret: its contents are not shown) · ${MARK.unknown}`);
  each(
    s.restored,
    ([id, why]) => `- put back: ${code(id)} (was ${shortStatus(why)})${verdictText(s.verdicts.get(id))}`,
  );
  each(s.movedIn, ([id, from]) => `- moved here from ${from}: ${code(id)}${verdictText(s.verdicts.get(id))}`);
  grouped("removed", s.removed);
  each(s.movedOut, ([id, to]) => `- moved to ${to}: ${code(id)}${verdictText(s.verdicts.get(id))}`);
  return lines;
}
