/**
 * Effective access in the PR summary (issue 41): each side of the preview (as recorded, as the
 * program leaves it) read into planned resources, each member and key the stack names judged by
 * what every layer together leaves it before and after (core/access `plannedAccess`,
 * `effectiveAccess`, `widenings`). A layer that cannot be known at preview is named, never
 * guessed: a change whose layers cannot all be known stays flagged (effective-render.ts).
 */
import {
  type EffectiveAccess,
  effectiveAccess,
  type LayerRef,
  type PlannedResource,
  type PlannedSubject,
  plannedAccess,
  type Subject,
  subjectKey,
  widenings,
} from "../core/access";
import { FOREIGN, isForeign } from "../core/assignments/status";
import { knownCanonical, MODEL_LISTS, type RecordedModels } from "../core/guardrail/model-lists";
import { isTypeName, KINDS, type ResourceTypeName } from "../core/kinds";
import type { PreviewStep } from "./input";
import { sideOf } from "./set-sides";
import { changed, type GuardrailOfPreview, guardrailsOf, nameOf, typeOf } from "./steps";
import { isOpaque, isSecret } from "./values";

type Side = "before" | "after";

/** One member's or key's effective change in one workspace. */
export interface EffectiveChange {
  subject: Subject;
  workspaceId: string;
  /** Every way the after side grants more, and the before side did (one line each, from core/access). */
  gains: string[];
  losses: string[];
  /** The layers it leaves and joins, by name; `changed` those it keeps whose settings change. */
  left: LayerName[];
  joined: LayerName[];
  changed: LayerName[];
  /** What cannot be known at preview on either side, when it may change what the subject can use. */
  unknown: string[];
  /** Layers not in this stack, the same on both sides: they can only restrict further, so they may mask a gain. */
  stable: string[];
}

/** The workspace default guardrail's reach, when its settings change. */
export interface DefaultChange {
  name: string;
  workspaceId: string;
  gains: string[];
  losses: string[];
  /** The stack's subjects it reaches after the change, and those it does not (their own guardrail's name). */
  reaches: Subject[];
  spares: Array<[Subject, string]>;
}

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
function plannedSide(
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

/** One step per resource: `preview --refresh` adds refresh steps beside the real ones, which win (steps.ts does so too). */
function real(steps: PreviewStep[]): PreviewStep[] {
  const by = new Map<string, PreviewStep>();
  for (const s of steps) if (changed(s.op) || !by.has(s.urn) || !changed(by.get(s.urn)!.op)) by.set(s.urn, s);
  return [...by.values()];
}

/** Ids a set lists on one side only: on the other they hold no assignment, unless the provider found them elsewhere. */
function unassigned(steps: PreviewStep[], side: Side): Set<string> {
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
function aliasesOf(guardrails: Map<string, GuardrailOfPreview>): Record<string, string> {
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

/** A layer as the summary names it: its name, and whether it is a workspace's default guardrail (marks.ts labels it so). */
export interface LayerName {
  name: string;
  isDefault: boolean;
}
const names = (refs: LayerRef[]): LayerName[] =>
  refs.map((r) => ({ name: r.name ?? r.id, isDefault: r.kind === "workspace-default-guardrail" }));

/** The effective change of each subject either side names, and the workspace defaults' reach. */
export function effectiveChanges(steps: PreviewStep[], keyOwners: Readonly<Record<string, string>> = {}) {
  const { all: guardrails, byId } = guardrailsOf(steps);
  const modelAliases = aliasesOf(guardrails);
  const sides = {
    before: plannedSide(steps, "before", guardrails, byId),
    after: plannedSide(steps, "after", guardrails, byId),
  };
  const run = (side: Side, also: Array<{ subject: Subject; workspaceId: string }> = []) =>
    plannedAccess(sides[side], {
      opaque: isOpaque,
      keyOwners,
      unassigned: unassigned(steps, side),
      also,
      modelAliases,
    });
  const first = [run("before"), run("after")];
  const also = first.flatMap((p) =>
    p.subjects.map((s) => ({ subject: s.facts.subject, workspaceId: s.facts.workspaceId })),
  );
  const [before, after] = [run("before", also), run("after", also)];
  const at = (subjects: PlannedSubject[]) =>
    new Map(subjects.map((s) => [`${s.facts.workspaceId}\0${subjectKey(s.facts.subject)}`, s]));
  const was = at(before.subjects);
  const changes: EffectiveChange[] = [];
  const judged = new Set<string>();
  for (const [k, now] of at(after.subjects)) {
    const then = was.get(k);
    if (!then) continue;
    judged.add(subjectKey(now.facts.subject));
    const c = compare(then, now);
    if (c.gains.length + c.losses.length + c.left.length + c.joined.length + c.changed.length + c.unknown.length > 0)
      changes.push(c);
  }
  return { changes, judged, defaults: defaultChanges(before, after) };
}

function compare(then: PlannedSubject, now: PlannedSubject): EffectiveChange {
  const [b, a] = [effectiveAccess(then.facts), effectiveAccess(now.facts)];
  const ids = (x: EffectiveAccess) => new Set(x.layers.map((l) => l.id));
  const [bi, ai] = [ids(b), ids(a)];
  const settingsOf = (p: PlannedSubject, id: string) =>
    JSON.stringify(
      [
        p.facts.workspaceDefault,
        p.facts.memberGuardrail,
        p.facts.keyGuardrail,
        ...p.facts.policies,
        ...p.facts.workspaceWide,
      ].find((l) => l?.id === id)?.settings,
    );
  // Unknowns that may change what it can use: a value not readable on either side, or one the two sides do not share.
  const unreadable = (p: PlannedSubject) => p.unknown.filter((u) => /not known at preview|secret/.test(u));
  const shared = now.unknown.filter((u) => then.unknown.includes(u));
  const unknown = [
    ...new Set(
      [...then.unknown, ...now.unknown].filter((u) => !shared.includes(u)).concat(unreadable(then), unreadable(now)),
    ),
  ];
  return {
    subject: now.facts.subject,
    workspaceId: now.facts.workspaceId,
    gains: widenings(b, a),
    losses: widenings(a, b),
    left: names(b.layers.filter((l) => !ai.has(l.id))),
    joined: names(a.layers.filter((l) => !bi.has(l.id))),
    changed: names(a.layers.filter((l) => bi.has(l.id) && settingsOf(then, l.id) !== settingsOf(now, l.id))),
    unknown,
    stable: shared.filter((u) => !unknown.includes(u)),
  };
}

/** For each workspace default guardrail whose settings change: what it grants more or less, and which of the stack's subjects it reaches. */
function defaultChanges(
  before: ReturnType<typeof plannedAccess>,
  after: ReturnType<typeof plannedAccess>,
): DefaultChange[] {
  const out: DefaultChange[] = [];
  for (const [ws, now] of after.workspaces) {
    const then = before.workspaces.get(ws);
    if (!now.workspaceDefault || !then?.workspaceDefault) continue;
    if (JSON.stringify(now.workspaceDefault.settings) === JSON.stringify(then.workspaceDefault.settings)) continue;
    const alone = (g: NonNullable<typeof now.workspaceDefault>) =>
      effectiveAccess({
        subject: { member: "" },
        workspaceId: ws,
        workspaceDefault: g,
        memberGuardrail: null,
        keyGuardrail: null,
        policies: [],
        workspaceWide: [],
      });
    const [b, a] = [alone(then.workspaceDefault), alone(now.workspaceDefault)];
    const here = after.subjects.filter((s) => s.facts.workspaceId === ws);
    const own = (s: PlannedSubject) => ("member" in s.facts.subject ? s.facts.memberGuardrail : s.facts.keyGuardrail);
    const onDefault = (s: PlannedSubject) =>
      effectiveAccess(s.facts).layers.some((l) => l.kind === "workspace-default-guardrail");
    // A subject no set of the stack names may hold a guardrail outside it: not said to be reached.
    const unsure = (s: PlannedSubject) => s.unknown.some((u) => u.startsWith("its own guardrail, if any"));
    out.push({
      name: now.workspaceDefault.name ?? ws,
      workspaceId: ws,
      gains: widenings(b, a),
      losses: widenings(a, b),
      reaches: here.filter((s) => onDefault(s) && !unsure(s)).map((s) => s.facts.subject),
      spares: here
        .filter((s) => !onDefault(s) && own(s) !== null)
        .map((s) => [s.facts.subject, own(s)!.name ?? own(s)!.id]),
    });
  }
  return out;
}
