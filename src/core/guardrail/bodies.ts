/**
 * What the program asks the service to hold, and the request bodies a Guardrail sends of it,
 * from the field table: a PATCH holds only what changed (a collection goes whole, `null`
 * clears), a create holds what the program gives. Diff compares the same desired values
 * (model.ts), so a body and a comparison never disagree on what was asked.
 */
import { FIELD_NAMES, spec, type FieldName } from "../fields/fields";
import { desired, given, wireValue } from "../fields/values";
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrailCreate, WireGuardrailUpdate } from "../client/wire";

/** Re-exported where callers have always found them; the field table's values (fields/values.ts). */
export { desired, given };

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
