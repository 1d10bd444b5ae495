/**
 * What a policy cannot see in the props CrossGuard hands it, recorded where it can.
 *
 * A validation sees a resource's inputs with secrets unwrapped and without `__provider` (the
 * engine strips internal keys). A remediation sees both: the SDK wraps each secret in its
 * `Secret` class and keeps `__provider`, the serialized dynamic provider. The engine runs every
 * remediation of a resource before its validations (a real run shows it, at preview and at
 * up). So `guardrails-provenance`, at level `remediate`, changes nothing and records per URN
 * (a) which of the package's resource kinds its provider is, whatever the type token
 * (`require("pulumi-guardrails/internal")[kind]`, the compatibility contract of shim.ts), and
 * (b) which top-level inputs hold a secret. The rules read that record.
 *
 * A pack config can set its level (`"all": "advisory"` does): it then records nothing, values
 * are not quoted, and each rule names each dynamic resource of another type token that it can
 * no longer tell apart, at the rule's own level, rather than let it pass unseen (`unrecorded`).
 *
 * The native face (issue 26) has no serialized provider: the engine sends a resource of the
 * package `guardrails` to the plugin, which picks the lifecycle by the type token. So a native
 * token alone says the kind (core/type-tokens.ts `resourceOfToken`), and a `__provider` in a
 * native resource's props is only an arg the program passed (the plugin's Check strips it): it
 * never changes the kind. The record still says which of its inputs are secret.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { KINDS, POLICY_TYPE_NAMES, TYPE_NAMES, type PolicyKind } from "../core/kinds";
import { WW_POLICY_TYPES } from "../core/policies/workspace-wide-args";
import { spec, type FieldName } from "../core/fields/fields";
import { DYNAMIC_TYPE_PREFIX, resourceOfToken } from "../core/type-tokens";
import { quoteName } from "./quote";
import { isAnyUnknown } from "../core/markers";

/** A resource kind of the package, in the pack's words (kinds.ts `policyKind`); `workspaceDefault` is a workspace's default guardrail. */
export type Kind = PolicyKind;

/** Whether a kind holds a guardrail's settings (a guardrail, a workspace's default guardrail): every settings rule holds it. */
export const holdsSettings = (kind: Kind | undefined): boolean =>
  TYPE_NAMES.some((t) => KINDS[t].settings && KINDS[t].policyKind === kind);
/**
 * What a settings rule calls a resource of this kind that holds `field` (`guardrail`, `budget
 * policy`, ...), or undefined when the kind does not hold it: a guardrail holds every setting, a
 * workspace policy (issue 40) those of its kind only (the field table's `policy` column), a
 * workspace-wide policy those of its `policyType` (read from `props`; one not known yet holds
 * the setting when its props carry it).
 */
export function settingsNoun(
  kind: Kind | undefined,
  field: FieldName,
  props: Record<string, unknown>,
): string | undefined {
  const of = spec(field).policy;
  const nounOf = (fields: unknown) => POLICY_TYPE_NAMES.find((t) => KINDS[t].policy.fields === fields);
  if (kind === KINDS.WorkspaceWidePolicy.policyKind) {
    const type = props.policyType;
    const fields =
      typeof type === "string" && Object.hasOwn(WW_POLICY_TYPES, type)
        ? WW_POLICY_TYPES[type as keyof typeof WW_POLICY_TYPES]
        : undefined;
    // A type not known yet (preview) may be any kind: every rule holds it (factory.ts checks it at up).
    if (fields === undefined)
      return props[field] === undefined && !isAnyUnknown(type) ? undefined : "workspace-wide policy";
    const row = nounOf(fields);
    return fields === of && row ? `workspace-wide ${KINDS[row].policy.noun}` : undefined;
  }
  for (const t of TYPE_NAMES) {
    const row: (typeof KINDS)[typeof t] = KINDS[t];
    if (row.policyKind !== kind) continue;
    if (row.settings) return kind === "workspaceDefault" ? "workspace default guardrail" : "guardrail";
    if ("policy" in row && row.policy.fields === of) return row.policy.noun;
  }
  return undefined;
}
/** Whether a kind is a member or key set. */
export const isSetKind = (kind: Kind | undefined): boolean =>
  TYPE_NAMES.some((t) => "set" in KINDS[t] && KINDS[t].policyKind === kind);

/** What the remediation saw of one resource. */
export interface Provenance {
  /** The kind its provider is, when the provider is one of the package's. */
  kind?: Kind;
  /** Top-level inputs holding a secret, at any depth. */
  secretKeys: ReadonlySet<string>;
}

/** URN -> what the remediation saw; one per `guardrailsPolicies()` call. */
export type ProvenanceRecords = Map<string, Provenance>;

export const PROVENANCE_POLICY = "guardrails-provenance";
/** The kind a type token names (either face), if it is one of the package's. */
const tokenKind = (type: string): Kind | undefined => {
  const r = resourceOfToken(type);
  return r && KINDS[r.type].policyKind;
};
/** Whether the token is the native face's: its kind is the token's, whatever its props say. */
export const isNativeToken = (type: string): boolean => resourceOfToken(type)?.face === "native";
/** The kind behind each name of `require("pulumi-guardrails/internal")` (dynamic/internal.ts). */
const INTERNAL_KINDS: Record<string, Kind> = Object.fromEntries(
  TYPE_NAMES.map((t) => [KINDS[t].internal, KINDS[t].policyKind]),
);

/**
 * The kind a serialized dynamic provider forwards to, if it loads this package: the kind named
 * as a word (`kind: "guardrail"`, `.guardrail.`). A provider that loads the package but names no
 * kind, or several, is taken for a guardrail: the rules then hold it to the strictest reading.
 */
export function providerKind(text: unknown): Kind | undefined {
  if (typeof text !== "string" || !text.includes("pulumi-guardrails")) return undefined;
  const named = Object.keys(INTERNAL_KINDS).filter((k) =>
    new RegExp(`(^|[^A-Za-z0-9_$-])${k}(?![A-Za-z0-9_$])`).test(text),
  );
  return named.length === 1 ? INTERNAL_KINDS[named[0]!] : "guardrail";
}

/** The resource's kind: a native token's; else its provider's when the record has one, else its type token's. */
export function kindOf(type: string, record: Provenance | undefined): Kind | undefined {
  if (isNativeToken(type)) return tokenKind(type);
  return record?.kind ?? tokenKind(type);
}

const PROXY_TARGET = "__getSpecialProxyTarget";

/** The object behind the SDK's proxies (unknown-checking, then secrets-preserving). */
function rawTarget(props: unknown): Record<string, unknown> {
  let t = props as Record<string, unknown>;
  for (let i = 0; i < 4 && t && typeof t === "object"; i++) {
    const inner = t[PROXY_TARGET] as Record<string, unknown> | undefined;
    if (!inner || inner === t) break;
    t = inner;
  }
  return t && typeof t === "object" ? t : {};
}

/** The policy SDK's `Secret` wrapper, recognised by shape (this package does not load the SDK). */
const isSecret = (v: unknown): v is { value: unknown } =>
  !!v &&
  typeof v === "object" &&
  (v as object).constructor?.name === "Secret" &&
  Object.keys(v).length === 1 &&
  "value" in v;

function holdsSecret(v: unknown, depth = 0): boolean {
  if (isSecret(v)) return true;
  if (!v || typeof v !== "object" || depth > 32) return false;
  return Object.values(v).some((x) => holdsSecret(x, depth + 1));
}

/** What a remediation's props say: the kind of its provider and its secret inputs. */
export function provenanceOf(props: unknown): Provenance {
  const raw = rawTarget(props);
  const secretKeys = new Set(Object.keys(raw).filter((k) => holdsSecret(raw[k])));
  const provider = isSecret(raw.__provider) ? raw.__provider.value : raw.__provider;
  const kind = providerKind(provider);
  return kind ? { kind, secretKeys } : { secretKeys };
}

/**
 * Whether a resource is one the rules cannot place: a dynamic resource of another type token
 * with no record (the recording policy did not run at level `remediate`). It might be a
 * guardrail made through the package, so each rule names it at its own level rather than let
 * it pass unseen (a pack config that sets only this policy's level must not turn a mandatory
 * rule into a warning).
 */
export const unrecorded = (type: string, record: Provenance | undefined): boolean =>
  !record && type.startsWith(DYNAMIC_TYPE_PREFIX) && !tokenKind(type);

/** What a rule says of a resource it cannot place (`unrecorded`). */
export const unrecordedMessage = (type: string, name: string, policy: string) =>
  `dynamic resource ${quoteName(name)} (type ${quoteName(type)}): cannot tell whether it is a guardrail, so ${policy} could not check it: ${PROVENANCE_POLICY} did not run at level remediate (a pack config set its level); set {"${PROVENANCE_POLICY}": {"enforcementLevel": "remediate"}}`;

/** The recording policy. Level `remediate` always: the options' levels do not apply to it. */
export function provenancePolicy(records: ProvenanceRecords): ResourceValidationPolicy {
  return {
    name: PROVENANCE_POLICY,
    description:
      "Records which resources pulumi-guardrails's provider manages, whatever their type token, and which of their inputs are secret; changes nothing. Keep it at remediate: the other rules rely on it.",
    enforcementLevel: "remediate",
    remediateResource: (args) => {
      records.set(args.urn, provenanceOf(args.props));
      return undefined;
    },
  };
}
