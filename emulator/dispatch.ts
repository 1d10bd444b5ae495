/**
 * One API operation, after routing and auth: its parameters validated (400), then applied to
 * the store through Operations. Returns the response body.
 */
import type { Faults } from "./faults";
import { badRequest, HttpError } from "./http-error";
import { KEYS, MEMBERS } from "./assignment-kinds";
import type { LegacyMapping } from "./legacy-mapping";
import type { Operations } from "./operations";
import { dispatchPolicy, type PolicyServices } from "./policy-dispatch";
import { policyOperation } from "./policy-routes";
import type { OperationName } from "./routes";
import { bulkBody, createBody, limitPairIssue, pageQuery, parseOr400, requireUuid, updateBody } from "./validation";

export interface DispatchContext {
  ops: Operations;
  /** Guardrail Policies (rules 22 to 28). */
  policies: PolicyServices;
  /** Keeps each guardrail's policies in step with it (rule 31). */
  legacy: LegacyMapping;
  faults: Faults;
  maxBulk: number;
}

/** @param scope the workspace of a workspace-scoped key (rule 26), undefined for an organization key. */
export function dispatch(
  context: DispatchContext,
  operation: OperationName,
  rawId: string | undefined,
  body: unknown,
  query: URLSearchParams,
  scope?: string,
): unknown {
  const policy = policyOperation(operation);
  if (policy) return dispatchPolicy(context.policies, policy, rawId, body, query, scope);
  const result = dispatchGuardrail(context, operation, rawId, body, query);
  context.legacy.afterGuardrailWrite(operation, rawId, body, result);
  return result;
}

function dispatchGuardrail(
  { ops, faults, maxBulk }: DispatchContext,
  operation: OperationName,
  rawId: string | undefined,
  body: unknown,
  query: URLSearchParams,
): unknown {
  if (operation === "getWorkspace") return { data: ops.workspaces.get(rawId ?? "") };
  const id = rawId === undefined ? undefined : requireUuid(rawId, "id");
  const page = () =>
    parseOr400(pageQuery, { offset: query.get("offset") ?? undefined, limit: query.get("limit") ?? undefined });
  const guardrailId = () => id as string;
  switch (operation) {
    case "listGuardrails": {
      const { offset, limit } = page();
      const ws = query.get("workspace_id") ?? undefined;
      return ops.listGuardrails(ws === undefined ? undefined : requireUuid(ws, "workspace_id"), offset, limit);
    }
    case "listWorkspaces": {
      const { offset, limit } = page();
      return ops.workspaces.list(offset, limit);
    }
    case "createGuardrail":
      return { data: ops.createGuardrail(parseOr400(createBody, body)) };
    case "getGuardrail":
      return { data: ops.getGuardrail(guardrailId()) };
    case "updateGuardrail": {
      // 400, then 404, then the injected 409: a conflict is only ever spent on an update that would apply.
      const update = parseOr400(updateBody, body);
      const materializing = ops.writable(guardrailId()) !== ops.store.guardrail(guardrailId());
      const pair = materializing ? limitPairIssue(update) : undefined;
      // Rule 19: the first write of a default guardrail is held to rule 14, like a create.
      if (pair) throw badRequest(`${pair.path[0]}: ${pair.message}`);
      if (faults.conflictOnUpdate())
        throw new HttpError(409, `guardrail ${guardrailId()} was changed by another request; fetch it and try again`);
      return { data: ops.updateGuardrail(guardrailId(), update) };
    }
    case "deleteGuardrail":
      refuseDefault(ops, guardrailId(), "deleted; it goes only with its workspace"); // rule 20
      ops.deleteGuardrail(guardrailId());
      return { deleted: true };
    case "listGuardrailKeyAssignments":
    case "listAllKeyAssignments": {
      const { offset, limit } = page();
      return ops.listAssignments(KEYS, id, offset, limit);
    }
    case "listGuardrailMemberAssignments":
    case "listAllMemberAssignments": {
      const { offset, limit } = page();
      return ops.listAssignments(MEMBERS, id, offset, limit);
    }
    case "assignKeys":
      refuseDefault(ops, guardrailId(), "assigned keys; it already covers every key without a guardrail");
      return { assigned_count: ops.assign(KEYS, guardrailId(), bulk("key_hashes", body, maxBulk)) };
    case "unassignKeys":
      return { unassigned_count: ops.unassign(KEYS, guardrailId(), bulk("key_hashes", body, maxBulk)) };
    case "assignMembers":
      refuseDefault(ops, guardrailId(), "assigned members; it already covers every member without a guardrail");
      return { assigned_count: ops.assign(MEMBERS, guardrailId(), bulk("member_user_ids", body, maxBulk)) };
    case "unassignMembers":
      return { unassigned_count: ops.unassign(MEMBERS, guardrailId(), bulk("member_user_ids", body, maxBulk)) };
    default:
      throw new Error(`unrouted operation ${operation}`);
  }
}

function bulk(field: "member_user_ids" | "key_hashes", body: unknown, maxBulk: number): string[] {
  return (parseOr400(bulkBody(field, maxBulk), body) as Record<string, string[]>)[field] ?? [];
}

/** A workspace's default guardrail, written or not, cannot be deleted or assigned (rules 18 and 20): 400. */
function refuseDefault(ops: Operations, id: string, what: string): void {
  const ws = ops.workspaces.ownerOfDefault(id);
  if (ws !== undefined)
    throw badRequest(`guardrail ${id} is the default guardrail of workspace ${ws} and cannot be ${what}`);
}
