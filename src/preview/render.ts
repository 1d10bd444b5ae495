/**
 * The Markdown of a preview summary (summary.ts reads the preview into changes): the totals
 * line, the call-outs for replacements and deletions, then one section per guardrail. Every
 * user-supplied string goes through the one neutraliser (core/text/markdown.ts).
 */
import { parseOnGuardrail } from "../core/assignments/status";
import { cell, code, text } from "../core/text/markdown";

/** One guardrail's changes: its settings as old -> new, and what its member and key sets do. */
export interface GuardrailChange {
  logical: string;
  name: string;
  op: string;
  settings: Array<{ key: string; before: string; after: string }>;
  sets: Record<"members" | "keys", SetChanges>;
}

/** What a preview does to one guardrail's member or key set. */
export interface SetChanges {
  added: string[];
  removed: string[];
  restored: Array<[string, string]>;
  movedIn: Array<[string, string]>;
  movedOut: Array<[string, string]>;
  /** Added ids the provider found on a guardrail outside this preview (its `moves` input), with that guardrail's name. */
  taken: Array<[string, string]>;
  /** The list is secret and its resource changes: shown as changed, never its contents. */
  secret: boolean;
}

/** Ids listed per kind of change; the rest are counted (a PR comment has a size limit, and the totals line counts all). */
const LISTED_MAX = 50;
/** A status without the short id the provider adds after a name (ids vary; the name tells the reviewer). */
const shortStatus = (status: string) => {
  const on = parseOnGuardrail(status);
  return on?.name ? `on guardrail ${on.name}` : status;
};

/** The summary of the guardrails a preview changes (at least one). */
export function renderChanges(all: GuardrailChange[]): string {
  return (
    [totalLine(all), ...callouts(all), ...all.sort((a, b) => a.name.localeCompare(b.name)).map(section)].join("\n\n") +
    "\n"
  );
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
    const sum = (f: (s: GuardrailChange["sets"]["members"]) => number) => all.reduce((n, g) => n + f(g.sets[kind]), 0);
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
  const risky = all.filter((g) => g.op === "replace" || g.op === "delete");
  if (risky.length === 0) return [];
  const lines = risky.map((g) =>
    g.op === "delete"
      ? `- **${text(g.name)}** (${code(g.logical)}) is **deleted**, with its member and key assignments.`
      : `- **${text(g.name)}** (${code(g.logical)}) is **replaced** (a new guardrail, then the old one deleted): ${
          g.settings
            .filter((s) => s.key === "workspaceId")
            .map((s) => `workspaceId ${code(s.before)} → ${code(s.after)}`)
            .join("") || "a setting that forces replacement changed"
        }.`,
  );
  return [`### Replacements and deletions\n\n${lines.join("\n")}`];
}

function section(g: GuardrailChange): string {
  const what: Record<string, string> = {
    create: "new",
    update: "update",
    replace: "replace",
    delete: "delete",
    same: "assignments only",
    import: "imported (adopted as it is on the service; nothing changes there)",
  };
  const out = [`### ${text(g.name)} (${code(g.logical)}): ${what[g.op] ?? text(g.op)}`];
  if (g.settings.length > 0 && g.op !== "delete") {
    const rows = ["| setting | before | after |", "|---|---|---|"];
    for (const s of g.settings) rows.push(`| ${s.key} | ${cell(s.before)} | ${cell(s.after)} |`);
    out.push(rows.join("\n"));
  }
  for (const kind of ["members", "keys"] as const) {
    const s = g.sets[kind];
    const lines: string[] = [];
    const more = (n: number) => (n > LISTED_MAX ? `, … and ${n - LISTED_MAX} more` : "");
    const ids = (xs: string[]) =>
      xs
        .sort()
        .slice(0, LISTED_MAX)
        .map((x) => code(x))
        .join(", ") + more(xs.length);
    const each = <T>(xs: T[], line: (x: T) => string) => {
      for (const x of xs.sort().slice(0, LISTED_MAX)) lines.push(line(x));
      if (xs.length > LISTED_MAX) lines.push(`- … and ${xs.length - LISTED_MAX} more`);
    };
    if (s.added.length) lines.push(`- added: ${ids(s.added)}`);
    each(s.taken, ([id, from]) => `- added: ${code(id)} (moves from ${text(from)})`);
    if (s.secret) lines.push("- changed (the list is secret: its contents are not shown)");
    each(s.restored, ([id, why]) => `- put back: ${code(id)} (was ${text(shortStatus(why))})`);
    each(s.movedIn, ([id, from]) => `- moved here from ${text(from)}: ${code(id)}`);
    if (s.removed.length) lines.push(`- removed: ${ids(s.removed)}`);
    each(s.movedOut, ([id, to]) => `- moved to ${text(to)}: ${code(id)}`);
    if (lines.length) out.push(`${kind === "members" ? "Members" : "Keys"}:\n${lines.join("\n")}`);
  }
  return out.join("\n\n");
}
