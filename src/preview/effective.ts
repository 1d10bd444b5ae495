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
  type PlannedSubject,
  plannedAccess,
  type Subject,
  subjectKey,
  widenings,
} from "../core/access";
import { aliasesOf, plannedSide, type Side, unassigned } from "./effective-sides";
import type { PreviewStep } from "./input";
import { guardrailsOf } from "./steps";
import { isOpaque } from "./values";

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
