/**
 * Type tokens of the package's resources, from the kind table (kinds.ts). A dynamic resource's
 * token is `pulumi-nodejs:dynamic/<module>:<type>` (the Pulumi SDK builds it from the arguments
 * of `dynamic.Resource`), never the class's own name: policies must match these strings.
 */
import {
  DYNAMIC_TYPE_PREFIX,
  isTypeName,
  KINDS,
  NATIVE_PACKAGE,
  PACKAGE_TYPE_PREFIX,
  type ResourceTypeName,
  type SetOf,
} from "./kinds";

export { DYNAMIC_TYPE_PREFIX, NATIVE_PACKAGE, PACKAGE_TYPE_PREFIX, type ResourceTypeName };

/** The type token of `Guardrail`. */
export const GUARDRAIL_TYPE = KINDS.Guardrail.dynamicToken;
/** The type token of `GuardrailMemberAssignment`. */
export const MEMBER_ASSIGNMENT_TYPE = KINDS.GuardrailMemberAssignment.dynamicToken;
/** The type token of `GuardrailKeyAssignment`. */
export const KEY_ASSIGNMENT_TYPE = KINDS.GuardrailKeyAssignment.dynamicToken;
/** The type token of `WorkspaceDefaultGuardrail`. */
export const WORKSPACE_DEFAULT_TYPE = KINDS.WorkspaceDefaultGuardrail.dynamicToken;

/** The native face's type token of `Guardrail`. */
export const NATIVE_GUARDRAIL_TYPE = KINDS.Guardrail.nativeToken;
/** The native face's type token of `GuardrailMemberAssignment`. */
export const NATIVE_MEMBER_ASSIGNMENT_TYPE = KINDS.GuardrailMemberAssignment.nativeToken;
/** The native face's type token of `GuardrailKeyAssignment`. */
export const NATIVE_KEY_ASSIGNMENT_TYPE = KINDS.GuardrailKeyAssignment.nativeToken;
/** The native face's type token of `WorkspaceDefaultGuardrail`. */
export const NATIVE_WORKSPACE_DEFAULT_TYPE = KINDS.WorkspaceDefaultGuardrail.nativeToken;

/**
 * Which of the package's resources a type token names, and through which face; `undefined`
 * for any other token. Dynamic: exactly `pulumi-nodejs:dynamic/guardrails:<Type>`. Native: a
 * token of the package named `guardrails` (the engine serves it from the plugin
 * `pulumi-resource-guardrails`, or a package parameterized under that name) with one of our
 * type names, in any module (`guardrails:index:Guardrail` today; another module spelling is
 * refused by the plugin, but a reader that held it to nothing would be the weaker choice).
 * `x:index:Guardrail`, `guardrailsx:...` and a plugin renamed to another package are not ours.
 */
export function resourceOfToken(token: string): { face: "dynamic" | "native"; type: ResourceTypeName } | undefined {
  if (token.startsWith(PACKAGE_TYPE_PREFIX)) {
    const type = token.slice(PACKAGE_TYPE_PREFIX.length);
    return isTypeName(type) ? { face: "dynamic", type } : undefined;
  }
  const parts = token.split(":");
  if (parts.length !== 3 || parts[0] !== NATIVE_PACKAGE || !isTypeName(parts[2]!)) return undefined;
  return { face: "native", type: parts[2] };
}

/** The kind a dynamic-face token names (exactly `pulumi-nodejs:dynamic/guardrails:<Type>`); `undefined` for any other. */
export function dynamicKindOf(token: string): ResourceTypeName | undefined {
  const r = resourceOfToken(token);
  return r?.face === "dynamic" ? r.type : undefined;
}

/** The set row (kinds.ts: state key, arg name, ...) of a dynamic-face set's token; `undefined` for any other. */
export function dynamicSetOf(token: string): SetOf | undefined {
  const type = dynamicKindOf(token);
  const row = type && KINDS[type];
  return row && "set" in row ? row.set : undefined;
}
