/**
 * What `pulumi preview --json` handed the summary, checked before anything is summarised: a
 * preview that failed, or input that is not a preview at all, must never read as "no changes".
 */

interface State {
  id?: unknown;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  /** The URNs the `guardrailId` input came from (its `propertyDependencies`): names a set's guardrail while its id is unknown. */
  guardrailFrom?: string[];
}
/** One step of the preview: the operation on a resource, with its old and new state where the engine gave them. */
export interface PreviewStep {
  op: string;
  urn: string;
  oldState?: State;
  newState?: State;
}
/** The part of `pulumi preview --json` that the summary reads (everything else is ignored). */
export interface PreviewJson {
  steps?: PreviewStep[];
  diagnostics?: Array<{ severity?: string; message?: string; urn?: string }>;
}

/** A usable preview, or why it is not one. */
export type PreviewInput =
  | { ok: true; steps: PreviewStep[] }
  /** `steps`: what the engine planned before it failed, when it wrote them (a mandatory policy stops a preview so). */
  | { ok: false; reason: string; errors: string[]; steps?: PreviewStep[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** At most this many error diagnostics are quoted in a failed summary. */
const MAX_ERRORS = 10;

/** Checks the parsed JSON: error diagnostics, a missing or malformed `steps`, or a non-object all make it "failed". */
export function readPreview(input: unknown): PreviewInput {
  if (!isObject(input))
    return {
      ok: false,
      reason: `the input is not the JSON object of \`pulumi preview --json\` (got ${input === null ? "null" : Array.isArray(input) ? "a list" : typeof input})`,
      errors: [],
    };
  const diagnostics = Array.isArray(input.diagnostics) ? input.diagnostics : [];
  const errors = diagnostics
    .filter((d): d is { severity: string; message?: unknown } => isObject(d) && d.severity === "error")
    .map((d) => (typeof d.message === "string" ? d.message : "(an error without a message)"));
  const steps = readSteps(input);
  if (errors.length > 0)
    return {
      ok: false,
      reason: `the preview reported ${errors.length} error(s)`,
      errors: errors.slice(0, MAX_ERRORS),
      ...(Array.isArray(steps) ? { steps } : {}),
    };
  return Array.isArray(steps) ? { ok: true, steps } : { ok: false, reason: steps, errors: [] };
}

/** The steps, or why there are none to read. */
function readSteps(input: Record<string, unknown>): PreviewStep[] | string {
  if (!("steps" in input))
    return "the input has no `steps`: not the output of `pulumi preview --json`, or a preview that did not finish";
  if (!Array.isArray(input.steps)) return "`steps` is not a list";
  const steps: PreviewStep[] = [];
  for (const [i, s] of input.steps.entries()) {
    if (!isObject(s) || typeof s.op !== "string" || typeof s.urn !== "string")
      return `step ${i} has no \`op\` and \`urn\` strings`;
    steps.push({ op: s.op, urn: s.urn, ...state("oldState", s.oldState), ...state("newState", s.newState) });
  }
  // `--show-replacement-steps` adds a replacement's halves beside its `replace` step, which holds both states.
  const replaced = new Set(steps.filter((s) => s.op === "replace").map((s) => s.urn));
  return steps.filter((s) => !(REPLACEMENT_HALVES.has(s.op) && replaced.has(s.urn)));
}
const REPLACEMENT_HALVES = new Set(["create-replacement", "delete-replaced"]);

function state(key: "oldState" | "newState", v: unknown): Partial<Record<typeof key, State>> {
  if (!isObject(v)) return {};
  const deps = isObject(v.propertyDependencies) ? v.propertyDependencies.guardrailId : undefined;
  const from = Array.isArray(deps) ? deps.filter((u): u is string => typeof u === "string") : [];
  return {
    [key]: {
      id: v.id,
      inputs: isObject(v.inputs) ? v.inputs : {},
      outputs: isObject(v.outputs) ? v.outputs : {},
      ...(from.length ? { guardrailFrom: from } : {}),
    },
  };
}
