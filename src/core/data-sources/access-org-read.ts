/**
 * One workspace's layers for every subject at once (issue 41, `guardrails-access who`): the org
 * read once, and each member's and key's facts computed from it in memory (`factsOf`).
 *
 * Calls (P: one per 100 rows of a list, every page): `GET /workspaces/{id}` and the default
 * guardrail's `GET`; then at once `GET /guardrails?workspace_id` (P), both org-wide assignment
 * listings (P each), the three kinds' policy lists (P each) and the workspace-wide list (P); then
 * one `GET` of each policy that has a member, a key or is (or may be: its row does not say) the workspace default (rule 23's detail:
 * the only place the service lists a policy's subjects and opt-outs, rule 32). Nothing is read
 * per member or key: the count grows with the pages of the listings and the number of policies.
 *
 * The management API lists no organization members (only those some listing names), so the
 * subjects are every member and key some assignment or policy names, and "any other" member and
 * key stand for the rest (they hold only what every subject holds). It does not say who owns a
 * key either: a key's facts leave its owner's layers out (`ownerKnown: false`).
 */
import type { GuardrailsClient } from "../client/client";
import { orgHolders } from "../client/org-assignments";
import { PolicyClient } from "../client/policies";
import type { Connection } from "../connection";
import { POLICY_KINDS, type PolicyKind } from "../fields/policy-kinds";
import {
  collect,
  defaultOf,
  guardrailFacts,
  guardrailsOf,
  type OrgRead,
  type PolicyRead,
  policySettings,
  workspaceOf,
  workspaceWide,
} from "./access-org";
import { sameKind } from "./policies";

const WHAT = "effective access";

/** The org read, and every member and key a listing names (sorted). */
export interface OrgAccessRead {
  org: OrgRead;
  memberIds: string[];
  keyHashes: string[];
}

const setOf = (ids: readonly string[] | null | undefined): ReadonlySet<string> => new Set(ids ?? []);

/** One kind's policies with their subjects: the list, and the detail of each that names anyone. */
async function policiesOfKind(pc: PolicyClient, kind: PolicyKind, ws: string): Promise<PolicyRead[]> {
  const rows = await collect(pc.listPolicies(kind, ws));
  return Promise.all(
    rows.map(async (p) => {
      sameKind(WHAT, kind, p, undefined);
      // A row need not say whether it is the default (rule 23): unsaid, the detail says.
      const named = p.member_count > 0 || p.api_key_count > 0 || p.is_workspace_default !== false;
      const d = named ? await pc.getPolicy(kind, p.id, ws) : undefined;
      // A detail answering another policy would lend this one its subjects and opt-outs.
      if (d) sameKind(WHAT, kind, d, p.id);
      const isDefault = p.is_workspace_default === true || d?.is_workspace_default === true;
      return {
        id: p.id.toLowerCase(),
        name: p.name,
        kind,
        settings: policySettings(kind, p.config),
        isWorkspaceDefault: isDefault,
        isLegacyMapped: p.is_legacy_mapped === true,
        legacyGuardrailIds: (p.legacy_guardrail_ids ?? []).map((g) => g.toLowerCase()),
        memberIds: setOf(d?.member_ids),
        keyHashes: setOf(d?.api_key_hashes),
        optedOutMemberIds: setOf(d?.opted_out_member_ids),
        optedOutKeyHashes: setOf(d?.opted_out_api_key_hashes),
      };
    }),
  );
}

async function read(client: GuardrailsClient, workspaceId: string | undefined): Promise<OrgRead> {
  const { workspace, dflt } = await defaultOf(client, await workspaceOf(client, workspaceId));
  const ws = workspace.id.toLowerCase();
  const pc = new PolicyClient(client);
  const [guardrails, memberHolders, keyHolders, policies, wide] = await Promise.all([
    guardrailsOf(client, ws),
    orgHolders(client, "members"),
    orgHolders(client, "keys"),
    Promise.all(POLICY_KINDS.map((kind) => policiesOfKind(pc, kind, ws))),
    workspaceWide(pc),
  ]);
  return {
    workspaceId: ws,
    workspaceDefault: dflt ? guardrailFacts(dflt) : null,
    guardrails,
    memberHolders,
    keyHolders,
    policies: policies.flat(),
    workspaceWide: wide,
  };
}

/** Every member and key the org read names: assigned a guardrail, or named by a policy. */
export function subjectsOf(org: OrgRead): { memberIds: string[]; keyHashes: string[] } {
  const members = new Set(org.memberHolders?.keys());
  const keys = new Set(org.keyHolders?.keys());
  for (const p of org.policies) {
    for (const m of [...p.memberIds, ...p.optedOutMemberIds]) members.add(m);
    for (const k of [...p.keyHashes, ...p.optedOutKeyHashes]) keys.add(k);
  }
  return { memberIds: [...members].sort(), keyHashes: [...keys].sort() };
}

/** The workspace's layers for every subject (the default workspace when the organization has one only). */
export async function readOrgAccess(conn: Connection, workspaceId?: string): Promise<OrgAccessRead> {
  const org = await read(conn.client(), workspaceId);
  return { org, ...subjectsOf(org) };
}
