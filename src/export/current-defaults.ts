/**
 * The workspaces' current default policies, which step 2 of the move to policies must not
 * replace (to-policies.ts): a workspace has one default per kind (rule 26), and a new default
 * unsets the old one.
 */
import type { GuardrailsClient } from "../core/client/client";
import { PolicyClient } from "../core/client/policies";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";

/** A workspace's current default policy of a kind. */
export interface CurrentDefault {
  workspaceId: string;
  type: PolicyTypeName;
  id: string;
  name: string;
}

/** The default policies of `workspaceIds`: one list (every page) per workspace and kind, GETs only. */
export async function readCurrentDefaults(
  client: GuardrailsClient,
  workspaceIds: readonly string[],
): Promise<CurrentDefault[]> {
  const out: CurrentDefault[] = [];
  const pc = new PolicyClient(client);
  for (const workspaceId of workspaceIds)
    for (const type of POLICY_TYPE_NAMES)
      for await (const p of pc.listPolicies(KINDS[type].policy.fields, workspaceId))
        if (p.is_workspace_default === true) out.push({ workspaceId, type, id: p.id, name: p.name });
  return out;
}
