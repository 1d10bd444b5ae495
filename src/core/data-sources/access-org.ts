/**
 * What the effective-access readers (issue 41) share: a workspace's layers as read from the
 * service (`OrgRead`), and the `AccessFacts` of one member or key computed from them in memory
 * (`factsOf`). `readAccessFacts` (access-facts.ts) fills an `OrgRead` for one subject;
 * `readOrgAccess` (access-org-read.ts) fills it for every subject at once, for `who`. Neither
 * reads anything here but the workspace, its default and the workspace-wide policies.
 */
import type { AccessFacts, GuardrailFacts, LayerSettings, PolicyFacts, WorkspaceWideFacts } from "../access";
import type { GuardrailsClient } from "../client/client";
import { PermissionError } from "../client/errors";
import { type Holders, ledByOwnWrite } from "../client/org-assignments";
import type { PolicyClient } from "../client/policies";
import type { WireGuardrail, WireWorkspace } from "../client/wire";
import { FIELD_NAMES, type FieldName, spec } from "../fields/fields";
import { POLICY_FIELDS, type PolicyKind } from "../fields/policy-kinds";
import { shown } from "../args/messages";
import { UserError } from "../user-error";

/** Whose facts: a member, or a key and (when the caller knows it) the member who owns it. */
export type AccessSubject = { memberId: string } | { keyHash: string; ownerMemberId?: string | undefined };

/** The facts, and whether a key's owner was known (always true for a member). */
export interface AccessFactsRead {
  facts: AccessFacts;
  ownerKnown: boolean;
}

/** A workspace policy with its assignments as sets, so one subject's part is found without a scan. */
export interface PolicyRead {
  id: string;
  name: string | null;
  kind: PolicyKind;
  settings: LayerSettings;
  isWorkspaceDefault: boolean;
  isLegacyMapped: boolean;
  legacyGuardrailIds: string[];
  memberIds: ReadonlySet<string>;
  keyHashes: ReadonlySet<string>;
  optedOutMemberIds: ReadonlySet<string>;
  optedOutKeyHashes: ReadonlySet<string>;
}

/** One workspace's layers, read once; every subject's facts come from it with no further call. */
export interface OrgRead {
  workspaceId: string;
  workspaceDefault: GuardrailFacts | null;
  /** The workspace's guardrails by lower-case id. */
  guardrails: ReadonlyMap<string, GuardrailFacts>;
  /** The org-wide assignment listings (each id's guardrails, any workspace); absent when not read. */
  memberHolders?: Holders | undefined;
  keyHolders?: Holders | undefined;
  policies: readonly PolicyRead[];
  workspaceWide: readonly WorkspaceWideFacts[];
}

/** A wire record's settings in the program's names (the field table's `fromWire`), unset ones left out. */
export function layerSettings(bag: object | null | undefined, names: readonly FieldName[]): LayerSettings {
  const w = (bag ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of names) {
    const v = w[spec(k).wire];
    if (v !== undefined && v !== null) out[k] = spec(k).fromWire(v as never);
  }
  return out as LayerSettings;
}

export const guardrailFacts = (g: WireGuardrail): GuardrailFacts => ({
  id: g.id.toLowerCase(),
  name: g.name,
  settings: layerSettings(g, FIELD_NAMES),
});

export const policySettings = (kind: PolicyKind, config: object | null | undefined) =>
  layerSettings(config, POLICY_FIELDS[kind] as readonly FieldName[]);

export async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

/** The workspace: as named, or the organization's only one; a workspace that is not there says so. */
export async function workspaceOf(client: GuardrailsClient, ref: string | undefined): Promise<string> {
  if (ref !== undefined) return ref;
  const all = await collect(client.listWorkspaces());
  if (all.length === 1) return all[0]!.id;
  throw new UserError(
    `effective access: workspaceId is required when the organization has more than one workspace (it has ${all.length}); the management API does not say which one is the default, and getWorkspaces lists them`,
  );
}

/** The workspace record and its default guardrail (null: never written). */
export async function defaultOf(client: GuardrailsClient, ref: string) {
  const read = await client.readWorkspaceDefault(ref);
  if (read.state === "gone")
    throw new UserError(
      `effective access: workspaceId: no workspace has id or slug ${JSON.stringify(ref)} (the service answered 404); getWorkspaces lists them`,
    );
  return { workspace: read.workspace as WireWorkspace, dflt: read.state === "configured" ? read.guardrail : null };
}

/** The workspace's guardrails by lower-case id (every page). */
export async function guardrailsOf(client: GuardrailsClient, ws: string): Promise<Map<string, GuardrailFacts>> {
  const gs = await collect(client.listGuardrails({ workspaceId: ws }));
  return new Map(gs.map((g) => [g.id.toLowerCase(), guardrailFacts(g)]));
}

/** The workspace-wide policies of a kind this package knows (another kind cannot be combined). */
export async function workspaceWide(pc: PolicyClient): Promise<WorkspaceWideFacts[]> {
  const out: WorkspaceWideFacts[] = [];
  try {
    for await (const p of pc.listWorkspaceWidePolicies())
      if (p.kind)
        out.push({
          id: p.id.toLowerCase(),
          name: p.name,
          kind: p.kind,
          settings: policySettings(p.kind, p.config),
          workspaceIds: (p.workspace_ids ?? []).map((w) => w.toLowerCase()),
          optedOutWorkspaceIds: (p.opted_out_workspace_ids ?? []).map((w) => w.toLowerCase()),
          isDefault: p.is_default === true,
        });
  } catch (err) {
    if (err instanceof PermissionError)
      throw new UserError(
        "effective access: the service refused the list of workspace-wide policies (403); a workspace-scoped key cannot read them, and without them effective access cannot be known",
        { cause: err },
      );
    throw err;
  }
  return out;
}

/**
 * The subject's guardrail in this workspace, from the org-wide listing. The contract allows a
 * member one guardrail per workspace (rule 5) and a key one at all (rule 6): a listing that
 * shows more is refused, naming the guardrails (never the subject, which may be secret), as
 * which one the service enforces cannot be known; but not a member this process moved within
 * the workspace, whose old row stays behind the new one in the view (org-assignments.ts).
 */
function heldHere(
  org: OrgRead,
  holders: Holders | undefined,
  id: string,
  what: "member" | "key",
): GuardrailFacts | null {
  const all = [...new Set((holders?.get(id) ?? []).map((g) => g.toLowerCase()))];
  // This process assigned the member to all[0]: the service moved it off this workspace's others (rule 5).
  const own = what === "member" && holders && ledByOwnWrite(holders, id) ? all[0] : undefined;
  const here = own !== undefined && org.guardrails.has(own) ? [own] : all.filter((g) => org.guardrails.has(g));
  const held = what === "key" ? all : here;
  if (held.length > 1)
    throw new UserError(
      `effective access: the service lists the ${what} on ${held.length} guardrails${what === "member" ? " of this workspace" : ""} (${held.map((g) => shown(g)).join(", ")}), where the contract allows one (rule ${what === "member" ? 5 : 6}): which applies cannot be known`,
    );
  return here.length === 1 ? org.guardrails.get(here[0]!)! : null;
}

/** A policy as the facts of these subjects name it: its assignment lists cut to them. */
function policyFacts(p: PolicyRead, member: string | null, key: string | null): PolicyFacts {
  const only = (set: ReadonlySet<string>, id: string | null) => (id !== null && set.has(id) ? [id] : []);
  return {
    id: p.id,
    name: p.name,
    kind: p.kind,
    settings: p.settings,
    memberIds: only(p.memberIds, member),
    keyHashes: only(p.keyHashes, key),
    isWorkspaceDefault: p.isWorkspaceDefault,
    optedOutMemberIds: p.isWorkspaceDefault ? only(p.optedOutMemberIds, member) : [],
    optedOutKeyHashes: p.isWorkspaceDefault ? only(p.optedOutKeyHashes, key) : [],
    isLegacyMapped: p.isLegacyMapped,
    legacyGuardrailIds: p.legacyGuardrailIds,
  };
}

/**
 * The facts of one member or key from what was read, with no call. Without a key's owner its
 * layers leave the owner's out and may claim more access than the service grants (`ownerKnown`).
 */
export function factsOf(org: OrgRead, subject: AccessSubject): AccessFactsRead {
  const key = "keyHash" in subject ? subject.keyHash : null;
  const owner = "keyHash" in subject ? (subject.ownerMemberId ?? null) : subject.memberId;
  const facts: AccessFacts = {
    subject: key !== null ? { key, ownerMember: owner } : { member: owner! },
    workspaceId: org.workspaceId,
    workspaceDefault: org.workspaceDefault,
    memberGuardrail: owner === null ? null : heldHere(org, org.memberHolders, owner, "member"),
    keyGuardrail: key === null ? null : heldHere(org, org.keyHolders, key, "key"),
    policies: org.policies.map((p) => policyFacts(p, owner, key)),
    workspaceWide: org.workspaceWide,
  };
  return { facts, ownerKnown: key === null || owner !== null };
}
