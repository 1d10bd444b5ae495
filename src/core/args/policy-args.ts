/**
 * The settings a Guardrail Policy of each kind takes, as zod: the guardrail's own arg schemas
 * (guardrail-args.ts) for the fields the table's `policy` column gives the kind, never a second
 * list (docs/api-contract.md rule 31). The resources of issue 40 build their args on these.
 */
import type { z } from "zod";
import { POLICY_FIELDS, type PolicyFieldName, type PolicyKind } from "../fields/policy-kinds";
import { guardrailSettingsShape, limitNeedsInterval } from "./guardrail-args";

type SettingsShape = typeof guardrailSettingsShape;
/** The arg schemas of one kind's settings, keyed by the program's names. */
export type PolicySettingsShape<P extends PolicyKind> = { [K in PolicyFieldName<P>]: SettingsShape[K] };

/** One kind's settings shape: each field optional (omitted and `null` mean "not set"), as on a Guardrail. */
export function policySettingsShape<P extends PolicyKind>(kind: P): PolicySettingsShape<P> {
  return Object.fromEntries(POLICY_FIELDS[kind].map((k) => [k, guardrailSettingsShape[k]])) as PolicySettingsShape<P>;
}

/** Every kind's settings shape, built once. */
export const POLICY_SETTINGS_SHAPES: { readonly [P in PolicyKind]: PolicySettingsShape<P> } = {
  budget: policySettingsShape("budget"),
  modelAvailability: policySettingsShape("modelAvailability"),
  moderation: policySettingsShape("moderation"),
};

/** What one kind's settings parse to. */
export type PolicySettings<P extends PolicyKind> = z.output<z.ZodObject<PolicySettingsShape<P>>>;

/** A spending limit and its reset interval go together in a budget policy as in a guardrail (rule 14). */
export { limitNeedsInterval };
