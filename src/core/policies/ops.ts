/**
 * The policy calls a workspace policy's lifecycle makes, over the connection's client
 * (client/policies.ts), bound to one kind so the lifecycle never names a path or a `policy_type`.
 * The records are read loosely typed here: the lifecycle walks the kind's fields by name.
 */
import { PolicyClient } from "../client/policies";
import type { Connection } from "../connection";
import { KINDS, type PolicyTypeName } from "../kinds";

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
  create(body: WirePolicyWrite): Promise<WirePolicy>;
  /** `NotFoundError` when the id names none in the workspace. */
  get(id: string, workspaceId: string): Promise<WirePolicyDetail>;
  update(id: string, body: WirePolicyWrite): Promise<WirePolicy>;
  /** `NotFoundError` when gone. */
  remove(id: string, workspaceId: string): Promise<void>;
  /** The ids of the kind's policies in a workspace, every page. */
  ids(workspaceId: string): AsyncIterable<{ id: string }>;
}

/** One kind's calls over the connection's client (made at the first call, as every lifecycle's). */
export function policyOps(conn: Connection, type: PolicyTypeName): PolicyOps {
  const kind = KINDS[type].policy.fields;
  const policies = () => new PolicyClient(conn.client());
  return {
    create: async (body) => (await policies().createPolicy(kind, body as never)) as unknown as WirePolicy,
    get: async (id, ws) => (await policies().getPolicy(kind, id, ws)) as unknown as WirePolicyDetail,
    update: async (id, body) => (await policies().updatePolicy(kind, id, body as never)) as unknown as WirePolicy,
    remove: async (id, ws) => {
      await policies().deletePolicy(kind, id, ws);
    },
    ids: (ws) => policies().listPolicies(kind, ws),
  };
}
