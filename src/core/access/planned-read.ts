/**
 * Planned resources read into the layers of each workspace (planned.ts builds each subject's facts
 * from them): guardrails, workspace defaults, who each guardrail holds, policies, workspace-wide
 * policies, and what of each cannot be read at preview (a value not known until apply, a secret).
 */
import { POLICY_FIELDS, POLICY_KINDS, type PolicyKind, WW_POLICY_TYPES } from "../fields/policy-kinds";
import { KINDS, type ResourceTypeName } from "../kinds";
import type { PlannedResource } from "./planned-types";
import type { GuardrailFacts, LayerSettings, PolicyFacts, WorkspaceWideFacts } from "./types";

type Props = Readonly<Record<string, unknown>>;
type Opaque = (v: unknown) => boolean;
const GUARDRAIL_FIELDS = POLICY_KINDS.flatMap((k) => POLICY_FIELDS[k] as readonly string[]);
/** What each kind is to effective access: a guardrail, a workspace's default one, a set, a workspace or workspace-wide policy. */
const ROLE: Record<ResourceTypeName, "settings" | "default-settings" | "ids" | "policy" | "wide"> = {
  Guardrail: "settings",
  WorkspaceDefaultGuardrail: "default-settings",
  GuardrailMemberAssignment: "ids",
  GuardrailKeyAssignment: "ids",
  BudgetPolicy: "policy",
  ModelAccessPolicy: "policy",
  ModerationPolicy: "policy",
  WorkspaceWidePolicy: "wide",
};
/** A workspace policy's kind, from its row of the kind table. */
const policyKindOf = (t: ResourceTypeName) => (KINDS[t] as { policy?: { fields: PolicyKind } }).policy?.fields;
const quote = (s: string) => JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);

/** A layer's settings from props (the fields given), and the fields that cannot be read. */
function settingsOf(props: Props, fields: readonly string[], opaque: Opaque) {
  const settings: Record<string, unknown> = {};
  const hidden: string[] = [];
  for (const f of fields) {
    const v = props[f];
    if (v === undefined || v === null) continue;
    if (opaque(v)) hidden.push(f);
    else settings[f] = v;
  }
  return { settings: settings as LayerSettings, hidden };
}

/** An id list: its ids, or "opaque" when it (or any id of it) cannot be read. A map `{id: true}` (the dynamic face's) counts too. */
function idsOf(v: unknown, opaque: Opaque): string[] | "opaque" {
  if (v === undefined || v === null) return [];
  if (opaque(v)) return "opaque";
  if (Array.isArray(v)) return v.some(opaque) ? "opaque" : v.filter((x): x is string => typeof x === "string");
  if (typeof v === "object")
    return Object.entries(v as Props)
      .filter(([, x]) => x === true)
      .map(([k]) => k);
  return [];
}

/** The stack's layers of one workspace, read once. */
export interface Workspace {
  id: string;
  defaults: GuardrailFacts[];
  guardrails: Map<string, GuardrailFacts>;
  /** Guardrail key -> its member and key ids. */
  holders: { member: Map<string, string>; key: Map<string, string> };
  /** Ids (`member:<id>`, `key:<hash>`) that sets on two guardrails list: which holds them after apply is not known. */
  contested: Set<string>;
  policies: PolicyFacts[];
  /** What leaves everyone of the workspace unknown (a list nobody can read: anyone may be on it). */
  unknown: string[];
  /** Per layer (its key): what of it cannot be read; it counts for the subjects it applies to. */
  layerUnknown: Map<string, string[]>;
}

/**
 * The workspace a resource is in: its `workspaceId`. One without (the organization's default
 * workspace, which the API does not name) is taken to be in the only workspace the resources
 * name, and says so as a layer not known at preview; with several, it stands apart ("").
 */
function workspaceReader(resources: readonly PlannedResource[], opaque: Opaque) {
  const named = new Set(
    resources
      .map((r) => r.props.workspaceId)
      .filter((w): w is string => typeof w === "string" && w !== "" && !opaque(w)),
  );
  const sole = named.size === 1 ? [...named][0]! : "";
  return (r: PlannedResource, ws: (id: string) => Workspace): Workspace => {
    const w = r.props.workspaceId;
    if (w !== undefined && w !== null && opaque(w)) return ws("(not known at preview)");
    if (typeof w === "string" && w !== "") return ws(w);
    const space = ws(sole);
    // With no workspace named anywhere, every resource is in the one default workspace: nothing to say.
    if (sole !== "")
      space.layerUnknown.set(r.key, [
        `a layer states no workspaceId: taken to be in ${quote(sole)}, the only workspace this stack names (the API does not say which workspace is the organization's default)`,
      ]);
    return space;
  };
}

function guardrailFacts(r: PlannedResource, opaque: Opaque, ws: Workspace): GuardrailFacts {
  const { settings, hidden } = settingsOf(r.props, GUARDRAIL_FIELDS, opaque);
  const label = ROLE[r.type] === "default-settings" ? "workspace default guardrail" : "guardrail";
  if (hidden.length)
    ws.layerUnknown.set(r.key, [`${label} ${quote(r.name)}: ${hidden.join(", ")} not known at preview`]);
  return { id: r.key, name: r.name, settings };
}

function policyFacts(r: PlannedResource, kind: PolicyKind, opaque: Opaque, ws: Workspace): PolicyFacts {
  const unknown = ws.unknown;
  const { settings, hidden } = settingsOf(r.props, POLICY_FIELDS[kind] as readonly string[], opaque);
  const what = `policy ${quote(r.name)}`;
  if (hidden.length)
    ws.layerUnknown.set(r.key, [
      ...(ws.layerUnknown.get(r.key) ?? []),
      `${what}: ${hidden.join(", ")} not known at preview`,
    ]);
  const list = (arg: string) => {
    const ids = idsOf(r.props[arg], opaque);
    if (ids !== "opaque") return ids;
    unknown.push(`${what}: ${arg} is secret or not known at preview (anyone may be on it)`);
    return [];
  };
  const isDefault = r.props.workspaceDefault;
  if (isDefault !== undefined && opaque(isDefault))
    unknown.push(`${what}: workspaceDefault not known at preview (it may hold everyone)`);
  return {
    id: r.key,
    name: r.name,
    kind,
    settings,
    memberIds: list("memberUserIds"),
    keyHashes: list("keyHashes"),
    isWorkspaceDefault: isDefault === true || (isDefault !== undefined && opaque(isDefault)),
    optedOutMemberIds: list("optedOutMemberUserIds"),
    optedOutKeyHashes: list("optedOutKeyHashes"),
  };
}

function wideFacts(r: PlannedResource, opaque: Opaque, unknown: string[]): WorkspaceWideFacts | undefined {
  const type = r.props.policyType;
  const kind =
    typeof type === "string" && Object.hasOwn(WW_POLICY_TYPES, type) ? WW_POLICY_TYPES[type as "budget"] : null;
  const what = `workspace-wide policy ${quote(r.name)}`;
  if (kind === null) {
    unknown.push(`${what}: its policyType is not known at preview`);
    return undefined;
  }
  const { settings, hidden } = settingsOf(r.props, POLICY_FIELDS[kind] as readonly string[], opaque);
  if (hidden.length) unknown.push(`${what}: ${hidden.join(", ")} not known at preview`);
  const list = (arg: string) => {
    const ids = idsOf(r.props[arg], opaque);
    if (ids === "opaque") unknown.push(`${what}: ${arg} is secret or not known at preview`);
    return ids === "opaque" ? [] : ids;
  };
  if (opaque(r.props.allWorkspaces)) unknown.push(`${what}: allWorkspaces not known at preview`);
  return {
    id: r.key,
    name: r.name,
    kind,
    settings,
    workspaceIds: list("workspaceIds"),
    optedOutWorkspaceIds: list("optedOutWorkspaceIds"),
    isDefault: r.props.allWorkspaces === true,
  };
}

/** Reads every resource into its workspace; sets go under their guardrail's workspace. */
export function readWorkspaces(resources: readonly PlannedResource[], opaque: Opaque, extra: readonly string[] = []) {
  const spaces = new Map<string, Workspace>();
  const space = (id: string) => {
    const ws: Workspace = spaces.get(id) ?? {
      id,
      defaults: [],
      guardrails: new Map(),
      holders: { member: new Map(), key: new Map() },
      contested: new Set(),
      policies: [],
      unknown: [],
      layerUnknown: new Map(),
    };
    spaces.set(id, ws);
    return ws;
  };
  const wide: WorkspaceWideFacts[] = [];
  const everywhere: string[] = [];
  const guardrailSpace = new Map<string, Workspace>();
  const workspaceOf = workspaceReader(resources, opaque);
  for (const id of extra) space(id);
  for (const r of resources) {
    const role = ROLE[r.type];
    if (role === "settings" || role === "default-settings") {
      const ws = workspaceOf(r, space);
      const g = guardrailFacts(r, opaque, ws);
      if (role === "settings") ws.guardrails.set(r.key, g);
      else ws.defaults.push(g);
      guardrailSpace.set(r.key, ws);
    } else if (role === "policy") {
      const ws = workspaceOf(r, space);
      ws.policies.push(policyFacts(r, policyKindOf(r.type) as PolicyKind, opaque, ws));
    } else if (role === "wide") {
      const w = wideFacts(r, opaque, everywhere);
      if (w) wide.push(w);
    }
  }
  for (const r of resources) {
    const row = KINDS[r.type] as { set?: { noun: string; argName: string; stateKey: string } };
    if (!row.set) continue;
    const noun = row.set.noun as "member" | "key";
    const ws = r.target ? guardrailSpace.get(r.target) : undefined;
    const ids = idsOf(r.props[row.set.argName] ?? r.props[row.set.stateKey], opaque);
    if (!ws || !r.target || !ws.guardrails.has(r.target)) {
      everywhere.push(`${noun} set ${quote(r.name)}: which guardrail it assigns is not known at preview`);
      continue;
    }
    if (ids === "opaque")
      ws.unknown.push(`${noun} set ${quote(r.name)}: its list is secret or not known at preview (anyone may be on it)`);
    else
      for (const id of ids) {
        const was = ws.holders[noun].get(id);
        if (was !== undefined && was !== r.target) ws.contested.add(`${noun}:${id}`);
        ws.holders[noun].set(id, r.target);
      }
  }
  return { spaces, wide, everywhere };
}
