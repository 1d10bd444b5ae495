/**
 * Guardrail state in three shapes and the conversions between them: the user's inputs
 * (camelCase args), the service's record (wire), and the outputs Pulumi stores (every input
 * as the service holds it, plus the service's fields). `comparable` is what diff compares.
 * Every conversion walks the field table (core/fields/fields.ts); nothing here names a field.
 */
import { FIELD_NAMES, spec, type FieldName, type OutputValue } from "../fields/fields";
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrail } from "../client/wire";
import {
  answersOf as answersOrLegacy,
  CANONICAL_OUTPUT,
  MODEL_LISTS,
  recordedCanonical,
  sameSet,
  type ModelAnswers,
  type ModelList,
} from "./model-lists";
import { knownDefaultWorkspace } from "./workspace";
import { desired } from "./bodies";
import type { MappedPolicyIds, UnsyncedPolicy } from "./policy-drift";

/** What Pulumi stores as the Guardrail's outputs. `null` where the service holds nothing. */
export type GuardrailOutputs = { [K in FieldName]: OutputValue<K> } & {
  /** null only for a guardrail older than workspaces (docs/api-contract.md rule 10). */
  workspaceId: string | null;
  /** The canonical slugs the service holds; `allowedModels` echoes the program's identifiers. Missing in earlier state. */
  allowedModelsCanonical?: string[] | null;
  ignoredModelsCanonical?: string[] | null;
  createdAt: string;
  updatedAt: string | null;
  /**
   * The guardrail's own id. A policy's view of the stack holds each resource's outputs but not
   * its id, so `guardrails-require-member-set` reads it here to see where a member set's
   * members go. Missing in state written by earlier versions (until the next update or refresh).
   */
  guardrailId?: string;
  /**
   * Per model list, the canonical slugs the service answered to the identifiers last sent
   * (those are in `args`). Drift of a model list is a change against this answer.
   * Missing in state written by earlier versions, which held `modelAliases` instead.
   */
  modelAnswers?: ModelAnswers;
  /** Earlier versions' guessed identifier -> canonical map; read only, never written. */
  modelAliases?: Record<string, string>;
  /**
   * The id of the organization's default workspace, when known (the service answers it on a
   * create or adoption without `workspaceId`): an omitted `workspaceId` means this one.
   */
  defaultWorkspaceId?: string | null;
  /**
   * The program's args as last applied, in its own form: what `read` reports where nothing
   * drifted, and where the requested workspace, `adoptId` and the model identifiers last
   * sent are kept.
   */
  args: GuardrailInputs | null;
  /**
   * The kinds this guardrail sets whose policy was edited or deleted in Guardrail Policies, so
   * the service no longer takes them from it (policy-drift.ts). Recorded by refresh; absent
   * when none (and in state written before 0.6.0).
   */
  unsyncedPolicies?: UnsyncedPolicy[];
  /**
   * Per kind this guardrail sets, the policy the last refresh listed as its own (policy-drift.ts):
   * what tells a policy no longer listed from one never seen. Absent before the first refresh
   * (and in state written by earlier versions).
   */
  mappedPolicyIds?: MappedPolicyIds;
};

/** Properties that diff compares, in the user's names: every field of the table. */
export const COMPARED: readonly FieldName[] = FIELD_NAMES;
export type ComparedProperty = FieldName;
type Comparable = Record<FieldName, unknown>;

// biome-ignore lint/suspicious/noShadowRestrictedNames: a module-local helper; no caller here means Object.prototype.valueOf.
const valueOf = (bag: unknown, k: string): unknown => (bag as Record<string, unknown>)[k] ?? undefined;

/** The comparison key of one value; an unset value is what omission means, and so is `[]` (state recorded from an answer of `[]`; client/wire.ts). */
function key(k: FieldName, value: unknown): unknown {
  const v = (Array.isArray(value) && value.length === 0 ? null : value) ?? spec(k).absent ?? null;
  return v === null ? null : spec(k).compare(v as never);
}

/** The program's desired state, normalised for comparison. */
export function comparableInputs(inputs: GuardrailInputs): Comparable {
  return Object.fromEntries(COMPARED.map((k) => [k, key(k, desired(inputs, k))])) as Comparable;
}

/** The recorded (or live) state, normalised for comparison. */
export function comparableOutputs(outs: GuardrailOutputs): Comparable {
  const live = liveArgs(outs);
  return Object.fromEntries(COMPARED.map((k) => [k, key(k, live[k])])) as Comparable;
}

/**
 * Outputs from the service's record. With `inputs` (an answer to what this program sent,
 * or a state it now matches) the model lists are recorded as the service's answer to them;
 * without (a read), what `previous` recorded is kept.
 */
export function outputsFromWire(
  g: WireGuardrail,
  inputs: GuardrailInputs | undefined,
  previous?: GuardrailOutputs,
): GuardrailOutputs {
  const answers: ModelAnswers =
    inputs || !previous
      ? { allowedModels: g.allowed_models, ignoredModels: g.ignored_models }
      : answersOrLegacy(previous);
  const defaultWorkspaceId =
    inputs && !inputs.workspaceId ? g.workspace_id : previous ? knownDefaultWorkspace(previous) : null;
  const fields = Object.fromEntries(
    COMPARED.map((k) => {
      const w = valueOf(g, spec(k).wire);
      return [k, w === undefined ? null : spec(k).fromWire(w)];
    }),
  ) as { [K in FieldName]: OutputValue<K> };
  // A model list echoes the program's identifiers while the service holds their answer; the
  // canonical slugs go to their own output. After drift, the list shows what the service holds.
  const canonical = { allowedModelsCanonical: fields.allowedModels, ignoredModelsCanonical: fields.ignoredModels };
  const program = inputs ?? previous?.args;
  for (const list of MODEL_LISTS) {
    const held = canonical[CANONICAL_OUTPUT[list]];
    const theirs = program?.[list];
    if (theirs && (inputs || sameSet(held, answers[list]))) (fields as Record<ModelList, unknown>)[list] = [...theirs];
  }
  return {
    ...fields,
    ...canonical,
    workspaceId: g.workspace_id,
    guardrailId: g.id,
    createdAt: g.created_at,
    updatedAt: g.updated_at,
    modelAnswers: answers,
    defaultWorkspaceId,
    args: inputs ? (JSON.parse(JSON.stringify(inputs)) as GuardrailInputs) : (previous?.args ?? null),
  };
}

/** The live state as args: the form `read` reports for a property that drifted. */
function liveArgs(outs: GuardrailOutputs): Record<FieldName, unknown> {
  // State written before a field existed has no value for it: null, what omission means.
  const stored = (k: FieldName) =>
    (MODEL_LISTS as readonly string[]).includes(k) ? recordedCanonical(outs, k as ModelList) : valueOf(outs, k);
  return Object.fromEntries(
    COMPARED.map((k) => [k, ((v) => (v === undefined || v === null ? null : spec(k).toArg(v)))(stored(k))]),
  ) as Record<FieldName, unknown>;
}

/**
 * Inputs `read` reports: the program's last args, with each property that drifted replaced by
 * its live value. A refreshed preview then shows exactly the drift, in the program's terms.
 */
export function refreshedInputs(recorded: GuardrailOutputs, live: GuardrailOutputs): Record<string, unknown> {
  const was = comparableOutputs(recorded);
  const now = comparableOutputs(live);
  const args: Record<string, unknown> = { ...(recorded.args ?? {}) };
  const current = liveArgs(live);
  for (const p of COMPARED) {
    if (recorded.args && JSON.stringify(was[p]) === JSON.stringify(now[p])) continue;
    args[p] = current[p];
  }
  // A setting at null (cleared on the service, or so recorded) is left out: what omission means.
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));
}

/**
 * Inputs `read` reports for an import (no state): the args a program writes to hold exactly
 * what the service holds. A setting at what omission means is left out, as a person would
 * write it; the workspace is named, so the program previews with no change wherever the
 * default workspace is.
 */
export function importedInputs(live: GuardrailOutputs): Record<string, unknown> {
  const omitted = comparableInputs({ name: live.name } as GuardrailInputs);
  const now = comparableOutputs(live);
  const args = refreshedInputs(live, live);
  for (const p of COMPARED) if (p !== "name" && JSON.stringify(now[p]) === JSON.stringify(omitted[p])) delete args[p];
  return { ...args, ...(live.workspaceId ? { workspaceId: live.workspaceId } : {}) };
}
