/**
 * The policy calls a workspace policy's lifecycle makes, over the connection's client. Bound to
 * one kind, so the lifecycle never names a path or a `policy_type`.
 * PLACEHOLDER: the types mirror fix/pol-client's client/policies.ts until it lands.
 */
import type { Connection } from "../connection";
import type { PolicyTypeName } from "../kinds";

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

export function policyOps(_conn: Connection, _type: PolicyTypeName): PolicyOps {
  throw new Error("policy operations: waiting for fix/pol-client");
}
