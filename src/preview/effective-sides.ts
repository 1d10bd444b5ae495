/**
 * The two sides of a preview as planned resources (core/access `PlannedResource`): as recorded
 * (old state) and as the program leaves it (new state), one step per resource, with what a set
 * holds and the guardrail it is on read as set-sides.ts reads them, never guessed.
 */
import type { PlannedResource } from "../core/access";
import { FOREIGN, isForeign } from "../core/assignments/status";
import { knownCanonical, MODEL_LISTS, type RecordedModels } from "../core/guardrail/model-lists";
import { isTypeName, KINDS, type ResourceTypeName } from "../core/kinds";
import type { PreviewStep } from "./input";
import { sideOf } from "./set-sides";
import { changed, type GuardrailOfPreview, nameOf, typeOf } from "./steps";
import { isOpaque, isSecret } from "./values";

export type Side = "before" | "after";

/** A set kind's names (kinds.ts), or undefined for any other kind. */
export const setRow = (t: ResourceTypeName) =>
  (KINDS[t] as { set?: { stateKey: string; argName: string; noun: string } }).set;

/** A set's ids as a list (the program's list, or the map's `true` entries); undefined when it cannot be read. */
export function idList(v: unknown): string[] | undefined {
  if (isOpaque(v)) return undefined;
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  if (v && typeof v === "object") return Object.keys(v).filter((k) => (v as Record<string, unknown>)[k] === true);
  return [];
}

/** A set's ids on one side: recorded holders before (its own and foreign ones), the program's after. */
export function setIds(s: PreviewStep, side: Side, t: ResourceTypeName): unknown {
  const row = setRow(t)!;
  if (side === "after") return s.newState?.inputs?.[row.stateKey] ?? s.newState?.inputs?.[row.argName];
  const raw =
    s.oldState?.outputs?.[row.stateKey] ?? s.oldState?.outputs?.[row.argName] ?? s.oldState?.inputs?.[row.argName];
  if (isSecret(raw) || Array.isArray(raw) || !raw || typeof raw !== "object") return raw;
  return Object.entries(raw as Record<string, unknown>)
    .filter(([, v]) => v === true || isForeign(v) || v === FOREIGN)
    .map(([id]) => id);
}

/** The planned resources of one side of the preview. */
export function plannedSide(
  steps: PreviewStep[],
  side: Side,
  guardrails: Map<string, GuardrailOfPreview>,
  byId: Map<string, string>,
) {
  const out: PlannedResource[] = [];
  const reals = real(steps);
  // A layer is named by its logical name (the summary prints it), by its URN when two share one.
  const counts = new Map<string, number>();
  for (const s of reals) counts.set(nameOf(s.urn), (counts.get(nameOf(s.urn)) ?? 0) + 1);
  const unique = (urn: string) => (counts.get(nameOf(urn)) === 1 ? nameOf(urn) : urn);
  for (const s of reals) {
    const t = typeOf(s.urn);
    if (!isTypeName(t)) continue;
    // An import adopts the resource as it is on the service: the same on both sides.
    const adopted = s.op === "import";
    if (side === "before" && !adopted && (s.op === "create" || !s.oldState)) continue;
    if (side === "after" && s.op === "delete") continue;
    const st = (side === "before" && !adopted) || !s.newState ? s.oldState : s.newState;
    const props = { ...(st?.inputs ?? {}) };
    // A value secret on either side is secret on both: every copy of a secret is one (never read nor named).
    for (const other of [s.oldState?.inputs, s.newState?.inputs])
      for (const [k, v] of Object.entries(other ?? {})) if (holdsSecret(v)) props[k] = "[secret]";
    const logical = nameOf(s.urn);
    const g = guardrails.get(logical);
    if (KINDS[t].settings && g) {
      props.workspaceId = g.workspace ?? props.workspaceId;
      out.push({ type: t, key: logical, name: g.name, props });
    } else if (setRow(t)) {
      // A list secret on either side is secret on both: every copy of a secret is one (its ids are never named).
      const hidden = [setIds(s, "before", t), setIds(s, "after", t)].some((v) => idList(v) === undefined);
      props[setRow(t)!.argName] = hidden ? "[secret]" : setIds(s, adopted ? "after" : side, t);
      // The guardrail the set's id names, never a guess: a secret id, or several candidates, is none (set-sides.ts).
      const on = sideOf(st, byId, side);
      out.push({
        type: t,
        key: s.urn,
        name: logical,
        props,
        target: on !== undefined && guardrails.has(on) ? on : null,
      });
    } else {
      const ws = s.oldState?.outputs?.workspaceId;
      if (typeof ws === "string" && !props.workspaceId) props.workspaceId = ws;
      const name = typeof props.name === "string" ? props.name : props.name === undefined ? logical : "[secret]";
      out.push({ type: t, key: unique(s.urn), name, props });
    }
  }
  return out;
}

/** Whether a value is, or holds anywhere inside it, a secret. */
const holdsSecret = (v: unknown): boolean =>
  isSecret(v) || (!!v && typeof v === "object" && Object.values(v as object).some(holdsSecret));

/** One step per resource: `preview --refresh` adds refresh steps beside the real ones, which win (steps.ts does so too). */
function real(steps: PreviewStep[]): PreviewStep[] {
  const by = new Map<string, PreviewStep>();
  for (const s of steps) if (changed(s.op) || !by.has(s.urn) || !changed(by.get(s.urn)!.op)) by.set(s.urn, s);
  return [...by.values()];
}

/** Ids a set lists on one side only: on the other they hold no assignment, unless the provider found them elsewhere. */
export function unassigned(steps: PreviewStep[], side: Side): Set<string> {
  const out = new Set<string>();
  for (const s of steps) {
    const t = typeOf(s.urn);
    const row = isTypeName(t) ? setRow(t) : undefined;
    if (!row || !changed(s.op) || s.op === "import") continue;
    const [b, a] = [setIds(s, "before", t as ResourceTypeName), setIds(s, "after", t as ResourceTypeName)];
    const list = (v: unknown) => idList(v) ?? [];
    const [was, now] = [list(s.op === "create" ? undefined : b), list(s.op === "delete" ? undefined : a)];
    const moves = (s.newState?.inputs?.moves ?? {}) as Record<string, unknown>;
    const recorded = (s.oldState?.outputs?.[row.stateKey] ?? {}) as Record<string, unknown>;
    const noun = row.stateKey === "members" ? "member" : "key";
    const [from, to] = side === "before" ? [now, was] : [was, now];
    for (const id of from)
      if (!to.includes(id) && (side === "after" || (moves[id] === undefined && typeof recorded[id] !== "string")))
        out.add(`${noun}:${id}`);
  }
  return out;
}

/** The model identifiers the recorded guardrails were answered for, with their canonical slugs (model-lists.ts). */
export function aliasesOf(guardrails: Map<string, GuardrailOfPreview>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of guardrails.values()) {
    const rec = g.before?.outputs;
    if (!rec || isOpaque(rec.args) || !rec.args) continue;
    for (const list of MODEL_LISTS)
      for (const [id, slug] of knownCanonical(rec as unknown as RecordedModels, list))
        if (!isOpaque(slug)) out[id] = slug;
  }
  return out;
}
