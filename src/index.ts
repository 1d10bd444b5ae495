/** pulumi-guardrails: the public surface. */
export * from "./core/client";
export { UserError } from "./core/user-error";
export type * from "./core/client/wire";
export { Guardrail, type GuardrailArgs, type BuiltinFilterArgs, type CustomFilterArgs } from "./dynamic/guardrail";
export type { UnsyncedPolicy } from "./core/guardrail/policy-drift";
export {
  GuardrailMemberAssignment,
  GuardrailKeyAssignment,
  type GuardrailMemberAssignmentArgs,
  type GuardrailKeyAssignmentArgs,
} from "./dynamic/assignments";
export { WorkspaceDefaultGuardrail, type WorkspaceDefaultGuardrailArgs } from "./dynamic/workspace-default";
export {
  BudgetPolicy,
  ModelAccessPolicy,
  ModerationPolicy,
  type BudgetPolicyArgs,
  type ModelAccessPolicyArgs,
  type ModerationPolicyArgs,
  type PolicyPlacementArgs,
} from "./dynamic/policies";
export { WorkspaceWidePolicy, type WorkspaceWidePolicyArgs } from "./dynamic/workspace-wide-policy";
export {
  declareGuardrails,
  declareGuardrailFiles,
  type DeclareGuardrailsOptions,
  type DeclaredResources,
  type DeclaredFiles,
} from "./declarative/declare";
export {
  loadGuardrailConfigs,
  loadGuardrailFiles,
  DeclarativeConfigError,
  type LoadedFiles,
  type LoadedWorkspaceDefault,
} from "./declarative/load";
export { isPolicyFile } from "./declarative/file-name";
export { summarizePreview, type PreviewJson } from "./preview/summary";
export {
  getGuardrail,
  getGuardrails,
  getGuardrailMembers,
  getGuardrailKeys,
  getWorkspace,
  getWorkspaces,
  getPolicies,
  getPolicy,
  getSubjectPolicies,
  getSubjectPoliciesOutput,
  getEffectiveAccess,
  getEffectiveAccessOutput,
  getSubjectGuardrail,
  getSubjectGuardrailOutput,
  type AccessAllowListInfo,
  type AccessLayerInfo,
  type AccessLookupArgs,
  type AccessLookupInputs,
  type EffectiveAccessInfo,
  type EffectiveAccessResult,
  type SubjectGuardrailResult,
  type GuardrailInfo,
  type GuardrailsFound,
  type GuardrailMembersFound,
  type GuardrailKeysFound,
  type WorkspaceInfo,
  type WorkspacesFound,
  type PoliciesFound,
  type PolicyInfo,
  type PolicySettingsInfo,
  type PolicySummaryInfo,
  type PolicyTypeWord,
  type SubjectAssignmentInfo,
  type SubjectPoliciesArgs,
  type SubjectPoliciesFound,
  type WorkspaceWidePolicyInfo,
} from "./dynamic/data-sources";
