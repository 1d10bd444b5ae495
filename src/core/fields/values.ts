/**
 * What a program's settings ask the service to hold, field by field: the value given, the one a
 * field falls back to, and what omission means, in the service's form. Shared by every body
 * built from the field table (a guardrail's create and PATCH, guardrail/bodies.ts; a policy's
 * `config`, policy-kinds.ts), so a body and a comparison never disagree on what was asked.
 */
import { spec, type FieldName } from "./fields";

/** A program's settings after `check`: field name to value, absent or `undefined` when not set. */
export type SettingsBag = Readonly<{ [K in FieldName]?: unknown }>;

// biome-ignore lint/suspicious/noShadowRestrictedNames: a module-local helper; no caller here means Object.prototype.valueOf.
const valueOf = (bag: SettingsBag, k: FieldName): unknown => bag[k] ?? undefined;

/** What the program gives for a field: its own value, else the one it falls back to (docs/api-contract.md, spec rules 2-3). */
export function given(inputs: SettingsBag, k: FieldName): unknown {
  const fallback = spec(k).fallback;
  return valueOf(inputs, k) ?? (fallback ? valueOf(inputs, fallback) : undefined);
}

/** The value the program asks the service to hold: what it gives, else what omission means. */
export function desired(inputs: SettingsBag, k: FieldName): unknown {
  return given(inputs, k) ?? spec(k).absent ?? null;
}

/** One field's wire value; `null` clears. */
export function wireValue(inputs: SettingsBag, k: FieldName): unknown {
  const v = desired(inputs, k);
  return v === null ? null : spec(k).toWire(v as never);
}
