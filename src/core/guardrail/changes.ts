/**
 * What differs between a recorded guardrail and the program: the properties diff reports
 * and update PATCHes, and whether a listed guardrail matches a create request.
 */
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrail } from "../client/wire";
import { spec } from "../fields/fields";
import {
  COMPARED,
  comparableInputs,
  comparableOutputs,
  outputsFromWire,
  type ComparedProperty,
  type GuardrailOutputs,
} from "./model";
import { couldAnswer, modelListChanged, type ModelList } from "./model-lists";
import type { PropertyChange } from "../results";
import { keyedChanges } from "./key-changes";

const isModelList = (p: ComparedProperty): p is ModelList => spec(p).kind === "modelSet";

/** Properties whose desired value differs from the recorded one (a program change or drift). */
export function changedProperties(outs: GuardrailOutputs, inputs: GuardrailInputs): ComparedProperty[] {
  const want = comparableInputs(inputs);
  const have = comparableOutputs(outs);
  return COMPARED.filter((p) =>
    isModelList(p) ? modelListChanged(outs, inputs, p) : JSON.stringify(want[p]) !== JSON.stringify(have[p]),
  );
}

/**
 * Properties a guardrail the service holds (`live`, never recorded by this program: an
 * adoption) differs in from the program. With no record of what identifiers made its model
 * lists, the program's are compared with the service's canonical slugs literally.
 */
export function liveChanges(live: WireGuardrail, inputs: GuardrailInputs): ComparedProperty[] {
  return changedProperties(outputsFromWire(live, undefined), inputs);
}

/**
 * Whether a listed guardrail holds exactly what a create with these inputs would leave: every
 * setting equal, and each model list one the service could have answered to the identifiers
 * sent (canonical forms, judged from the service's own answer; no catalogue is guessed).
 */
export function settingsMatch(g: WireGuardrail, inputs: GuardrailInputs): boolean {
  const want = comparableInputs(inputs);
  const have = comparableOutputs(outputsFromWire(g, undefined));
  return COMPARED.every((p) =>
    isModelList(p)
      ? couldAnswer(inputs[p], g[spec(p).wire as "allowed_models" | "ignored_models"])
      : JSON.stringify(want[p]) === JSON.stringify(have[p]),
  );
}

/**
 * The changed properties as the core's diff names them (results.ts): a scalar by its name, a
 * list setting by the entries that changed (key-changes.ts), unless that arg is secret: then
 * only its name, since the keys it holds are part of it.
 */
export function propertyChanges(
  outs: GuardrailOutputs,
  inputs: GuardrailInputs,
  changed: readonly ComparedProperty[],
  isSecret: (arg: string) => boolean,
): PropertyChange[] {
  return changed.flatMap((p): PropertyChange[] => {
    const keyed = isSecret(p) ? undefined : keyedChanges(outs, inputs, p);
    // A list that compares equal key by key (a key repeated) is still a change: named whole.
    return keyed && keyed.length > 0 ? keyed : [{ path: p, kind: "update" }];
  });
}
