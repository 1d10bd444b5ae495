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
import { keyPath, type PropertyChange } from "../results";

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
 * The changed properties as the core's diff names them (results.ts): each by its name, the
 * builtin content filters by slug (`contentFilterBuiltins["email"]` added, deleted or updated),
 * unless that arg is secret: then only its name, since the slugs it holds are part of it.
 */
export function propertyChanges(
  outs: GuardrailOutputs,
  inputs: GuardrailInputs,
  changed: readonly ComparedProperty[],
  isSecret: (arg: string) => boolean,
): PropertyChange[] {
  return changed.flatMap((p): PropertyChange[] => {
    const slugs = p === "contentFilterBuiltins" && !isSecret(p) ? builtinChanges(outs, inputs) : [];
    // A list that compares equal slug by slug (a slug repeated) is still a change: named whole.
    return slugs.length > 0 ? slugs : [{ path: p, kind: "update" }];
  });
}

/** Builtin filters keyed by slug, as diff compares them. */
function bySlug(list: unknown): Map<string, string> {
  return new Map(((list ?? []) as { slug: string }[]).map((b) => [b.slug, JSON.stringify(b)]));
}

function builtinChanges(outs: GuardrailOutputs, inputs: GuardrailInputs): PropertyChange[] {
  const want = bySlug(comparableInputs(inputs).contentFilterBuiltins);
  const have = bySlug(comparableOutputs(outs).contentFilterBuiltins);
  const slugs = [...new Set([...want.keys(), ...have.keys()])].sort();
  return slugs.flatMap((slug): PropertyChange[] => {
    const path = keyPath("contentFilterBuiltins", slug);
    if (!have.has(slug)) return [{ path, kind: "add" }];
    if (!want.has(slug)) return [{ path, kind: "delete" }];
    return want.get(slug) === have.get(slug) ? [] : [{ path, kind: "update" }];
  });
}
