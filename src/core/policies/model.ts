/**
 * A workspace policy in three shapes: the program's args, the service's record, and the outputs
 * Pulumi stores (everything as the service holds it, the program's last args, and what the
 * service answered to the last write). Every conversion walks the kind's fields of the field
 * table; nothing here names a setting.
 */
import { spec, type FieldName } from "../fields/fields";
import { KINDS, type PolicyTypeName } from "../kinds";
import { ID_LISTS, type IdList, type PolicyInputs } from "./args";
import { POLICY_FIELDS, policyConfig } from "../fields/policy-kinds";
import { desired } from "../fields/values";
import type { WirePolicy, WirePolicyDetail } from "./ops";

/** The settings a kind's resource takes, in table order. */
export const fieldsOf = (type: PolicyTypeName): readonly FieldName[] => POLICY_FIELDS[KINDS[type].policy.fields];
export { desired };

/** The wire name of each id list, as the detail record and the bodies spell it. */
export const LIST_WIRE: Record<IdList, keyof WirePolicyDetail & string> = {
  memberUserIds: "member_ids",
  keyHashes: "api_key_hashes",
  optedOutMemberUserIds: "opted_out_member_ids",
  optedOutKeyHashes: "opted_out_api_key_hashes",
};

/** The outputs beside the args and settings, which the dynamic classes declare. */
export const POLICY_OUTPUT_NAMES = [
  ...ID_LISTS,
  "policyId",
  "workspaceDefault",
  "overriddenMemberUserIds",
  "overriddenKeyHashes",
  "legacyGuardrailIds",
  "reference",
  "updatedAt",
] as const;

/** What Pulumi stores. */
export type PolicyOutputs = Record<FieldName, unknown> & {
  [L in IdList]: string[];
} & {
  workspaceId: string;
  policyId: string;
  name: string;
  workspaceDefault: boolean;
  overriddenMemberUserIds: string[];
  overriddenKeyHashes: string[];
  legacyGuardrailIds: string[];
  reference: string | null;
  updatedAt: string | null;
  /** The program's args as last applied. */
  args: PolicyInputs;
  /** Each setting's comparison key as the service answered the last write: drift is a change against it. */
  written: Partial<Record<FieldName, unknown>>;
};

// biome-ignore lint/suspicious/noShadowRestrictedNames: a module-local helper; no caller here means Object.prototype.valueOf.
const valueOf = (bag: unknown, k: string): unknown => (bag as Record<string, unknown> | undefined)?.[k] ?? undefined;

/** The comparison key of one value; unset and `[]` are what omission means. */
export function key(k: FieldName, value: unknown): string {
  const v = (Array.isArray(value) && value.length === 0 ? null : value) ?? spec(k).absent ?? null;
  return JSON.stringify(v === null ? null : spec(k).compare(v as never));
}

/** The `config` a create or update sends: every field of the kind, whole (an update replaces it, rule 24). */
export const configBody = (type: PolicyTypeName, inputs: PolicyInputs) =>
  policyConfig(KINDS[type].policy.fields, inputs) as Record<string, unknown>;

/** The settings of a record's `config`, in the program's names (null where unset). */
export function settingsOf(
  type: PolicyTypeName,
  config: Record<string, unknown> | undefined,
): Record<FieldName, unknown> {
  return Object.fromEntries(
    fieldsOf(type).map((k) => {
      const w = valueOf(config, spec(k).wire);
      return [k, w === undefined || w === null ? null : spec(k).fromWire(w as never)];
    }),
  ) as Record<FieldName, unknown>;
}

/** Each setting's comparison key. */
export const writtenKeys = (type: PolicyTypeName, settings: Record<string, unknown>) =>
  Object.fromEntries(fieldsOf(type).map((k) => [k, key(k, settings[k])]));

/** A list as a sorted set. */
export const asSet = (xs: readonly string[] | null | undefined): string[] => [...new Set(xs ?? [])].sort();
export const sameSet = (a: readonly string[] | null | undefined, b: readonly string[] | null | undefined) =>
  JSON.stringify(asSet(a)) === JSON.stringify(asSet(b));

/** Outputs from a detail record (a read) or from a write's answer and what it sent (`lists`). */
export function outputsOf(
  type: PolicyTypeName,
  workspaceId: string,
  p: WirePolicy & Partial<WirePolicyDetail>,
  args: PolicyInputs,
  written: Partial<Record<FieldName, unknown>> | undefined,
): PolicyOutputs {
  const settings = settingsOf(type, p.config);
  const lists = Object.fromEntries(ID_LISTS.map((l) => [l, asSet(valueOf(p, LIST_WIRE[l]) as string[])]));
  return {
    ...settings,
    ...(lists as Record<IdList, string[]>),
    workspaceId,
    policyId: p.id,
    name: p.name,
    workspaceDefault: p.is_workspace_default === true,
    overriddenMemberUserIds: asSet(p.overridden_member_ids),
    overriddenKeyHashes: asSet(p.overridden_api_key_hashes),
    legacyGuardrailIds: [...(p.legacy_guardrail_ids ?? [])],
    reference: p.reference ?? null,
    updatedAt: p.updated_at ?? null,
    args: JSON.parse(JSON.stringify(args)) as PolicyInputs,
    written: written ?? writtenKeys(type, settings),
  };
}

/** A recorded setting in the program's form, or undefined when unset. */
const asArg = (k: FieldName, v: unknown) => (v === null || v === undefined ? undefined : spec(k).toArg(v as never));

/**
 * The inputs `read` reports: the program's last args with each setting that drifted, each
 * managed list and the default flag as the service holds them; for an import (no args), the
 * args a program writes to hold exactly what the service holds.
 */
export function refreshedInputs(
  type: PolicyTypeName,
  outs: PolicyOutputs,
  importing: boolean,
): Record<string, unknown> {
  const args: Record<string, unknown> = importing
    ? { workspaceId: outs.workspaceId, name: outs.name }
    : { ...outs.args, name: outs.name };
  for (const k of fieldsOf(type)) {
    const now = key(k, outs[k]);
    if (!importing && now === outs.written[k]) continue;
    if (importing && now === key(k, null)) continue;
    args[k] = asArg(k, outs[k]);
  }
  for (const l of ID_LISTS) if (importing || args[l] !== undefined) args[l] = [...outs[l]];
  if (importing || args.workspaceDefault !== undefined || outs.workspaceDefault)
    args.workspaceDefault = outs.workspaceDefault;
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null));
}
