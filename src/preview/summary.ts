/**
 * Markdown for a pull-request comment from `pulumi preview --json`: a one-line total, then
 * replacements and deletions, then one section per guardrail with each changed setting as
 * old -> new and the members and keys added, removed or moved. Secrets are never printed,
 * every user-supplied string is neutralised (markdown.ts), and a failed or malformed preview
 * is a "preview failed" summary, never "no changes".
 */
import { FOREIGN, parseMovesFrom } from "../core/assignments/status";
import { UNKNOWN } from "../core/unknown";
import { COMPARED } from "../core/guardrail/model";
import { readPreview, type PreviewStep } from "./input";
import { code } from "../core/text/markdown";
import { resourceOfToken } from "../core/type-tokens";
import { renderChanges, type GuardrailChange, type SetChanges } from "./render";

/** The parts of `pulumi preview --json` the summary reads. */
export type { PreviewJson, PreviewStep } from "./input";

/** A summary, and whether it describes a preview that failed (the CLI then exits non-zero). */
export interface Summary {
  markdown: string;
  failed: boolean;
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SETTINGS = ["workspaceId", ...COMPARED, "adoptId"] as const;
const SET_KINDS = { GuardrailMemberAssignment: "members", GuardrailKeyAssignment: "keys" } as const;
/** The program's list of a set's ids: the native face's inputs hold it where the dynamic face's hold the map. */
const SET_ARGS = { members: "memberUserIds", keys: "keyHashes" } as const;

/**
 * The resource's type name (after any parent types, `a$b$type`), if the token is one of ours on
 * either face (`pulumi-nodejs:dynamic/guardrails:Guardrail`, `guardrails:index:Guardrail`).
 */
export const typeOf = (urn: string) => resourceOfToken(urn.split("::")[2]?.split("$").pop() ?? "")?.type ?? "";
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
  if (Array.isArray(v))
    return v.length === 0 ? "(empty)" : v.map((x) => (typeof x === "object" ? compact(x) : String(x))).join(", ");
  if (typeof v === "object") return compact(v);
  return String(v);
}
function compact(v: unknown): string {
  if (isSecret(v)) return "[secret]";
  if (v && typeof v === "object" && !Array.isArray(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${isSecret(x) ? "[secret]" : typeof x === "object" ? compact(x) : String(x)}`)
      .join(", ")}}`;
  return String(v);
}
/** Equal as a reviewer would judge: lists of strings compare as sets. */
function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) =>
    Array.isArray(v) && v.every((x) => typeof x === "string") ? [...new Set(v)].sort() : (v ?? null);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
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
    return {
      failed: true,
      markdown:
        [
          `**Guardrails: preview failed.** ${input.reason}; nothing here says what would change.`,
          ...(errors.length ? [errors.join("\n")] : []),
        ].join("\n\n") + "\n",
    };
  }
  return { failed: false, markdown: summarizeSteps(input.steps) };
}

function summarizeSteps(steps: PreviewStep[]): string {
  const guardrails = new Map<string, GuardrailChange>();
  const byId = new Map<string, string>();

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
  addSetChanges(steps, guardrails, byId);
  const all = [...guardrails.values()].filter((g) => changed(g.op) || Object.values(g.sets).some(setChanged));
  if (all.length === 0) return "**Guardrails: no changes.**\n";
  return renderChanges(all);
}

/** Sets: what each adds and removes, then pair removals and additions of one id into moves. */
function addSetChanges(
  steps: PreviewStep[],
  guardrails: Map<string, GuardrailChange>,
  byId: Map<string, string>,
): void {
  const removedFrom = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const addedTo = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const owners: Array<{
    owner: GuardrailChange;
    kind: "members" | "keys";
    added: string[];
    removed: string[];
    moves: Record<string, unknown>;
  }> = [];
  for (const s of steps) {
    const kind = SET_KINDS[typeOf(s.urn) as keyof typeof SET_KINDS];
    // An import adopts the set as it is on the service: nothing is added or removed there.
    if (!kind || !changed(s.op) || s.op === "import") continue;
    const gid = s.newState?.inputs?.guardrailId ?? s.oldState?.inputs?.guardrailId;
    const logical = (typeof gid === "string" && byId.get(gid)) || nameOf(s.urn).replace(/-(members|keys)$/, "");
    const owner = guardrails.get(logical) ?? { logical, name: logical, op: "same", settings: [], sets: emptySets() };
    guardrails.set(logical, owner);
    const rawBefore =
      s.oldState?.outputs?.[kind] ?? s.oldState?.outputs?.[SET_ARGS[kind]] ?? s.oldState?.inputs?.[SET_ARGS[kind]];
    const rawAfter = s.op === "delete" ? {} : (s.newState?.inputs?.[kind] ?? s.newState?.inputs?.[SET_ARGS[kind]]);
    if (secretIds(rawBefore) || secretIds(rawAfter)) {
      owner.sets[kind].secret = true;
      continue;
    }
    const before = asMap(rawBefore);
    const after = asMap(rawAfter);
    const here = (v: unknown) => v === true || v === FOREIGN;
    const added = Object.keys(after).filter(
      (id) => after[id] === true && !here(before[id]) && !(typeof before[id] === "string"),
    );
    const removed = Object.keys(before).filter((id) => here(before[id]) && after[id] !== true);
    for (const id of Object.keys(after))
      if (after[id] === true && typeof before[id] === "string" && before[id] !== FOREIGN)
        owner.sets[kind].restored.push([id, before[id] as string]);
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
}

const emptySet = (): SetChanges => ({
  added: [],
  removed: [],
  restored: [],
  movedIn: [],
  movedOut: [],
  taken: [],
  secret: false,
});
const emptySets = (): GuardrailChange["sets"] => ({ members: emptySet(), keys: emptySet() });
const setChanged = (s: SetChanges) =>
  s.secret ||
  s.added.length + s.removed.length + s.restored.length + s.movedIn.length + s.movedOut.length + s.taken.length > 0;
/** A set's ids as a map: the map itself (`{id: true | status}`), or the program's list as `{id: true}`. */
const asMap = (v: unknown): Record<string, unknown> => {
  if (Array.isArray(v)) return Object.fromEntries(v.filter((id) => typeof id === "string").map((id) => [id, true]));
  return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
};
/** A secret set, or a list with a secret id (the native face keeps each item's own mark). */
const secretIds = (v: unknown) => isSecret(v) || (Array.isArray(v) && v.some(isSecret));
