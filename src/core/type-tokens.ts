/**
 * Type tokens of the package's resources. A dynamic resource's token is
 * `pulumi-nodejs:dynamic/<module>:<type>` (the Pulumi SDK builds it from the arguments of
 * `dynamic.Resource`), never the class's own name: policies must match these strings.
 */
/** The type token of `Guardrail`. */
export const GUARDRAIL_TYPE = "pulumi-nodejs:dynamic/guardrails:Guardrail";
/** The type token of `GuardrailMemberAssignment`. */
export const MEMBER_ASSIGNMENT_TYPE = "pulumi-nodejs:dynamic/guardrails:GuardrailMemberAssignment";
/** The type token of `GuardrailKeyAssignment`. */
export const KEY_ASSIGNMENT_TYPE = "pulumi-nodejs:dynamic/guardrails:GuardrailKeyAssignment";
