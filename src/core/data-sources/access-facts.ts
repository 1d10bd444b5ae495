/**
 * The fact reader of effective access (issue 41): the `AccessFacts` of one member or API key in
 * one workspace, read from the service, for `effectiveAccess` (src/core/access) to combine.
 *
 * Calls, for a workspace given by id or slug (P: one call per 100 rows of a list, every page):
 * - `GET /workspaces/{id}`, then `GET /guardrails/{default_guardrail_id}` (404: never written);
 * - then at once: `GET /guardrails?workspace_id` (P), the org-wide member listing when a member
 *   is asked or a key's owner is given, the org-wide key listing for a key (each walked once per
 *   lookup, and shared by every later lookup of the process: client/org-assignments.ts), the
 *   three kinds' policy lists (P each), one per-subject assignment `GET` per kind and subject
 *   (rule 25: 3 for a member, 3 or 6 for a key without or with its owner) and the workspace-wide
 *   list (P).
 * A member: 11 calls at one page each; a key with its owner: 15. Workspace omitted: one
 * `GET /workspaces` more. No call is made per member of a guardrail or per policy.
 *
 * The management API does not relate a key to the member who owns it (docs/api-contract.md,
 * "The enforcement answer"), so the owner is the caller's to give; without it the key's layers
 * leave its owner's out and may claim more access than the service grants (`ownerKnown: false`).
 */
import type { AccessFacts, GuardrailFacts, LayerSettings, PolicyFacts, WorkspaceWideFacts } from "../access";
import type { GuardrailsClient } from "../client/client";
import { NotFoundError, PermissionError } from "../client/errors";
import { orgHolders } from "../client/org-assignments";
import { PolicyClient, type PolicySubject } from "../client/policies";
import type { WireGuardrail, WireWorkspace } from "../client/wire";
import type { Connection } from "../connection";
import { FIELD_NAMES, type FieldName, spec } from "../fields/fields";
import { POLICY_FIELDS, POLICY_KINDS, type PolicyKind } from "../fields/policy-kinds";
import { UserError } from "../user-error";

/** Whose facts: a member, or a key and (when the caller knows it) the member who owns it. */
export type AccessSubject = { memberId: string } | { keyHash: string; ownerMemberId?: string | undefined };

/** The facts, and whether a key's owner was known (always true for a member). */
export interface AccessFactsRead {
  facts: AccessFacts;
  ownerKnown: boolean;
}

type Who = { kind: "member" | "key"; id: string };

/** A wire record's settings in the program's names (the field table's `fromWire`), unset ones left out. */
function layerSettings(bag: object | null | undefined, names: readonly FieldName[]): LayerSettings {
  const w = (bag ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of names) {
    const v = w[spec(k).wire];
    if (v !== undefined && v !== null) out[k] = spec(k).fromWire(v as never);
  }
  return out as LayerSettings;
}

const guardrailFacts = (g: WireGuardrail): GuardrailFacts => ({
  id: g.id.toLowerCase(),
  name: g.name,
  settings: layerSettings(g, FIELD_NAMES),
});

async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of rows) out.push(r);
  return out;
}

/** The workspace: as named, or the organization's only one; a workspace that is not there says so. */
async function workspaceOf(client: GuardrailsClient, ref: string | undefined): Promise<string> {
  if (ref !== undefined) return ref;
  const all = await collect(client.listWorkspaces());
  if (all.length === 1) return all[0]!.id;
  throw new UserError(
    `effective access: workspaceId is required when the organization has more than one workspace (it has ${all.length}); the management API does not say which one is the default, and getWorkspaces lists them`,
  );
}

async function defaultOf(client: GuardrailsClient, ref: string) {
  const read = await client.readWorkspaceDefault(ref);
  if (read.state === "gone")
    throw new UserError(
      `effective access: workspaceId: no workspace has id or slug ${JSON.stringify(ref)} (the service answered 404); getWorkspaces lists them`,
    );
  return { workspace: read.workspace as WireWorkspace, dflt: read.state === "configured" ? read.guardrail : null };
}

/** The subject's guardrail in this workspace: the first it holds (org-wide) that the workspace lists. */
async function heldHere(client: GuardrailsClient, who: Who, here: Promise<Map<string, GuardrailFacts>>) {
  const [holders, guardrails] = await Promise.all([
    orgHolders(client, who.kind === "member" ? "members" : "keys"),
    here,
  ]);
  const held = (holders.get(who.id) ?? []).map((g) => guardrails.get(g.toLowerCase())).find((g) => g !== undefined);
  return held ?? null;
}

const missing = (who: Who, ws: string) => (err: unknown) => {
  // No `cause`: the 404's message holds the URL, and so the member id or key hash.
  if (err instanceof NotFoundError)
    throw new UserError(
      `effective access: the service knows no such ${who.kind === "member" ? "memberId" : "keyHash"} in workspace ${ws} (it answered 404; the id is not shown, a program may hold it secret)`,
    );
  throw err;
};

/**
 * One kind's policies as facts, from its list (settings, default, legacy mapping) and each
 * subject's assignment (rule 25): a subject is listed on the policies it holds directly, and on
 * the opt-out list of the kind's default when it opted out. No policy's detail is read.
 */
async function policiesOfKind(pc: PolicyClient, kind: PolicyKind, ws: string, whos: Who[]): Promise<PolicyFacts[]> {
  const subject = (w: Who): PolicySubject => (w.kind === "member" ? { memberId: w.id } : { keyHash: w.id });
  const [rows, states] = await Promise.all([
    collect(pc.listPolicies(kind, ws)),
    Promise.all(whos.map((w) => pc.getAssignment(subject(w), kind, ws).catch(missing(w, ws)))),
  ]);
  const has = (ids: readonly string[], id: string) => ids.some((x) => x.toLowerCase() === id);
  return rows.map((p) => {
    const id = p.id.toLowerCase();
    const isDefault = p.is_workspace_default === true || states.some((s) => has(s.workspace_default_policy_ids, id));
    const on = (kindOf: Who["kind"], pick: (s: (typeof states)[number]) => boolean) =>
      whos.filter((w, i) => w.kind === kindOf && pick(states[i]!)).map((w) => w.id);
    const direct = (s: (typeof states)[number]) => has(s.policy_ids, id);
    const optedOut = (s: (typeof states)[number]) => isDefault && s.opted_out;
    return {
      id,
      name: p.name,
      kind,
      settings: layerSettings(p.config, POLICY_FIELDS[kind] as readonly FieldName[]),
      memberIds: on("member", direct),
      keyHashes: on("key", direct),
      isWorkspaceDefault: isDefault,
      optedOutMemberIds: on("member", optedOut),
      optedOutKeyHashes: on("key", optedOut),
      isLegacyMapped: p.is_legacy_mapped === true,
      legacyGuardrailIds: (p.legacy_guardrail_ids ?? []).map((g) => g.toLowerCase()),
    };
  });
}

/** The workspace-wide policies of a kind this package knows (another kind cannot be combined). */
async function workspaceWide(pc: PolicyClient): Promise<WorkspaceWideFacts[]> {
  const out: WorkspaceWideFacts[] = [];
  try {
    for await (const p of pc.listWorkspaceWidePolicies())
      if (p.kind)
        out.push({
          id: p.id.toLowerCase(),
          name: p.name,
          kind: p.kind,
          settings: layerSettings(p.config, POLICY_FIELDS[p.kind] as readonly FieldName[]),
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

/** The facts of one member or key in one workspace (the default one when the organization has one only). */
export async function readAccessFacts(
  conn: Connection,
  subject: AccessSubject,
  workspaceId?: string,
): Promise<AccessFactsRead> {
  const client = conn.client();
  const { workspace, dflt } = await defaultOf(client, await workspaceOf(client, workspaceId));
  const ws = workspace.id.toLowerCase();
  const owner = "keyHash" in subject ? (subject.ownerMemberId ?? null) : subject.memberId;
  const key: Who | null = "keyHash" in subject ? { kind: "key", id: subject.keyHash } : null;
  const member: Who | null = owner === null ? null : { kind: "member", id: owner };
  const whos = [key, member].filter((w): w is Who => w !== null);
  const pc = new PolicyClient(client);
  const guardrails = collect(client.listGuardrails({ workspaceId: ws })).then(
    (gs) => new Map(gs.map((g) => [g.id.toLowerCase(), guardrailFacts(g)])),
  );
  const [memberGuardrail, keyGuardrail, policies, wide] = await Promise.all([
    member ? heldHere(client, member, guardrails) : null,
    key ? heldHere(client, key, guardrails) : null,
    Promise.all(POLICY_KINDS.map((kind) => policiesOfKind(pc, kind, ws, whos))),
    workspaceWide(pc),
  ]);
  const facts: AccessFacts = {
    subject: key ? { key: key.id, ownerMember: owner } : { member: owner! },
    workspaceId: ws,
    workspaceDefault: dflt ? guardrailFacts(dflt) : null,
    memberGuardrail,
    keyGuardrail,
    policies: policies.flat(),
    workspaceWide: wide,
  };
  return { facts, ownerKnown: key === null || owner !== null };
}
