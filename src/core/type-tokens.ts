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
/** The type token of `WorkspaceDefaultGuardrail`. */
export const WORKSPACE_DEFAULT_TYPE = `${PACKAGE_TYPE_PREFIX}WorkspaceDefaultGuardrail` as const;

/** The native face's package name: its tokens are `guardrails:index:<Type>`. */
export const NATIVE_PACKAGE = "guardrails";
/** The native face's type token of `Guardrail`. */
export const NATIVE_GUARDRAIL_TYPE = "guardrails:index:Guardrail";
/** The native face's type token of `GuardrailMemberAssignment`. */
export const NATIVE_MEMBER_ASSIGNMENT_TYPE = "guardrails:index:GuardrailMemberAssignment";
/** The native face's type token of `GuardrailKeyAssignment`. */
export const NATIVE_KEY_ASSIGNMENT_TYPE = "guardrails:index:GuardrailKeyAssignment";
/** The native face's type token of `WorkspaceDefaultGuardrail`. */
export const NATIVE_WORKSPACE_DEFAULT_TYPE = "guardrails:index:WorkspaceDefaultGuardrail";

/** The package's resource types, by the last part of a token. */
export type ResourceTypeName =
  | "Guardrail"
  | "GuardrailMemberAssignment"
  | "GuardrailKeyAssignment"
  | "WorkspaceDefaultGuardrail";
const TYPE_NAMES: readonly string[] = [
  "Guardrail",
  "GuardrailMemberAssignment",
  "GuardrailKeyAssignment",
  "WorkspaceDefaultGuardrail",
];

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
    return TYPE_NAMES.includes(type) ? { face: "dynamic", type: type as ResourceTypeName } : undefined;
  }
  const parts = token.split(":");
  if (parts.length !== 3 || parts[0] !== NATIVE_PACKAGE || !TYPE_NAMES.includes(parts[2]!)) return undefined;
  return { face: "native", type: parts[2] as ResourceTypeName };
}
