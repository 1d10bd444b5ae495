/**
 * What adopting will change, said at preview (issue 14). A resource with `adoptId` previews as
 * a create, and its `up` PATCHes every field where the guardrail differs from the program; a
 * hand-set value would be overwritten with no word before. So `check` of a resource that is
 * not yet in state reads the guardrail and warns, naming each field it will overwrite with
 * the value it holds now. Reading is best effort: a failure here says nothing (the create
 * reports it with its own message).
 */
import type { GuardrailsClient } from "../client/client";
import type { GuardrailInputs } from "../args/guardrail-args";
import { changedProperties } from "./changes";
import { outputsFromWire } from "./model";
import { escapeInvisible } from "../text/controls";

const MAX_VALUE = 80;
/** A value the service holds, as JSON with what JSON leaves raw escaped (text/controls.ts), cut. */
const show = (v: unknown) => {
  const text = v === undefined || v === null ? "none" : escapeInvisible(JSON.stringify(v));
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
};

/** The warning for adopting `inputs.adoptId`, or undefined when adopting changes nothing (or the read failed). */
export async function adoptionWarning(client: GuardrailsClient, inputs: GuardrailInputs): Promise<string | undefined> {
  if (!inputs.adoptId) return undefined;
  try {
    const live = outputsFromWire(await client.getGuardrail(inputs.adoptId), undefined);
    const changed = changedProperties(live, inputs);
    if (changed.length === 0) return undefined;
    const fields = changed.map((f) => `${f} (now ${show((live as Record<string, unknown>)[f])})`).join(", ");
    return `warning: guardrail "${inputs.name}": adopting ${inputs.adoptId} will overwrite ${changed.length === 1 ? "a field" : `${changed.length} fields`} set outside this program: ${fields}`;
  } catch {
    return undefined;
  }
}
