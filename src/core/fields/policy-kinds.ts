/**
 * The three Guardrail Policy kinds as the service names them, and what each takes from the field
 * table: its fields (the table's `policy` column, never a second list) and the `config` a create
 * or update carries (docs/api-contract.md rules 22, 24 and 31).
 */
import { POLICY_KINDS, type PolicyKind } from "./field-spec";
import { FIELD_NAMES, type PolicyFieldName, spec, type WireName, type WireValue } from "./fields";
import { type SettingsBag, wireValue } from "./values";

export { POLICY_KINDS, type PolicyKind, type PolicyFieldName };

/** The service's words for each kind: `policy_type` (underscore) and the path segment (hyphen, rule 22). */
export const POLICY_WIRE = {
  budget: { policyType: "budget", segment: "budget" },
  modelAvailability: { policyType: "model_availability", segment: "model-availability" },
  moderation: { policyType: "moderation", segment: "moderation" },
} as const satisfies Record<PolicyKind, { policyType: string; segment: string }>;

/** A kind's `policy_type`. */
export type PolicyType<P extends PolicyKind = PolicyKind> = (typeof POLICY_WIRE)[P]["policyType"];

/** The kind a `policy_type` names; `undefined` for one this package does not know (an open enum, rule 23: `rate_limit`). */
export function policyKindOf(policyType: string): PolicyKind | undefined {
  return POLICY_KINDS.find((k) => POLICY_WIRE[k].policyType === policyType);
}

/** The program's word for each kind (the resources' names: `ModelAccessPolicy`), and the field table's. */
export const WW_POLICY_TYPES = {
  budget: "budget",
  modelAccess: "modelAvailability",
  moderation: "moderation",
} as const satisfies Record<string, PolicyKind>;

/** Each kind's fields, in table order, from the table's `policy` column. */
export const POLICY_FIELDS = Object.fromEntries(
  POLICY_KINDS.map((p) => [p, FIELD_NAMES.filter((k) => spec(k).policy === p)]),
) as unknown as { readonly [P in PolicyKind]: readonly PolicyFieldName<P>[] };

/** The policy kind a field belongs to; null for `name` and `description`. */
export const policyKindOfField = (k: (typeof FIELD_NAMES)[number]): PolicyKind | null => spec(k).policy ?? null;

/** A kind's `config` as a create or update sends it: every field of the kind, `null` where unset. */
export type PolicyConfigWrite<P extends PolicyKind> = { [K in PolicyFieldName<P> as WireName<K>]: WireValue<K> | null };

/**
 * The `config` of a create or update from a program's settings: every field of the kind, sent
 * whole. An update replaces `config` whole (rule 24), so an omitted field must say `null` (or
 * what omission means, e.g. `include_byok_in_budgets: false`) rather than be left out; the ZDR
 * flags travel explicit, each falling back to `enforceZdr` as a guardrail's do. Fields of
 * other kinds in `inputs` are ignored (check refuses them before this runs).
 */
export function policyConfig<P extends PolicyKind>(kind: P, inputs: SettingsBag): PolicyConfigWrite<P> {
  return Object.fromEntries(
    POLICY_FIELDS[kind].map((k) => [spec(k).wire, wireValue(inputs, k)]),
  ) as PolicyConfigWrite<P>;
}
