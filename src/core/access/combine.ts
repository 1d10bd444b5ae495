/**
 * How the layers that apply combine into effective access (issue 41). "The stricter rule wins,
 * and every budget is checked on its own" ({docs}/guides/features/guardrails/policies-migration,
 * "How guardrails map to policies"; docs/api-contract.md rule 27), with `{docs}` =
 * https://openrouter.ai/docs. Each rule below cites where it is said; docs/effective-access.md
 * has the table, and the readings taken where the sources are silent.
 */
import { PROMPT_INJECTION_SLUG } from "../fields/constants";
import { combineBuiltins } from "./filters";
import {
  type AccessFacts,
  type AllowList,
  type DenyList,
  type EffectiveAccess,
  type EffectiveBudget,
  type Enforced,
  type Layer,
  PERMISSIONS,
  type Permission,
  ZDR_GROUPS,
  type ZdrGroup,
} from "./types";

type ListField = "allowedModels" | "allowedProviders" | "allowedDataRegions" | "ignoredModels" | "ignoredProviders";
type Resolve = (id: string) => string;
const itself: Resolve = (id) => id;

/** A model identifier as the diff resolves it: through the known pairs, else itself (guardrail/model-lists.ts). */
export const modelResolver =
  (aliases: Readonly<Record<string, string>>): Resolve =>
  (id) =>
    Object.hasOwn(aliases, id) ? (aliases[id] as string) : id;

/**
 * An allow list: every non-null list intersected; null when no layer holds one (no restriction).
 * Model and provider allowlists: "stricter rules always win ... if a member guardrail allows
 * providers A, B, and C, but an API key guardrail only allows providers A and B, only providers A
 * and B will be available" ({docs}/guides/features/guardrails, "Guardrail Hierarchy"). Data
 * regions: "intersect across every non-null value" (issue 41; docs/api-contract.md "The enforcement answer").
 */
export function allowList(layers: readonly Layer[], field: ListField, resolve: Resolve = itself): AllowList {
  const holding = layers.filter((l) => Array.isArray(l.settings[field]));
  if (holding.length === 0) return { allowed: null, restrictedBy: [] };
  const restrictedBy = holding.map((l) => ({
    layer: l.ref,
    ids: [...new Set((l.settings[field] as string[]).map(resolve))].sort(),
  }));
  const [first, ...rest] = restrictedBy as [(typeof restrictedBy)[0], ...typeof restrictedBy];
  return { allowed: first.ids.filter((v) => rest.every((r) => r.ids.includes(v))), restrictedBy };
}

/** An ignore list: every layer's entries joined, each with the layers that list it (the stricter rule wins). */
export function denyList(layers: readonly Layer[], field: ListField, resolve: Resolve = itself): DenyList {
  const byId = new Map<string, Layer["ref"][]>();
  for (const l of layers)
    for (const raw of (l.settings[field] as string[] | null | undefined) ?? []) {
      const id = resolve(raw);
      const from = byId.get(id) ?? [];
      if (!from.includes(l.ref)) from.push(l.ref);
      byId.set(id, from);
    }
  return {
    entries: [...byId.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, from]) => ({ id, from })),
  };
}

/**
 * A ZDR group is enforced when any layer enforces it ("zero-data-retention requirements are
 * enforced if any applicable guardrail requires them for a model group": {docs}/guides/features/guardrails,
 * "Guardrail Hierarchy"); a layer's unset flag falls back to its deprecated `enforceZdr` (spec rule 2).
 */
function zdr(layers: readonly Layer[], group: ZdrGroup): Enforced {
  const by = layers.filter((l) => (l.settings[group] ?? l.settings.enforceZdr) === true).map((l) => l.ref);
  return { enforced: by.length > 0, by };
}

/**
 * A training or publication permission: off wins (the stricter rule). On grants nothing of its
 * own: "Any existing account wide settings will continue to apply. Guardrails help enforce
 * tighter restrictions" ({docs}/guides/features/guardrails), so with no layer off the account's
 * setting decides (null), and the layers saying on are only recorded.
 */
function permission(layers: readonly Layer[], field: (typeof PERMISSIONS)[number]): Permission {
  const off = layers.filter((l) => l.settings[field] === false).map((l) => l.ref);
  const onIn = layers.filter((l) => l.settings[field] === true).map((l) => l.ref);
  return off.length > 0 ? { value: false, decidedBy: off, onIn } : { value: null, decidedBy: [], onIn };
}

/**
 * Every budget on its own, with its layer: "every budget is checked on its own" (rule 27); "its
 * usage counts toward both the key's budget and the owning member's budget"
 * ({docs}/guides/features/guardrails, "Budget Enforcement"). A layer with a limit or an interval
 * holds one (rule 31's mapping).
 */
function budgets(layers: readonly Layer[]): EffectiveBudget[] {
  return layers
    .filter((l) => l.settings.limitUsd != null || l.settings.resetInterval != null)
    .map((l) => ({
      limitUsd: l.settings.limitUsd ?? null,
      resetInterval: l.settings.resetInterval ?? null,
      includeByokInBudgets: l.settings.includeByokInBudgets === true,
      from: l.ref,
    }));
}

/** What the given layers leave the subject of `facts`. */
export function combine(
  facts: Pick<AccessFacts, "subject" | "workspaceId" | "modelAliases">,
  layers: readonly Layer[],
) {
  const aliases = facts.modelAliases ?? {};
  const model = modelResolver(aliases);
  const builtinFilters = combineBuiltins(layers);
  const injection = builtinFilters.find((b) => b.slug === PROMPT_INJECTION_SLUG);
  const access: EffectiveAccess = {
    subject: facts.subject,
    workspaceId: facts.workspaceId,
    layers: layers.map((l) => l.ref),
    allowedModels: allowList(layers, "allowedModels", model),
    ignoredModels: denyList(layers, "ignoredModels", model),
    allowedProviders: allowList(layers, "allowedProviders"),
    ignoredProviders: denyList(layers, "ignoredProviders"),
    zdr: Object.fromEntries(ZDR_GROUPS.map((g) => [g, zdr(layers, g)])) as Record<ZdrGroup, Enforced>,
    permissions: Object.fromEntries(
      PERMISSIONS.map((p) => [p, permission(layers, p)]),
    ) as EffectiveAccess["permissions"],
    allowedDataRegions: allowList(layers, "allowedDataRegions"),
    builtinFilters,
    // "Custom filters all apply" (issue 41): each layer's patterns are its own.
    customFilters: layers.flatMap((l) => (l.settings.contentFilters ?? []).map((f) => ({ ...f, from: l.ref }))),
    promptInjection: injection ? { scanScope: injection.scanScope ?? "all_messages", from: injection.from } : null,
    budgets: budgets(layers),
    modelAliases: aliases,
  };
  return access;
}
