/**
 * One Guardrail Policies operation, after routing and auth (docs/api-contract.md rules 22 to 28):
 * the workspace resolved (rule 26), the body and query validated (400), then applied.
 */
import { AccountPolicies } from "./account-policies";
import { Policies } from "./policies";
import { assignmentState, changeAssignment, requireSubject } from "./policy-assignments";
import { policyRecord } from "./policy-records";
import type { PolicyOperation } from "./policy-routes";
import { requireOrganizationKey, resolveWorkspace } from "./policy-scope";
import {
  changeAssignmentBody,
  createPolicyBody,
  parseAccountBody,
  policyPage,
  policyTypeQuery,
  updatePolicyBody,
} from "./policy-validation";
import type { Store } from "./store";
import { parseOr400, requireUuid } from "./validation";

export interface PolicyServices {
  policies: Policies;
  accounts: AccountPolicies;
}

export function policyServices(store: Store): PolicyServices {
  return { policies: new Policies(store), accounts: new AccountPolicies(store) };
}

/**
 * @param scope the workspace of a workspace-scoped key, undefined for an organization key.
 * @param rawId the path's policy id, key hash or member id, as decoded.
 */
export function dispatchPolicy(
  { policies, accounts }: PolicyServices,
  does: PolicyOperation,
  rawId: string | undefined,
  body: unknown,
  query: URLSearchParams,
  scope: string | undefined,
): unknown {
  const store = policies.store;
  const queryWs = () => resolveWorkspace(store, scope, workspaceParam(query));
  const id = () => requireUuid(rawId ?? "", "id");
  switch (does.op) {
    case "list": {
      const page = policyPage(query);
      return policies.list(does.kind, queryWs(), page.offset, page.limit);
    }
    case "get": {
      const policyId = id();
      return { data: policies.detail(policies.find(does.kind, queryWs(), policyId)) };
    }
    case "delete": {
      const policyId = id();
      policies.delete(does.kind, queryWs(), policyId);
      return { data: true };
    }
    case "create": {
      const parsed = parseOr400(createPolicyBody(does.kind), body);
      const ws = resolveWorkspace(store, scope, parsed.workspace_id);
      return { data: policyRecord(policies.create(does.kind, ws, parsed)) };
    }
    case "update": {
      const policyId = id();
      const parsed = parseOr400(updatePolicyBody(does.kind), body);
      const ws = resolveWorkspace(store, scope, parsed.workspace_id);
      return { data: policyRecord(policies.update(does.kind, ws, policyId, parsed)) };
    }
    case "getAssignment": {
      const { policy_type } = parseOr400(policyTypeQuery, { policy_type: query.get("policy_type") ?? undefined });
      const ws = queryWs();
      const subject = { kind: does.subject, id: rawId ?? "" };
      requireSubject(policies, ws, subject);
      return { data: assignmentState(policies, policy_type, ws, subject) };
    }
    case "changeAssignment": {
      const parsed = parseOr400(changeAssignmentBody, body);
      const ws = resolveWorkspace(store, scope, parsed.workspace_id);
      return { data: changeAssignment(policies, ws, { kind: does.subject, id: rawId ?? "" }, parsed) };
    }
    default:
      return dispatchAccount(accounts, does, rawId, body, query, scope);
  }
}

function dispatchAccount(
  accounts: AccountPolicies,
  does: PolicyOperation,
  rawId: string | undefined,
  body: unknown,
  query: URLSearchParams,
  scope: string | undefined,
): unknown {
  requireOrganizationKey(scope);
  switch (does.op) {
    case "listAccount": {
      const page = policyPage(query);
      return accounts.list(page.offset, page.limit);
    }
    case "createAccount":
      return { data: accounts.record(accounts.create(parseAccountBody(body))) };
    case "updateAccount": {
      const id = requireUuid(rawId ?? "", "id");
      return { data: accounts.record(accounts.update(id, parseAccountBody(body))) };
    }
    case "deleteAccount":
      accounts.delete(requireUuid(rawId ?? "", "id"));
      return { data: true };
    default:
      throw new Error(`unrouted policy operation ${does.op}`);
  }
}

/** `workspace_id` of a query: undefined when absent, a UUID when given (400 otherwise). */
function workspaceParam(query: URLSearchParams): string | undefined {
  const ws = query.get("workspace_id");
  return ws === null ? undefined : requireUuid(ws, "workspace_id");
}
