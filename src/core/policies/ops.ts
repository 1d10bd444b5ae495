/**
 * The policy calls a workspace policy's lifecycle makes, over the connection's client
 * (client/policies.ts), bound to one kind so the lifecycle never names a path or a `policy_type`.
 * The records are read loosely typed here: the lifecycle walks the kind's fields by name.
 */
import { PolicyClient } from "../client/policies";
import type { UnknownOutcome } from "../client/retry";
import type { Connection } from "../connection";
import { POLICY_WIRE } from "../fields/policy-kinds";
import { KINDS, type PolicyTypeName } from "../kinds";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";

/** A create's or update's answer (rule 23). */
export interface WirePolicy {
  id: string;
  name: string;
  policy_type: string;
  config: Record<string, unknown>;
  updated_at?: string | null | undefined;
}
/** A get's answer: the policy with its assignments (rule 23). */
export interface WirePolicyDetail extends WirePolicy {
  member_ids: string[];
  api_key_hashes: string[];
  opted_out_member_ids?: string[] | null | undefined;
  opted_out_api_key_hashes: string[];
  overridden_member_ids?: string[] | null | undefined;
  overridden_api_key_hashes: string[];
  is_workspace_default?: boolean | null | undefined;
  reference?: string | null | undefined;
  legacy_guardrail_ids?: string[] | null | undefined;
  /** `config`'s keys this package does not manage, as the service holds them (client/policy-wire.ts). */
  unmanaged_config: Record<string, unknown>;
}
/** A create's or update's body, `policy_type` added by the client. */
export interface WirePolicyWrite {
  name: string;
  config: Record<string, unknown>;
  workspace_id: string;
  member_ids?: string[];
  api_key_hashes?: string[];
  opted_out_member_ids?: string[];
  opted_out_api_key_hashes?: string[];
  is_workspace_default?: boolean;
}

/** One kind's calls. */
export interface PolicyOps {
  /** `outcome` settles a create whose answer was lost (create-once.ts); without it, never repeated once sent. */
  create(body: WirePolicyWrite, outcome?: UnknownOutcome<WirePolicy>): Promise<WirePolicy>;
  /** `NotFoundError` when the id names none in the workspace. */
  get(id: string, workspaceId: string): Promise<WirePolicyDetail>;
  update(id: string, body: WirePolicyWrite): Promise<WirePolicy>;
  /** `NotFoundError` when gone. */
  remove(id: string, workspaceId: string): Promise<void>;
  /** The ids of the kind's policies in a workspace, every page. */
  ids(workspaceId: string): AsyncIterable<{ id: string }>;
}

/**
 * An answer about another policy than the one asked for (another id or another kind): refused,
 * never read as this one (a moderation policy read as a budget would be "the limit was removed").
 */
export class OtherPolicyError extends UserError {}

/** `p`, when it is the policy of kind `type` with id `id` (UUIDs compare in any case); `call` names the call in the error. */
function same<T extends WirePolicy>(type: PolicyTypeName, id: string, p: T, call: string): T {
  const want = POLICY_WIRE[KINDS[type].policy.fields].policyType;
  if (p.policy_type === want && p.id.toLowerCase() === id.toLowerCase()) return p;
  throw new OtherPolicyError(
    `${call} ${want} policy ${idText(id)} was answered with ${idText(p.policy_type)} policy ${idText(p.id)}; not reading another policy as this one`,
  );
}

/** One kind's calls over the connection's client (made at the first call, as every lifecycle's). */
export function policyOps(conn: Connection, type: PolicyTypeName): PolicyOps {
  const kind = KINDS[type].policy.fields;
  const policies = () => new PolicyClient(conn.client());
  return {
    create: async (body, outcome) => {
      const p = (await policies().createPolicy(kind, body as never, outcome as never)) as unknown as WirePolicy;
      return same(type, p.id, p, "a POST of a");
    },
    get: async (id, ws) =>
      same(type, id, (await policies().getPolicy(kind, id, ws)) as unknown as WirePolicyDetail, "a GET of"),
    update: async (id, body) =>
      same(type, id, (await policies().updatePolicy(kind, id, body as never)) as unknown as WirePolicy, "a PUT of"),
    remove: async (id, ws) => {
      await policies().deletePolicy(kind, id, ws);
    },
    ids: (ws) => policies().listPolicies(kind, ws),
  };
}
