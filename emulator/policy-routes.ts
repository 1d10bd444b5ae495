/**
 * The Guardrail Policies routes (docs/api-contract.md rule 22): 23 operations, each named by the
 * operationId of docs/guardrail-policies.openapi.json, so a scripted fault and the request log use
 * the contract's names.
 */
import { POLICY_KINDS, type PolicyType } from "./policy-records";

const KIND_NAMES = { budget: "Budget", model_availability: "ModelAvailability", moderation: "Moderation" } as const;
type KindName = (typeof KIND_NAMES)[PolicyType];

export type PolicyOperationName =
  | `list${KindName}Policies`
  | `${"create" | "get" | "update" | "delete"}${KindName}Policy`
  | `${"list" | "create" | "update" | "delete"}AccountPolic${"ies" | "y"}`
  | `${"get" | "change"}${"ApiKey" | "Member"}PolicyAssignment`;

/** What a policy operation does, and to what. */
export type PolicyOperation =
  | { op: "list" | "create" | "get" | "update" | "delete"; kind: PolicyType }
  | { op: "listAccount" | "createAccount" | "updateAccount" | "deleteAccount" }
  | { op: "getAssignment" | "changeAssignment"; subject: "member" | "key" };

interface PolicyRoute {
  method: string;
  pattern: RegExp;
  operation: PolicyOperationName;
  does: PolicyOperation;
}

const ID = "([^/]+)";

function kindRoutes(kind: PolicyType): PolicyRoute[] {
  const base = `^/guardrails/policies/${POLICY_KINDS[kind].segment}`;
  const name = KIND_NAMES[kind];
  const one = new RegExp(`${base}/${ID}$`);
  return [
    { method: "GET", pattern: new RegExp(`${base}$`), operation: `list${name}Policies`, does: { op: "list", kind } },
    { method: "POST", pattern: new RegExp(`${base}$`), operation: `create${name}Policy`, does: { op: "create", kind } },
    { method: "GET", pattern: one, operation: `get${name}Policy`, does: { op: "get", kind } },
    { method: "PUT", pattern: one, operation: `update${name}Policy`, does: { op: "update", kind } },
    { method: "DELETE", pattern: one, operation: `delete${name}Policy`, does: { op: "delete", kind } },
  ];
}

const ACCOUNT = /^\/guardrails\/policies\/account$/;
const ACCOUNT_ONE = new RegExp(`^/guardrails/policies/account/${ID}$`);
const KEY = new RegExp(`^/guardrails/policies/assignments/api-keys/${ID}$`);
const MEMBER = new RegExp(`^/guardrails/policies/assignments/members/${ID}$`);

export const POLICY_ROUTES: PolicyRoute[] = [
  ...kindRoutes("budget"),
  ...kindRoutes("model_availability"),
  ...kindRoutes("moderation"),
  { method: "GET", pattern: ACCOUNT, operation: "listAccountPolicies", does: { op: "listAccount" } },
  { method: "POST", pattern: ACCOUNT, operation: "createAccountPolicy", does: { op: "createAccount" } },
  { method: "PUT", pattern: ACCOUNT_ONE, operation: "updateAccountPolicy", does: { op: "updateAccount" } },
  { method: "DELETE", pattern: ACCOUNT_ONE, operation: "deleteAccountPolicy", does: { op: "deleteAccount" } },
  {
    method: "GET",
    pattern: KEY,
    operation: "getApiKeyPolicyAssignment",
    does: { op: "getAssignment", subject: "key" },
  },
  {
    method: "PUT",
    pattern: KEY,
    operation: "changeApiKeyPolicyAssignment",
    does: { op: "changeAssignment", subject: "key" },
  },
  {
    method: "GET",
    pattern: MEMBER,
    operation: "getMemberPolicyAssignment",
    does: { op: "getAssignment", subject: "member" },
  },
  {
    method: "PUT",
    pattern: MEMBER,
    operation: "changeMemberPolicyAssignment",
    does: { op: "changeAssignment", subject: "member" },
  },
];

const BY_NAME = new Map<string, PolicyOperation>(POLICY_ROUTES.map((r) => [r.operation, r.does]));

/** What a policy operation does, or undefined for a guardrail operation. */
export const policyOperation = (name: string): PolicyOperation | undefined => BY_NAME.get(name);

/** Operations that create (answered 201, as a guardrail create; the policy pages do not say). */
export const isCreate = (name: string) => /^create/.test(name);
