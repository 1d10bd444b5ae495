/**
 * What differs between a recorded guardrail and the program: the properties diff reports
 * and update PATCHes, and whether a listed guardrail matches a create request.
 */
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrail } from "../client/wire";
import { spec } from "../fields/fields";
import { COMPARED, comparableInputs, comparableOutputs, outputsFromWire, type ComparedProperty, type GuardrailOutputs } from "./model";
import { couldAnswer, modelListChanged, type ModelList } from "./model-lists";

const isModelList = (p: ComparedProperty): p is ModelList => spec(p).kind === "modelSet";

/** Properties whose desired value differs from the recorded one (a program change or drift). */
export function changedProperties(outs: GuardrailOutputs, inputs: GuardrailInputs): ComparedProperty[] {
  const want = comparableInputs(inputs);
  const have = comparableOutputs(outs);
  return COMPARED.filter((p) => (isModelList(p) ? modelListChanged(outs, inputs, p) : JSON.stringify(want[p]) !== JSON.stringify(have[p])));
}

/**
 * Whether a listed guardrail holds exactly what a create with these inputs would leave: every
 * setting equal, and each model list one the service could have answered to the identifiers
 * sent (canonical forms, judged from the service's own answer; no catalogue is guessed).
 */
export function settingsMatch(g: WireGuardrail, inputs: GuardrailInputs): boolean {
  const want = comparableInputs(inputs);
  const have = comparableOutputs(outputsFromWire(g, undefined));
  return COMPARED.every((p) => (isModelList(p) ? couldAnswer(inputs[p], g[spec(p).wire as "allowed_models" | "ignored_models"]) : JSON.stringify(want[p]) === JSON.stringify(have[p])));
}
