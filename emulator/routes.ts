/**
 * The route table: method + path pattern -> operation name. Admin routes are separate
 * (`admin.ts`) and never under `/api/v1`. The policy routes (rule 22) are in policy-routes.ts.
 */

import { POLICY_ROUTES, type PolicyOperationName } from "./policy-routes";

export type OperationName =
  | PolicyOperationName
  | "listGuardrails"
  | "createGuardrail"
  | "getGuardrail"
  | "updateGuardrail"
  | "deleteGuardrail"
  | "listGuardrailKeyAssignments"
  | "assignKeys"
  | "unassignKeys"
  | "listGuardrailMemberAssignments"
  | "assignMembers"
  | "unassignMembers"
  | "listAllKeyAssignments"
  | "listAllMemberAssignments"
  | "listWorkspaces"
  | "getWorkspace";

interface Route {
  method: string;
  pattern: RegExp;
  operation: OperationName;
}

const ID = "([^/]+)";
const routes: Route[] = [
  { method: "GET", pattern: /^\/guardrails$/, operation: "listGuardrails" },
  { method: "GET", pattern: /^\/workspaces$/, operation: "listWorkspaces" },
  { method: "GET", pattern: new RegExp(`^/workspaces/${ID}$`), operation: "getWorkspace" },
  { method: "POST", pattern: /^\/guardrails$/, operation: "createGuardrail" },
  { method: "GET", pattern: /^\/guardrails\/assignments\/keys$/, operation: "listAllKeyAssignments" },
  { method: "GET", pattern: /^\/guardrails\/assignments\/members$/, operation: "listAllMemberAssignments" },
  { method: "GET", pattern: new RegExp(`^/guardrails/${ID}$`), operation: "getGuardrail" },
  { method: "PATCH", pattern: new RegExp(`^/guardrails/${ID}$`), operation: "updateGuardrail" },
  { method: "DELETE", pattern: new RegExp(`^/guardrails/${ID}$`), operation: "deleteGuardrail" },
  {
    method: "GET",
    pattern: new RegExp(`^/guardrails/${ID}/assignments/keys$`),
    operation: "listGuardrailKeyAssignments",
  },
  { method: "POST", pattern: new RegExp(`^/guardrails/${ID}/assignments/keys$`), operation: "assignKeys" },
  { method: "POST", pattern: new RegExp(`^/guardrails/${ID}/assignments/keys/remove$`), operation: "unassignKeys" },
  {
    method: "GET",
    pattern: new RegExp(`^/guardrails/${ID}/assignments/members$`),
    operation: "listGuardrailMemberAssignments",
  },
  { method: "POST", pattern: new RegExp(`^/guardrails/${ID}/assignments/members$`), operation: "assignMembers" },
  {
    method: "POST",
    pattern: new RegExp(`^/guardrails/${ID}/assignments/members/remove$`),
    operation: "unassignMembers",
  },
  ...POLICY_ROUTES,
];

/** Every operation a route leads to (a scripted fault names one). */
export const OPERATION_NAMES = [...new Set(routes.map((r) => r.operation))] as [OperationName, ...OperationName[]];

export type RouteMatch = { operation: OperationName; id: string | undefined } | { operation: null; allowed: string[] };

/** Matches a path below `/api/v1`. `allowed` is empty for an unknown path (404), else 405. */
export function matchRoute(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of routes) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (route.method === method)
      return { operation: route.operation, id: m[1] === undefined ? undefined : safeDecode(m[1]) };
    allowed.push(route.method);
  }
  return { operation: null, allowed };
}

/** Writes, for the drop-after-apply fault. */
export const isWrite = (method: string) => method !== "GET";

/** A path segment, decoded; a malformed escape stays as sent (and then fails the UUID check). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
