/**
 * Guardrail state in three shapes and the conversions between them: the user's inputs
 * (camelCase args), the service's record (wire), and the outputs Pulumi stores (every input
 * as the service holds it, plus the service's fields). `comparable` is what diff compares.
 */
import { PROMPT_INJECTION_SLUG, type BuiltinSlug, type FilterAction, type ResetInterval, type ScanScope } from "../args/constants";
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrail, WireGuardrailCreate, WireGuardrailUpdate } from "../client/wire";
import { answersOf as answersOrLegacy, sortedSet, type ModelAnswers } from "./model-lists";
import { knownDefaultWorkspace } from "./workspace";

/** What Pulumi stores as the Guardrail's outputs. `null` where the service holds nothing. */
export interface GuardrailOutputs {
  name: string;
  description: string | null;
  workspaceId: string;
  allowedModels: string[] | null;
  allowedProviders: string[] | null;
  ignoredModels: string[] | null;
  ignoredProviders: string[] | null;
  limitUsd: number | null;
  resetInterval: ResetInterval | null;
  enforceZdrVendorA: boolean | null;
  enforceZdrVendorB: boolean | null;
  enforceZdrVendorC: boolean | null;
  enforceZdrOther: boolean | null;
  enforceZdr: boolean | null;
  contentFilterBuiltins: Array<{ slug: BuiltinSlug; action: FilterAction; scanScope?: ScanScope; label?: string }> | null;
  contentFilters: Array<{ pattern: string; action: FilterAction; label?: string }> | null;
  createdAt: string;
  updatedAt: string | null;
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
}

const ZDR_VENDORS = ["enforceZdrVendorA", "enforceZdrVendorB", "enforceZdrVendorC", "enforceZdrOther"] as const;
const ZDR_WIRE = {
  enforceZdrVendorA: "enforce_zdr_vendor_a",
  enforceZdrVendorB: "enforce_zdr_vendor_b",
  enforceZdrVendorC: "enforce_zdr_vendor_c",
  enforceZdrOther: "enforce_zdr_other",
} as const;

/** The effective per-vendor value: explicit wins, else the deprecated `enforceZdr` (spec rules 2-3). */
export function effectiveZdr(inputs: GuardrailInputs, vendor: (typeof ZDR_VENDORS)[number]): boolean | null {
  return inputs[vendor] ?? inputs.enforceZdr ?? null;
}

/** Properties that diff compares, in the user's names. */
export const COMPARED = [
  "name",
  "description",
  "allowedModels",
  "allowedProviders",
  "ignoredModels",
  "ignoredProviders",
  "limitUsd",
  "resetInterval",
  ...ZDR_VENDORS,
  "enforceZdr",
  "contentFilterBuiltins",
  "contentFilters",
] as const;
export type ComparedProperty = (typeof COMPARED)[number];
type Comparable = Record<ComparedProperty, unknown>;

const builtinsKey = (xs: ReadonlyArray<{ slug: string; action: string; scanScope?: string | undefined }> | null | undefined) =>
  xs ? [...xs].map((b) => ({ slug: b.slug, action: b.action, scanScope: b.slug === PROMPT_INJECTION_SLUG ? (b.scanScope ?? "all_messages") : null })).sort((a, b) => a.slug.localeCompare(b.slug)) : null;
const filtersKey = (xs: ReadonlyArray<{ pattern: string; action: string; label?: string | undefined | null }> | null | undefined) =>
  xs ? xs.map((f) => ({ pattern: f.pattern, action: f.action, label: f.label ?? null })) : null;

/**
 * One normaliser for both sides: sets sorted and deduplicated, builtins by slug. Model lists
 * are sets too, but only of like with like (see model-lists.ts): never a program's
 * identifiers against the service's canonical slugs.
 */
function normalise(args: Record<ComparedProperty, unknown>): Comparable {
  return {
    ...args,
    allowedModels: sortedSet(args.allowedModels as string[] | null),
    allowedProviders: sortedSet(args.allowedProviders as string[] | null),
    ignoredModels: sortedSet(args.ignoredModels as string[] | null),
    ignoredProviders: sortedSet(args.ignoredProviders as string[] | null),
    contentFilterBuiltins: builtinsKey(args.contentFilterBuiltins as Parameters<typeof builtinsKey>[0]),
    contentFilters: filtersKey(args.contentFilters as Parameters<typeof filtersKey>[0]),
  };
}

/** The program's desired state, normalised for comparison. */
export function comparableInputs(inputs: GuardrailInputs): Comparable {
  const desired = Object.fromEntries(COMPARED.map((p) => [p, (inputs as Record<string, unknown>)[p] ?? null])) as Record<ComparedProperty, unknown>;
  for (const vendor of ZDR_VENDORS) desired[vendor] = effectiveZdr(inputs, vendor);
  return normalise(desired);
}

/** The recorded (or live) state, normalised for comparison. */
export function comparableOutputs(outs: GuardrailOutputs): Comparable {
  return normalise(liveArgs(outs));
}

const uniq = (xs: readonly string[] | undefined) => (xs ? [...new Set(xs)] : undefined);

/** The wire value of one compared property. */
function wireValues(inputs: GuardrailInputs, property: ComparedProperty): WireGuardrailUpdate {
  switch (property) {
    case "name":
      return { name: inputs.name };
    case "description":
      return { description: inputs.description ?? null };
    case "allowedModels":
      return { allowed_models: uniq(inputs.allowedModels) ?? null };
    case "allowedProviders":
      return { allowed_providers: uniq(inputs.allowedProviders) ?? null };
    case "ignoredModels":
      return { ignored_models: uniq(inputs.ignoredModels) ?? null };
    case "ignoredProviders":
      return { ignored_providers: uniq(inputs.ignoredProviders) ?? null };
    case "limitUsd":
      return { limit_usd: inputs.limitUsd ?? null };
    case "resetInterval":
      return { reset_interval: inputs.resetInterval ?? null };
    case "enforceZdrVendorA":
    case "enforceZdrVendorB":
    case "enforceZdrVendorC":
    case "enforceZdrOther":
    case "enforceZdr":
      // The ZDR fields travel together, every vendor explicit, so the service's fallback
      // from enforce_zdr never decides anything the program did not say.
      return {
        enforce_zdr: inputs.enforceZdr ?? null,
        ...Object.fromEntries(ZDR_VENDORS.map((v) => [ZDR_WIRE[v], effectiveZdr(inputs, v)])),
      };
    case "contentFilterBuiltins":
      return {
        content_filter_builtins: inputs.contentFilterBuiltins?.map((b) => ({ slug: b.slug, action: b.action, ...(b.scanScope ? { scan_scope: b.scanScope } : {}) })) ?? null,
      };
    case "contentFilters":
      return { content_filters: inputs.contentFilters?.map((f) => ({ pattern: f.pattern, action: f.action, ...(f.label !== undefined ? { label: f.label } : {}) })) ?? null };
  }
}

/** PATCH body holding only what changed; a collection goes whole; `null` clears. */
export function patchBody(inputs: GuardrailInputs, changed: readonly ComparedProperty[]): WireGuardrailUpdate {
  return Object.assign({}, ...changed.map((p) => wireValues(inputs, p)));
}

/** POST body: every property the program sets (nulls are the service's default anyway). */
export function createBody(inputs: GuardrailInputs): WireGuardrailCreate {
  const body = patchBody(inputs, COMPARED) as WireGuardrailCreate;
  const pruned = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null)) as WireGuardrailCreate;
  return { ...pruned, name: inputs.name, ...(inputs.workspaceId ? { workspace_id: inputs.workspaceId } : {}) };
}

/**
 * Outputs from the service's record. With `inputs` (an answer to what this program sent,
 * or a state it now matches) the model lists are recorded as the service's answer to them;
 * without (a read), what `previous` recorded is kept.
 */
export function outputsFromWire(g: WireGuardrail, inputs: GuardrailInputs | undefined, previous?: GuardrailOutputs): GuardrailOutputs {
  const answers: ModelAnswers = inputs || !previous ? { allowedModels: g.allowed_models, ignoredModels: g.ignored_models } : answersOrLegacy(previous);
  const defaultWorkspaceId = inputs && !inputs.workspaceId ? g.workspace_id : previous ? knownDefaultWorkspace(previous) : null;
  return {
    name: g.name,
    description: g.description,
    workspaceId: g.workspace_id,
    allowedModels: g.allowed_models,
    allowedProviders: g.allowed_providers,
    ignoredModels: g.ignored_models,
    ignoredProviders: g.ignored_providers,
    limitUsd: g.limit_usd,
    resetInterval: g.reset_interval,
    enforceZdrVendorA: g.enforce_zdr_vendor_a,
    enforceZdrVendorB: g.enforce_zdr_vendor_b,
    enforceZdrVendorC: g.enforce_zdr_vendor_c,
    enforceZdrOther: g.enforce_zdr_other,
    enforceZdr: g.enforce_zdr,
    contentFilterBuiltins: g.content_filter_builtins?.map((b) => ({ slug: b.slug, action: b.action, ...(b.scan_scope ? { scanScope: b.scan_scope } : {}), ...(b.label ? { label: b.label } : {}) })) ?? null,
    contentFilters: g.content_filters?.map((f) => ({ pattern: f.pattern, action: f.action, ...(f.label != null ? { label: f.label } : {}) })) ?? null,
    createdAt: g.created_at,
    updatedAt: g.updated_at,
    modelAnswers: answers,
    defaultWorkspaceId,
    args: inputs ? (JSON.parse(JSON.stringify(inputs)) as GuardrailInputs) : (previous?.args ?? null),
  };
}

/** The live state as args: the form `read` reports for a property that drifted. */
function liveArgs(outs: GuardrailOutputs): Record<ComparedProperty, unknown> {
  return {
    name: outs.name,
    description: outs.description,
    allowedModels: outs.allowedModels,
    allowedProviders: outs.allowedProviders,
    ignoredModels: outs.ignoredModels,
    ignoredProviders: outs.ignoredProviders,
    limitUsd: outs.limitUsd,
    resetInterval: outs.resetInterval,
    enforceZdrVendorA: outs.enforceZdrVendorA,
    enforceZdrVendorB: outs.enforceZdrVendorB,
    enforceZdrVendorC: outs.enforceZdrVendorC,
    enforceZdrOther: outs.enforceZdrOther,
    enforceZdr: outs.enforceZdr,
    contentFilterBuiltins: outs.contentFilterBuiltins?.map(({ label: _label, ...b }) => b) ?? null,
    contentFilters: outs.contentFilters,
  };
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
    if (current[p] === null || current[p] === undefined) delete args[p];
    else args[p] = current[p];
  }
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));
}
