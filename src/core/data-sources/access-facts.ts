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
 * What was read becomes an `OrgRead` cut to the subjects asked, and `factsOf` (access-org.ts)
 * computes the facts from it, as it does for every subject of `who` (access-org-read.ts).
 *
 * The management API does not relate a key to the member who owns it (docs/api-contract.md,
 * "The enforcement answer"), so the owner is the caller's to give; without it the key's layers
 * leave its owner's out and may claim more access than the service grants (`ownerKnown: false`).
 */
import { NotFoundError } from "../client/errors";
import { orgHolders } from "../client/org-assignments";
import { PolicyClient, type PolicySubject } from "../client/policies";
import type { Connection } from "../connection";
import { POLICY_KINDS, type PolicyKind } from "../fields/policy-kinds";
import { UserError } from "../user-error";
import {
  type AccessFactsRead,
  type AccessSubject,
  collect,
  defaultOf,
  factsOf,
  guardrailFacts,
  guardrailsOf,
  type PolicyRead,
  policySettings,
  workspaceOf,
  workspaceWide,
} from "./access-org";
import { sameKind } from "./policies";

export type { AccessFactsRead, AccessSubject } from "./access-org";

type Who = { kind: "member" | "key"; id: string };

const missing = (who: Who, ws: string) => (err: unknown) => {
  // No `cause`: the 404's message holds the URL, and so the member id or key hash.
  if (err instanceof NotFoundError)
    throw new UserError(
      `effective access: the service knows no such ${who.kind === "member" ? "memberId" : "keyHash"} in workspace ${ws} (it answered 404; the id is not shown, a program may hold it secret)`,
    );
  throw err;
};

/**
 * One kind's policies, from its list (settings, default, legacy mapping) and each subject's
 * assignment (rule 25): a subject is listed on the policies it holds directly, and on the
 * opt-out list of the kind's default when it opted out. No policy's detail is read.
 */
async function policiesOfKind(pc: PolicyClient, kind: PolicyKind, ws: string, whos: Who[]): Promise<PolicyRead[]> {
  const subject = (w: Who): PolicySubject => (w.kind === "member" ? { memberId: w.id } : { keyHash: w.id });
  const [rows, states] = await Promise.all([
    collect(pc.listPolicies(kind, ws)),
    Promise.all(whos.map((w) => pc.getAssignment(subject(w), kind, ws).catch(missing(w, ws)))),
  ]);
  const has = (ids: readonly string[], id: string) => ids.some((x) => x.toLowerCase() === id);
  return rows.map((p) => {
    sameKind("effective access", kind, p, undefined);
    const id = p.id.toLowerCase();
    const isDefault = p.is_workspace_default === true || states.some((s) => has(s.workspace_default_policy_ids, id));
    const on = (kindOf: Who["kind"], pick: (s: (typeof states)[number]) => boolean) =>
      new Set(whos.filter((w, i) => w.kind === kindOf && pick(states[i]!)).map((w) => w.id));
    const direct = (s: (typeof states)[number]) => has(s.policy_ids, id);
    const optedOut = (s: (typeof states)[number]) => isDefault && s.opted_out;
    return {
      id,
      name: p.name,
      kind,
      settings: policySettings(kind, p.config),
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
  const [guardrails, memberHolders, keyHolders, policies, wide] = await Promise.all([
    guardrailsOf(client, ws),
    member ? orgHolders(client, "members") : undefined,
    key ? orgHolders(client, "keys") : undefined,
    Promise.all(POLICY_KINDS.map((kind) => policiesOfKind(pc, kind, ws, whos))),
    workspaceWide(pc),
  ]);
  return factsOf(
    {
      workspaceId: ws,
      workspaceDefault: dflt ? guardrailFacts(dflt) : null,
      guardrails,
      memberHolders,
      keyHolders,
      policies: policies.flat(),
      workspaceWide: wide,
    },
    subject,
  );
}
