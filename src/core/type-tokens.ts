/**
 * Type tokens of the package's resources. A dynamic resource's token is
 * `pulumi-nodejs:dynamic/<module>:<type>` (the Pulumi SDK builds it from the arguments of
 * `dynamic.Resource`), never the class's own name: policies must match these strings.
 */
/** Every dynamic resource's token starts so, whichever package made it. */
export const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic";
/** This package's resource tokens start so: another package's `x:index:Guardrail` is not ours. */
export const PACKAGE_TYPE_PREFIX = `${DYNAMIC_TYPE_PREFIX}/guardrails:` as const;
/** The type token of `Guardrail`. */
export const GUARDRAIL_TYPE = `${PACKAGE_TYPE_PREFIX}Guardrail` as const;
/** The type token of `GuardrailMemberAssignment`. */
export const MEMBER_ASSIGNMENT_TYPE = `${PACKAGE_TYPE_PREFIX}GuardrailMemberAssignment` as const;
/** The type token of `GuardrailKeyAssignment`. */
export const KEY_ASSIGNMENT_TYPE = `${PACKAGE_TYPE_PREFIX}GuardrailKeyAssignment` as const;

/** The native face's package name: its tokens are `guardrails:index:<Type>`. */
export const NATIVE_PACKAGE = "guardrails";
/** The native face's type token of `Guardrail`. */
export const NATIVE_GUARDRAIL_TYPE = "guardrails:index:Guardrail";
/** The native face's type token of `GuardrailMemberAssignment`. */
export const NATIVE_MEMBER_ASSIGNMENT_TYPE = "guardrails:index:GuardrailMemberAssignment";
/** The native face's type token of `GuardrailKeyAssignment`. */
export const NATIVE_KEY_ASSIGNMENT_TYPE = "guardrails:index:GuardrailKeyAssignment";
