/**
 * What changes for the people on a guardrail, setting by setting and element by element, with
 * each change judged by the loosening table (core/fields/loosening.ts). Which settings and
 * elements changed is the core's own diff: `changedProperties` (a model's alias and its
 * canonical slug are one model) and `keyedChanges` (lists by element, filters by slug or
 * pattern). The same comparison serves an update (a guardrail's recorded state against its
 * new inputs) and a move (the guardrail a member leaves, as it was, against the one it joins, as
 * it will be).
 */
import type { GuardrailInputs } from "../core/args/guardrail-args";
import { FIELD_NAMES, spec, type FieldName } from "../core/fields/fields";
import { LOOSENING, judgeElement, judgeWhole, type Judged } from "../core/fields/loosening";
import { changedProperties } from "../core/guardrail/changes";
import { keyedChanges } from "../core/guardrail/key-changes";
import { desired } from "../core/guardrail/bodies";
import { comparableInputs, comparableOutputs, type GuardrailOutputs } from "../core/guardrail/model";
import { CANONICAL_OUTPUT } from "../core/guardrail/model-lists";
import { isAnyUnknown } from "../core/markers";
import { isOpaque, isSecret } from "./values";

type Bag = Record<string, unknown>;

/** One side of a comparison: a guardrail's recorded outputs (when the preview has them) and its inputs. */
export interface Side {
  outputs?: Bag | undefined;
  inputs: Bag;
}

/** Fields whose value on either side cannot be read (a secret, or known after apply); a ZDR flag follows `enforceZdr`. */
function opaqueFields(...bags: Array<Bag | undefined>): Set<FieldName> {
  const out = new Set<FieldName>(
    FIELD_NAMES.filter((f) =>
      bags.some((b) => b && (isOpaque(b[f]) || isOpaque((b.args as Bag | undefined)?.[f]) || isCanonicalOpaque(b, f))),
    ),
  );
  if (out.has("enforceZdr")) for (const f of FIELD_NAMES) if (spec(f).fallback) out.add(f);
  return out;
}
const isCanonicalOpaque = (b: Bag, f: FieldName) =>
  f in CANONICAL_OUTPUT && isOpaque(b[CANONICAL_OUTPUT[f as keyof typeof CANONICAL_OUTPUT]]);

/** A bag without the opaque fields (and their copies in `args` and the canonical lists). */
function without(bag: Bag, opaque: Set<FieldName>): Bag {
  const out: Bag = { ...bag };
  for (const f of opaque) {
    delete out[f];
    if (f in CANONICAL_OUTPUT) delete out[CANONICAL_OUTPUT[f as keyof typeof CANONICAL_OUTPUT]];
  }
  if (out.args && typeof out.args === "object") out.args = without(out.args as Bag, opaque);
  return out;
}

/** Recorded outputs when the step has them (every real preview of a guardrail that exists); else the inputs in their place. */
const recorded = (side: Side, opaque: Set<FieldName>): GuardrailOutputs => {
  const asOutputs = () => ({
    ...side.inputs,
    ...Object.fromEntries(FIELD_NAMES.map((k) => [k, desired(side.inputs as GuardrailInputs, k)])),
    args: side.inputs,
  });
  const outs = side.outputs && "args" in side.outputs ? side.outputs : asOutputs();
  return without(outs, opaque) as unknown as GuardrailOutputs;
};

/** The element a keyed path names (`allowedModels["vendor-a/model-x"]`), or undefined for the whole property. */
const elementOf = (path: string, f: string): string | undefined =>
  path === f ? undefined : (JSON.parse(path.slice(f.length + 1, -1)) as string);

/** Each change from `before` to `after`, judged; opaque settings that differ are `unknown`. */
export function compareSides(before: Side, after: Side): Judged[] {
  const opaque = opaqueFields(before.outputs, before.inputs, after.inputs);
  const outs = recorded(before, opaque);
  const inputs = without(after.inputs, opaque) as GuardrailInputs;
  const [was, now] = [comparableOutputs(outs), comparableInputs(inputs)];
  const judged: Judged[] = [];
  for (const f of changedProperties(outs, inputs)) {
    if (opaque.has(f)) continue;
    const keyed = spec(f).kind === "scalar" ? undefined : keyedChanges(outs, inputs, f);
    if (!keyed || keyed.length === 0) {
      judged.push(...judgeWhole(f, was[f], now[f]));
      continue;
    }
    for (const c of keyed) {
      const element = elementOf(c.path, f);
      if (element === undefined) judged.push(...judgeWhole(f, was[f], now[f]));
      else
        judged.push(...judgeElement(f, element, c.kind as "add", find(was[f], f, element), find(now[f], f, element)));
    }
  }
  for (const f of FIELD_NAMES) {
    if (!opaque.has(f)) continue;
    const [b, a] = [before.inputs[f], after.inputs[f]];
    if (JSON.stringify(b) === JSON.stringify(a) && !isAnyUnknown(a)) continue;
    const what = isSecret(b) || isSecret(a) ? "secret, cannot compare" : "known only after apply";
    judged.push({
      field: f,
      what,
      before: b,
      after: a,
      direction: LOOSENING[f].kind === "neutral" ? "neutral" : "unknown",
    });
  }
  return judged;
}

/** A filter record by its slug or pattern; a list element by itself. */
function find(list: unknown, f: FieldName, element: string): unknown {
  if (!Array.isArray(list)) return undefined;
  const rule = LOOSENING[f];
  const key = rule.kind === "filters" ? rule.key : undefined;
  return key ? list.find((x) => (x as Bag)?.[key] === element) : list.includes(element) ? element : undefined;
}
