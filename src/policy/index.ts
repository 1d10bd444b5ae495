/**
 * `pulumi-guardrails/policy`: CrossGuard policies over guardrails. Needs `@pulumi/policy`
 * (an optional peer dependency) in the policy pack; nothing here loads it at run time.
 */
export { guardrailsPolicies, POLICY_RULES } from "./factory";
export {
  parsePolicyOptions,
  PolicyOptionsError,
  ENFORCEMENT_LEVELS,
  ZDR_GROUPS,
  type GuardrailsPolicyOptions,
  type EnforcementLevel,
  type ZdrGroup,
  type RuleOption,
} from "./options";
export {
  GUARDRAIL_TYPE,
  MEMBER_ASSIGNMENT_TYPE,
  KEY_ASSIGNMENT_TYPE,
  NATIVE_GUARDRAIL_TYPE,
  NATIVE_MEMBER_ASSIGNMENT_TYPE,
  NATIVE_KEY_ASSIGNMENT_TYPE,
  resourceOfToken,
  type ResourceTypeName,
} from "../core/type-tokens";
export { loadPolicyFile, policiesFromFile, policyFileJsonSchema } from "./policy-file";
export { isPolicyFile } from "../declarative/file-name";
