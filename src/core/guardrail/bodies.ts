/**
 * What the program asks the service to hold, and the request bodies a Guardrail sends of it,
 * from the field table: a PATCH holds only what changed (a collection goes whole, `null`
 * clears), a create holds what the program gives. Diff compares the same desired values
 * (model.ts), so a body and a comparison never disagree on what was asked.
 */
import { FIELD_NAMES, spec, type FieldName } from "../fields/fields";
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrailCreate, WireGuardrailUpdate } from "../client/wire";

// biome-ignore lint/suspicious/noShadowRestrictedNames: a module-local helper; no caller here means Object.prototype.valueOf.
const valueOf = (bag: unknown, k: string): unknown => (bag as Record<string, unknown>)[k] ?? undefined;

/** What the program gives for a field: its own value, else the one it falls back to (docs/api-contract.md, spec rules 2-3). */
export function given(inputs: GuardrailInputs, k: FieldName): unknown {
  const fallback = spec(k).fallback;
  return valueOf(inputs, k) ?? (fallback ? valueOf(inputs, fallback) : undefined);
}

/** The value the program asks the service to hold: what it gives, else what omission means. */
export function desired(inputs: GuardrailInputs, k: FieldName): unknown {
  return given(inputs, k) ?? spec(k).absent ?? null;
}

/** One field's wire value; `null` clears. */
function wireValue(inputs: GuardrailInputs, k: FieldName): unknown {
  const v = desired(inputs, k);
  return v === null ? null : spec(k).toWire(v as never);
}

/**
 * PATCH body holding only what changed. Fields of a group travel together, every one
 * explicit, so the service's fallback from `enforce_zdr` never decides anything the program
 * did not say.
 */
export function patchBody(inputs: GuardrailInputs, changed: readonly FieldName[]): WireGuardrailUpdate {
  const groups = new Set(changed.map((k) => spec(k).group).filter(Boolean));
  const sent = FIELD_NAMES.filter((k) => changed.includes(k) || groups.has(spec(k).group));
  return Object.fromEntries(sent.map((k) => [spec(k).wire, wireValue(inputs, k)])) as WireGuardrailUpdate;
}

/** POST body: every field the program gives (an omitted one is the service's default anyway). */
export function createBody(inputs: GuardrailInputs): WireGuardrailCreate {
  const set = FIELD_NAMES.filter((k) => given(inputs, k) !== undefined);
  const body = Object.fromEntries(set.map((k) => [spec(k).wire, wireValue(inputs, k)])) as WireGuardrailCreate;
  return { ...body, ...(inputs.workspaceId ? { workspace_id: inputs.workspaceId } : {}) };
}
