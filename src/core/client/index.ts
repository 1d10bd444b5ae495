export * from "./client";
export * from "./errors";
export { redact, redactUrl } from "./redaction";
export { DEFAULT_RETRY, type RetryOptions, type RetryHooks, type UnknownOutcome } from "./retry";
export { paginate, collect } from "./pagination";
export { checkBaseUrl } from "./base-url";
export type { WorkspaceDefaultRead } from "./workspace-default";
export type { WireWorkspace, WireGuardrail } from "./wire";
export { PolicyClient, type PolicySubject, type AssignmentChange } from "./policies";
export type {
  WireAssignmentState,
  WirePolicy,
  WirePolicyConfig,
  WirePolicyCreate,
  WirePolicyDetail,
  WirePolicySummary,
  WirePolicyUpdate,
  WireWorkspaceWidePolicy,
  WireWorkspaceWidePolicyWrite,
} from "./policy-wire";
