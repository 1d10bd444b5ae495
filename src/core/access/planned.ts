/**
 * Effective access as a stack plans it (issue 41): the facts of every member and key that a set
 * of planned resources names, built from the resources alone (their type and props), with every
 * layer that cannot be known at preview named. The PR summary (src/preview/effective.ts) and the
 * policy pack's `effectiveAccess` rule (src/policy/effective-rule.ts) both read their resources
 * into `PlannedResource`s and come here; neither has a second copy. docs/effective-access.md,
 * "At preview", says what is read and what stays unknown.
 */
import { POLICY_KINDS, type PolicyKind } from "../fields/policy-kinds";
import { containsUnknown } from "../markers";
import { layersOf, setsKind } from "./layers";
import { readWorkspaces, type Workspace } from "./planned-read";
import { type PlannedOptions, type PlannedResource, type PlannedSubject, subjectKey } from "./planned-types";
import type { AccessFacts, GuardrailFacts, Subject, WorkspaceWideFacts } from "./types";

export { type PlannedOptions, type PlannedResource, type PlannedSubject, subjectKey } from "./planned-types";

/** What a stack plans: each named subject per workspace, and what no subject of any workspace can know. */
export interface Planned {
  subjects: PlannedSubject[];
  /** Per workspace id: its default guardrail as planned (null when the stack holds none), and what leaves everyone there unknown. */
  workspaces: Map<string, { workspaceDefault: GuardrailFacts | null; unknown: string[] }>;
}

const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);
/** A workspace as a line names it: its id, or, where no resource names one, the organization's default workspace. */
const wsName = (id: string) => (id === "" ? "the default workspace" : quote(id));
const KIND_WORDS: Record<PolicyKind, string> = {
  budget: "budget",
  modelAvailability: "model availability",
  moderation: "moderation",
};

/** Every id a workspace's layers name, as subjects. */
function namedIn(ws: Workspace): Subject[] {
  const members = new Set(ws.holders.member.keys());
  const keys = new Set(ws.holders.key.keys());
  for (const p of ws.policies) {
    for (const m of [...p.memberIds, ...p.optedOutMemberIds]) members.add(m);
    for (const k of [...p.keyHashes, ...p.optedOutKeyHashes]) keys.add(k);
  }
  return [
    ...[...members].sort().map((member) => ({ member })),
    ...[...keys].sort().map((key) => ({ key, ownerMember: null })),
  ];
}

/** One subject's facts in one workspace, and what of them cannot be known. */
function subjectFacts(
  ws: Workspace,
  subject: Subject,
  wide: WorkspaceWideFacts[],
  options: PlannedOptions,
): PlannedSubject {
  const unknown: string[] = [];
  const own = (kind: "member" | "key", id: string, who: string) => {
    const on = ws.holders[kind].get(id);
    if (ws.contested.has(`${kind}:${id}`))
      unknown.push(`${who} guardrail: on two sets, which holds it is not known at preview`);
    if (on) return ws.guardrails.get(on) ?? null;
    if (!options.unassigned?.has(`${kind}:${id}`))
      unknown.push(
        `${who} guardrail, if any: no set of this stack assigns it (a guardrail outside the stack may hold it)`,
      );
    return null;
  };
  let facts: AccessFacts;
  const base = {
    workspaceId: ws.id,
    policies: ws.policies,
    workspaceWide: wide,
    workspaceDefault: null,
    ...(options.modelAliases ? { modelAliases: options.modelAliases } : {}),
  };
  if ("member" in subject) {
    facts = { ...base, subject, memberGuardrail: own("member", subject.member, "its own"), keyGuardrail: null };
  } else {
    const owners = options.keyOwners ?? {};
    const owner = Object.hasOwn(owners, subject.key) ? owners[subject.key] : undefined;
    if (owner === undefined)
      unknown.push(
        "its owner's layers: the key's owner is not named (keyOwners), and only the owner's can restrict it further",
      );
    facts = {
      ...base,
      subject: { key: subject.key, ownerMember: owner ?? null },
      keyGuardrail: own("key", subject.key, "its own"),
      memberGuardrail: owner === undefined ? null : own("member", owner, "its owner's"),
    };
  }
  facts = { ...facts, workspaceDefault: defaultOf(ws, facts, unknown) };
  unknown.push(...unmanagedDefaults(ws, facts), ...ws.unknown);
  for (const l of layersOf(facts)) unknown.push(...(ws.layerUnknown.get(l.ref.id) ?? []));
  return { facts, unknown: [...new Set(unknown)] };
}

/** Who, of a subject's facts, holds no guardrail of its own: the workspace default guardrail applies (rules L1, L3). */
const takesDefault = (f: AccessFacts) =>
  "member" in f.subject ? f.memberGuardrail === null : f.keyGuardrail === null || f.memberGuardrail === null;

/** The workspace default guardrail as planned; unknown when the stack holds none (or several) and it applies. */
function defaultOf(ws: Workspace, facts: AccessFacts, unknown: string[]): GuardrailFacts | null {
  if (ws.defaults.length === 1) return ws.defaults[0] as GuardrailFacts;
  if (takesDefault(facts))
    unknown.push(
      ws.defaults.length === 0
        ? `the workspace default guardrail of ${wsName(ws.id)}: not managed by this stack`
        : `the workspace default guardrail of ${wsName(ws.id)}: several in this stack`,
    );
  return null;
}

/** Each kind whose workspace default policy the stack does not manage, while the subject would take it (L5, L6). */
function unmanagedDefaults(ws: Workspace, facts: AccessFacts): string[] {
  const who: Array<{ kind: "member" | "key"; id: string; own: GuardrailFacts | null }> =
    "member" in facts.subject
      ? [{ kind: "member", id: facts.subject.member, own: facts.memberGuardrail }]
      : [
          { kind: "key", id: facts.subject.key, own: facts.keyGuardrail },
          ...(facts.subject.ownerMember === null
            ? []
            : [{ kind: "member" as const, id: facts.subject.ownerMember, own: facts.memberGuardrail }]),
        ];
  return POLICY_KINDS.filter((kind) => {
    const ofKind = ws.policies.filter((p) => p.kind === kind);
    if (ofKind.some((p) => p.isWorkspaceDefault)) return false;
    return who.some(
      (w) =>
        !(w.own && setsKind(w.own.settings, kind)) &&
        !ofKind.some((p) => (w.kind === "member" ? p.memberIds : p.keyHashes).includes(w.id)),
    );
  }).map((k) => `the workspace default ${KIND_WORDS[k]} policy of ${wsName(ws.id)}: not managed by this stack`);
}

/**
 * The planned facts of every member and key the resources name (and of `also`, in every
 * workspace of the resources), per workspace, with what cannot be known at preview. Pure.
 */
export function plannedAccess(
  resources: readonly PlannedResource[],
  options: PlannedOptions & { also?: ReadonlyArray<{ subject: Subject; workspaceId: string }> } = {},
): Planned {
  const opaque = options.opaque ?? containsUnknown;
  const also = options.also ?? [];
  const { spaces, wide, everywhere } = readWorkspaces(
    resources,
    opaque,
    also.map((a) => a.workspaceId),
  );
  const out: Planned = { subjects: [], workspaces: new Map() };
  for (const ws of spaces.values()) {
    ws.unknown.push(...everywhere);
    const named = namedIn(ws);
    const seen = new Set(named.map(subjectKey));
    for (const a of also)
      if (a.workspaceId === ws.id && !seen.has(subjectKey(a.subject))) {
        seen.add(subjectKey(a.subject));
        named.push(a.subject);
      }
    for (const s of named) out.subjects.push(subjectFacts(ws, s, wide, options));
    out.workspaces.set(ws.id, {
      workspaceDefault: ws.defaults.length === 1 ? (ws.defaults[0] as GuardrailFacts) : null,
      unknown: [...ws.unknown],
    });
  }
  return out;
}
