/**
 * The Guardrail Policies data sources (issue 40): `getPolicies` (a workspace's policies),
 * `getPolicy` (one, with its assignments) and `getSubjectPolicies` (what applies to one member or
 * API key). Plain functions over a client, through `PolicyClient` (docs/api-contract.md rules 22
 * to 30), answering in the program's names: the policy resources' output names, and the field
 * table's names for the settings. Calls at the minimum, said in docs/data-sources.md; a
 * workspace slug costs one more call (`GET /workspaces/{slug}`), an id none. A member id or key
 * hash is never quoted in a message: a program may hold it secret.
 */
import { shown } from "../args/messages";
import type { GuardrailsClient } from "../client/client";
import { NotFoundError, PermissionError } from "../client/errors";
import { PolicyClient, type PolicySubject } from "../client/policies";
import type { WireAssignmentState, WireWorkspaceWidePolicy } from "../client/policy-wire";
import { UUID_RE } from "../fields/constants";
import { spec } from "../fields/fields";
import { POLICY_FIELDS, POLICY_KINDS, POLICY_WIRE, type PolicyKind } from "../fields/policy-kinds";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import { type LookupArgs, POLICY_TYPE_WORDS, type PolicyTypeWord, typeWordOf } from "./args";
import { argsOf } from "./lookups";

import type {
  PolicySettingsInfo,
  PolicySummaryInfo,
  PoliciesFound,
  PolicyInfo,
  SubjectAssignmentInfo,
  WorkspaceWidePolicyInfo,
  SubjectPoliciesFound,
} from "./policy-info";

export type {
  PolicySettingsInfo,
  PolicySummaryInfo,
  PoliciesFound,
  PolicyInfo,
  SubjectAssignmentInfo,
  WorkspaceWidePolicyInfo,
  SubjectPoliciesFound,
} from "./policy-info";

const sorted = (xs: readonly string[] | null | undefined): string[] => [...new Set(xs ?? [])].sort();
const sortedOrNull = (xs: readonly string[] | null | undefined): string[] | null => (xs ? sorted(xs) : null);

/** A kind's `config` (as read) in the program's names: each field of the kind, null where unset. */
function settingsOf(kind: PolicyKind, config: object | null | undefined): PolicySettingsInfo {
  const bag = (config ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    POLICY_FIELDS[kind].map((k) => {
      const w = bag[spec(k).wire];
      return [k, w === null || w === undefined ? null : spec(k).fromWire(w as never)];
    }),
  ) as PolicySettingsInfo;
}

/**
 * The workspace's id: an id as given (lowercase, no call), a slug asked of the service once. A
 * 404 says so; an answer for another workspace than the slug names is refused.
 */
async function workspaceIdOf(client: GuardrailsClient, ref: string, what: string): Promise<string> {
  if (UUID_RE.test(ref)) return ref.toLowerCase();
  const ws = await client.getWorkspace(ref);
  if (ws === undefined)
    throw new UserError(
      `${what}: no workspace has slug ${shown(ref)} (the service answered 404); workspaceId takes a workspace's id or slug (getWorkspaces lists them)`,
    );
  if (ws.slug !== ref)
    throw new UserError(
      `${what}: asked for the workspace with slug ${shown(ref)}, the service answered workspace ${shown(ws.id)} whose slug is ${shown(ws.slug)}; not using it`,
    );
  return ws.id.toLowerCase();
}

/** `{ id }` of a record of `kind` (and, with `id`, that policy): another kind or policy is refused, never read as this one. */
export function sameKind(what: string, kind: PolicyKind, p: { id: string; policy_type: string }, id?: string) {
  const want = POLICY_WIRE[kind].policyType;
  if (p.policy_type === want && (id === undefined || p.id.toLowerCase() === id.toLowerCase())) return { id: p.id };
  throw new UserError(
    `${what}: asked for ${id === undefined ? `the ${want} policies` : `${want} policy ${idText(id)}`}, the service answered ${idText(p.policy_type)} policy ${idText(p.id)}; not reading another policy as the one asked`,
  );
}

const WORD_ORDER: readonly string[] = POLICY_KINDS.map(typeWordOf);
const KIND_ORDER = (word: string) => {
  const i = WORD_ORDER.indexOf(word);
  return i < 0 ? WORD_ORDER.length : i;
};
/** By kind (the table's order, unknown kinds last), then name, then id. */
function byKindNameId(x: { policyType: string; name: string; id: string }, y: typeof x): number {
  const k = KIND_ORDER(x.policyType) - KIND_ORDER(y.policyType);
  if (k !== 0) return k;
  if (x.policyType !== y.policyType) return x.policyType < y.policyType ? -1 : 1;
  if (x.name !== y.name) return x.name < y.name ? -1 : 1;
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

/**
 * The policies of a workspace: with `policyType`, that kind's list only; else the three lists.
 * Every page of each list is read (one call per 100 policies of a kind).
 */
export async function getPolicies(
  client: GuardrailsClient,
  args: { workspaceId: string; policyType?: PolicyTypeWord },
): Promise<PoliciesFound> {
  const a = argsOf("getPolicies", args);
  const workspaceId = await workspaceIdOf(client, a.workspaceId, "getPolicies");
  const policies = new PolicyClient(client);
  const kinds = a.policyType ? [POLICY_TYPE_WORDS[a.policyType]] : POLICY_KINDS;
  const found: PolicySummaryInfo[] = [];
  for (const kind of kinds)
    for await (const p of policies.listPolicies(kind, workspaceId))
      found.push({
        ...sameKind("getPolicies", kind, p, undefined),
        policyType: typeWordOf(kind),
        name: p.name,
        ...settingsOf(kind, p.config),
        memberCount: p.member_count,
        keyCount: p.api_key_count,
        workspaceDefault: p.is_workspace_default === true,
        legacyMapped: p.is_legacy_mapped,
        legacyGuardrailIds: sorted(p.legacy_guardrail_ids),
        replacedLegacyGuardrailIds: sorted(p.replaced_legacy_guardrail_ids),
        updatedAt: p.updated_at,
      });
  found.sort(byKindNameId);
  return { workspaceId, policies: found, ids: found.map((p) => p.id) };
}

/** One policy with its assignments: one call. Fails, saying so, when the workspace holds no such policy. */
export async function getPolicy(
  client: GuardrailsClient,
  args: { policyType: PolicyTypeWord; id: string; workspaceId: string },
): Promise<PolicyInfo> {
  const a = argsOf("getPolicy", args);
  const workspaceId = await workspaceIdOf(client, a.workspaceId, "getPolicy");
  const kind = POLICY_TYPE_WORDS[a.policyType];
  let p: Awaited<ReturnType<PolicyClient["getPolicy"]>>;
  try {
    p = await new PolicyClient(client).getPolicy(kind, a.id, workspaceId);
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new UserError(
        `getPolicy: workspace ${workspaceId} has no ${POLICY_WIRE[kind].policyType} policy with id ${a.id} (the service answered 404); getPolicies lists the workspace's policies`,
        { cause: err },
      );
    throw err;
  }
  return {
    ...sameKind("getPolicy", kind, p, a.id),
    policyType: typeWordOf(kind),
    workspaceId,
    name: p.name,
    ...settingsOf(kind, p.config),
    memberUserIds: sorted(p.member_ids),
    keyHashes: sorted(p.api_key_hashes),
    workspaceDefault: p.is_workspace_default === true,
    optedOutMemberUserIds: sortedOrNull(p.opted_out_member_ids),
    optedOutKeyHashes: sorted(p.opted_out_api_key_hashes),
    overriddenMemberUserIds: sortedOrNull(p.overridden_member_ids),
    overriddenKeyHashes: sorted(p.overridden_api_key_hashes),
    reference: p.reference,
    legacyMapped: p.is_legacy_mapped,
    legacyGuardrailIds: sorted(p.legacy_guardrail_ids),
    replacedLegacyGuardrailIds: sorted(p.replaced_legacy_guardrail_ids),
    updatedAt: p.updated_at,
  };
}

const assignmentInfo = (s: WireAssignmentState): SubjectAssignmentInfo => ({
  policyIds: sorted(s.policy_ids),
  workspaceDefaultPolicyIds: sorted(s.workspace_default_policy_ids),
  optedOut: s.opted_out,
});

/** Whether a workspace-wide policy covers the workspace: named in it, or covering all but the opted-out ones. */
function covers(p: WireWorkspaceWidePolicy, workspaceId: string): boolean {
  const has = (xs: readonly string[] | null) => (xs ?? []).some((w) => w.toLowerCase() === workspaceId);
  return has(p.workspace_ids) || (p.is_default === true && !has(p.opted_out_workspace_ids));
}

function workspaceWideInfo(p: WireWorkspaceWidePolicy): WorkspaceWidePolicyInfo {
  return {
    id: p.id,
    name: p.name,
    policyType: p.kind ? typeWordOf(p.kind) : p.policy_type,
    ...(p.kind ? settingsOf(p.kind, p.config) : {}),
    allWorkspaces: p.is_default === true,
    workspaceIds: sortedOrNull(p.workspace_ids),
    updatedAt: p.updated_at,
  };
}

/**
 * What applies to one member or API key in a workspace: per kind, the policies assigned to it
 * directly, the workspace defaults it inherits and whether it opted out (one `GET` of its
 * assignment per kind, rule 25), and the workspace-wide policies covering the workspace (one
 * list, every page; skipped with `workspaceWide: false`, which a workspace-scoped key needs: the
 * service answers it 403 on workspace-wide policies). Four calls in all, sent at once.
 */
export async function getSubjectPolicies(
  client: GuardrailsClient,
  args: ({ memberId: string } | { keyHash: string }) & { workspaceId: string; workspaceWide?: boolean },
): Promise<SubjectPoliciesFound> {
  const a: LookupArgs<"getSubjectPolicies"> = argsOf("getSubjectPolicies", args);
  const workspaceId = await workspaceIdOf(client, a.workspaceId, "getSubjectPolicies");
  const subject: PolicySubject = a.memberId !== undefined ? { memberId: a.memberId } : { keyHash: a.keyHash! };
  const who = a.memberId !== undefined ? "the member" : "the API key";
  const policies = new PolicyClient(client);
  const perKind = Promise.all(POLICY_KINDS.map((kind) => policies.getAssignment(subject, kind, workspaceId))).catch(
    (err: unknown) => {
      // No `cause`: the 404's message holds the URL, and so the member id or key hash.
      if (err instanceof NotFoundError)
        throw new UserError(
          `getSubjectPolicies: the service knows no such ${a.memberId !== undefined ? "memberId" : "keyHash"} in workspace ${workspaceId} (it answered 404 for ${who}; the id is not shown, a program may hold it secret)`,
        );
      throw err;
    },
  );
  const wide =
    a.workspaceWide === false
      ? Promise.resolve(undefined)
      : (async () => {
          const out: WorkspaceWidePolicyInfo[] = [];
          try {
            for await (const p of policies.listWorkspaceWidePolicies())
              if (covers(p, workspaceId)) out.push(workspaceWideInfo(p));
          } catch (err) {
            if (err instanceof PermissionError)
              throw new UserError(
                "getSubjectPolicies: the service refused the list of workspace-wide policies (403); a workspace-scoped key cannot read them: pass workspaceWide: false to leave them out",
                { cause: err },
              );
            throw err;
          }
          return out.sort(byKindNameId);
        })();
  const [[budget, modelAccess, moderation], workspaceWidePolicies] = await Promise.all([perKind, wide]);
  return {
    workspaceId,
    ...(a.memberId !== undefined ? { memberId: a.memberId } : { keyHash: a.keyHash! }),
    budget: assignmentInfo(budget!),
    modelAccess: assignmentInfo(modelAccess!),
    moderation: assignmentInfo(moderation!),
    ...(workspaceWidePolicies ? { workspaceWidePolicies } : {}),
  };
}
