/**
 * Markdown for a pull-request comment from `pulumi preview --json`: a one-line total, then
 * replacements and deletions, then one section per guardrail with each changed setting as
 * old -> new and the members and keys added, removed or moved. Secrets are never printed,
 * every user-supplied string is neutralised (markdown.ts), and a failed or malformed preview
 * is a "preview failed" summary, never "no changes".
 */
import { FOREIGN, parseMovesFrom, parseOnGuardrail } from "../core/assignments/status";
import { UNKNOWN } from "../core/unknown";
import { COMPARED } from "../core/guardrail/model";
import { readPreview, type PreviewStep } from "./input";
import { cell, code, text } from "../core/text/markdown";

/** A status without the short id the provider adds after a name (ids vary; the name tells the reviewer). */
const shortStatus = (status: string) => {
  const on = parseOnGuardrail(status);
  return on?.name ? `on guardrail ${on.name}` : status;
};

/** The parts of `pulumi preview --json` the summary reads. */
export type { PreviewJson, PreviewStep } from "./input";

/** A summary, and whether it describes a preview that failed (the CLI then exits non-zero). */
export interface Summary {
  markdown: string;
  failed: boolean;
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SETTINGS = ["workspaceId", ...COMPARED, "adoptId"] as const;
/** Ids listed per kind of change; the rest are counted (a PR comment has a size limit, and the totals line counts all). */
const LISTED_MAX = 50;
/** This package's resource types, exactly: another package's `x:index:Guardrail` is not ours. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/guardrails:";
const SET_KINDS = { GuardrailMemberAssignment: "members", GuardrailKeyAssignment: "keys" } as const;

/** The resource's own type token (after any parent types, `a$b$type`), if it is one of ours. */
const typeOf = (urn: string) => {
  const token = urn.split("::")[2]?.split("$").pop() ?? "";
  return token.startsWith(TYPE_PREFIX) ? token.slice(TYPE_PREFIX.length) : "";
};
const nameOf = (urn: string) => urn.split("::").pop() ?? urn;
const changed = (op: string) => op !== "same" && op !== "read" && op !== "refresh";

function isSecret(v: unknown): boolean {
  return v === "[secret]" || (typeof v === "object" && v !== null && SECRET_SIG in v);
}

/** A value as a reviewer reads it (not yet neutralised: `cell` does that): secrets masked, lists comma-separated. */
function show(v: unknown): string {
  if (isSecret(v)) return "[secret]";
  if (v === undefined || v === null) return "(not set)";
  if (v === UNKNOWN) return "(known after apply)";
  if (Array.isArray(v)) return v.length === 0 ? "(empty)" : v.map((x) => (typeof x === "object" ? compact(x) : String(x))).join(", ");
  if (typeof v === "object") return compact(v);
  return String(v);
}
function compact(v: unknown): string {
  if (isSecret(v)) return "[secret]";
  if (v && typeof v === "object" && !Array.isArray(v)) return `{${Object.entries(v).map(([k, x]) => `${k}: ${isSecret(x) ? "[secret]" : typeof x === "object" ? compact(x) : String(x)}`).join(", ")}}`;
  return String(v);
}
/** Equal as a reviewer would judge: lists of strings compare as sets. */
function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === "string") ? [...new Set(v)].sort() : v ?? null);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

interface GuardrailChange {
  logical: string;
  name: string;
  op: string;
  settings: Array<{ key: string; before: string; after: string }>;
  sets: Record<"members" | "keys", SetChanges>;
}

interface SetChanges {
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

/** The Markdown summary of a preview (a "preview failed" summary when it is one). */
export function summarizePreview(preview: unknown): string {
  return summarize(preview).markdown;
}

/** The summary, with `failed` set for a preview with error diagnostics or input that is not a preview. */
export function summarize(preview: unknown): Summary {
  const input = readPreview(preview);
  if (!input.ok) {
    const errors = input.errors.map((e) => `- ${code(e, 300)}`);
    return { failed: true, markdown: [`**Guardrails: preview failed.** ${input.reason}; nothing here says what would change.`, ...(errors.length ? [errors.join("\n")] : [])].join("\n\n") + "\n" };
  }
  return { failed: false, markdown: summarizeSteps(input.steps) };
}

function summarizeSteps(steps: PreviewStep[]): string {
  const guardrails = new Map<string, GuardrailChange>();
  const byId = new Map<string, string>();
  const emptySets = (): GuardrailChange["sets"] => ({ members: emptySet(), keys: emptySet() });

  for (const s of steps.filter((s) => typeOf(s.urn) === "Guardrail")) {
    const logical = nameOf(s.urn);
    const name = show(s.newState?.inputs?.name ?? s.oldState?.inputs?.name ?? s.oldState?.outputs?.name ?? logical);
    for (const id of [s.oldState?.id, s.newState?.id]) if (typeof id === "string" && id) byId.set(id, logical);
    // `preview --refresh` adds refresh steps beside the real ones; those never win.
    if (!changed(s.op) && guardrails.has(logical)) continue;
    const g: GuardrailChange = { logical, name, op: changed(s.op) ? s.op : "same", settings: [], sets: emptySets() };
    if (s.op === "update" || s.op === "replace" || s.op === "create") {
      for (const key of SETTINGS) {
        const before = s.op === "create" ? undefined : s.oldState?.inputs?.[key];
        const after = s.newState?.inputs?.[key];
        if (!same(before, after)) g.settings.push({ key, before: show(before), after: show(after) });
      }
    }
    guardrails.set(logical, g);
  }

  // Sets: what each adds and removes, then pair removals and additions of one id into moves.
  const removedFrom = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const addedTo = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const owners: Array<{ owner: GuardrailChange; kind: "members" | "keys"; added: string[]; removed: string[]; moves: Record<string, unknown> }> = [];
  for (const s of steps) {
    const kind = SET_KINDS[typeOf(s.urn) as keyof typeof SET_KINDS];
    if (!kind || !changed(s.op)) continue;
    const gid = s.newState?.inputs?.guardrailId ?? s.oldState?.inputs?.guardrailId;
    const logical = (typeof gid === "string" && byId.get(gid)) || nameOf(s.urn).replace(/-(members|keys)$/, "");
    const owner = guardrails.get(logical) ?? { logical, name: logical, op: "same", settings: [], sets: emptySets() };
    guardrails.set(logical, owner);
    const rawBefore = s.oldState?.outputs?.[kind];
    const rawAfter = s.op === "delete" ? {} : s.newState?.inputs?.[kind];
    if (isSecret(rawBefore) || isSecret(rawAfter)) {
      owner.sets[kind].secret = true;
      continue;
    }
    const before = asMap(rawBefore);
    const after = asMap(rawAfter);
    const here = (v: unknown) => v === true || v === FOREIGN;
    const added = Object.keys(after).filter((id) => after[id] === true && !here(before[id]) && !(typeof before[id] === "string"));
    const removed = Object.keys(before).filter((id) => here(before[id]) && after[id] !== true);
    for (const id of Object.keys(after)) if (after[id] === true && typeof before[id] === "string" && before[id] !== FOREIGN) owner.sets[kind].restored.push([id, before[id] as string]);
    for (const id of added) addedTo[kind].set(id, logical);
    for (const id of removed) removedFrom[kind].set(id, logical);
    owners.push({ owner, kind, added, removed, moves: s.op === "delete" ? {} : asMap(s.newState?.inputs?.moves) });
  }
  for (const { owner, kind, added, removed, moves } of owners) {
    for (const id of added) {
      const from = removedFrom[kind].get(id);
      const taken = typeof moves[id] === "string" ? parseMovesFrom(moves[id] as string) : undefined;
      if (from && from !== owner.logical) owner.sets[kind].movedIn.push([id, guardrails.get(from)?.name ?? from]);
      else if (taken) owner.sets[kind].taken.push([id, taken.name ?? taken.id]);
      else owner.sets[kind].added.push(id);
    }
    for (const id of removed) {
      const to = addedTo[kind].get(id);
      if (to && to !== owner.logical) owner.sets[kind].movedOut.push([id, guardrails.get(to)?.name ?? to]);
      else owner.sets[kind].removed.push(id);
    }
  }

  const all = [...guardrails.values()].filter((g) => changed(g.op) || Object.values(g.sets).some(setChanged));
  if (all.length === 0) return "**Guardrails: no changes.**\n";
  return [totalLine(all), ...callouts(all), ...all.sort((a, b) => a.name.localeCompare(b.name)).map(section)].join("\n\n") + "\n";
}

function totalLine(all: GuardrailChange[]): string {
  const count = (op: string) => all.filter((g) => g.op === op).length;
  const ops = ["create", "update", "replace", "delete"].map((op) => [op, count(op)] as const).filter(([, n]) => n > 0);
  const verb: Record<string, string> = { create: "created", update: "updated", replace: "replaced", delete: "deleted" };
  const setTotals = (kind: "members" | "keys") => {
    const sum = (f: (s: GuardrailChange["sets"]["members"]) => number) => all.reduce((n, g) => n + f(g.sets[kind]), 0);
    const parts = [[sum((s) => s.added.length + s.restored.length), "added"], [sum((s) => s.removed.length), "removed"], [sum((s) => s.movedIn.length + s.taken.length), "moved"], [sum((s) => (s.secret ? 1 : 0)), "secret list(s) changed"]] as const;
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
      : `- **${text(g.name)}** (${code(g.logical)}) is **replaced** (a new guardrail, then the old one deleted): ${g.settings.filter((s) => s.key === "workspaceId").map((s) => `workspaceId ${code(s.before)} → ${code(s.after)}`).join("") || "a setting that forces replacement changed"}.`,
  );
  return [`### Replacements and deletions\n\n${lines.join("\n")}`];
}

function section(g: GuardrailChange): string {
  const what: Record<string, string> = { create: "new", update: "update", replace: "replace", delete: "delete", same: "assignments only" };
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
    const ids = (xs: string[]) => xs.sort().slice(0, LISTED_MAX).map((x) => code(x)).join(", ") + more(xs.length);
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

const emptySet = (): SetChanges => ({ added: [], removed: [], restored: [], movedIn: [], movedOut: [], taken: [], secret: false });
const setChanged = (s: SetChanges) => s.secret || s.added.length + s.removed.length + s.restored.length + s.movedIn.length + s.movedOut.length + s.taken.length > 0;
const asMap = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
