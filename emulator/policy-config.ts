/**
 * A policy's config as stored (docs/api-contract.md rule 31: the guardrail's own setting names and
 * values): every setting of its kind present, null when unset, model ids canonical (rule 4),
 * `enforce_zdr` filling the per-vendor flags not given (spec rule 2), builtins labelled. And the
 * config a guardrail's settings make, for the legacy mapping.
 */
import { catalogueIndex, type CatalogueModel } from "./catalogue";
import { badRequest } from "./http-error";
import { POLICY_KINDS, type PolicyConfig, type PolicyType } from "./policy-records";
import { storedBuiltins, storedCustomFilters } from "./rules";

const ZDR_VENDORS = ["enforce_zdr_vendor_a", "enforce_zdr_vendor_b", "enforce_zdr_vendor_c", "enforce_zdr_other"];

/** A validated config, stored: canonical models, ZDR fallback, labels; the kind's other settings null. */
export function storedConfig(kind: PolicyType, given: Record<string, unknown>, models: CatalogueModel[]): PolicyConfig {
  const out: PolicyConfig = {};
  for (const field of POLICY_KINDS[kind].fields) out[field] = given[field] ?? null;
  // Kept as given while given: an update that omits one replaces it away, as the config is replaced whole (rule 24).
  for (const field of POLICY_KINDS[kind].serviceOnly) if (given[field] !== undefined) out[field] = given[field];
  if (kind === "budget") out.include_byok_in_budgets = given.include_byok_in_budgets ?? false;
  if (kind === "model_availability") {
    const index = catalogueIndex(models);
    for (const field of ["allowed_models", "ignored_models"]) out[field] = canonical(field, out[field], index);
    for (const vendor of ZDR_VENDORS) if (given[vendor] === undefined) out[vendor] = given.enforce_zdr ?? null;
  }
  if (kind === "moderation") {
    out.content_filter_builtins = storedBuiltins(out.content_filter_builtins as never);
    out.content_filters = storedCustomFilters(out.content_filters as never);
  }
  return out;
}

/** Rule 4 for `config.<field>`: slug or canonical in, canonical out, duplicates removed; unknown: 400. */
function canonical(field: string, ids: unknown, index: Map<string, string>): string[] | null {
  if (!Array.isArray(ids)) return null;
  const out = new Set<string>();
  const unknown: string[] = [];
  ids.forEach((id: string, i) => {
    const c = index.get(id);
    if (c === undefined) unknown.push(`config.${field}[${i}]: unknown model "${id}"`);
    else out.add(c);
  });
  if (unknown.length > 0) throw badRequest(unknown.join("; "));
  return [...out];
}

/**
 * The config of `kind` a guardrail's settings make, or undefined when the guardrail sets none of
 * them ("only the parts the guardrail actually sets", rule 31). A budget is set by its limit;
 * `include_byok_in_budgets` alone (false on every guardrail) sets nothing.
 */
export function configOfGuardrail(kind: PolicyType, g: Record<string, unknown>): PolicyConfig | undefined {
  const fields = POLICY_KINDS[kind].fields;
  const config: PolicyConfig = {};
  for (const field of fields) config[field] = g[field] ?? null;
  if (kind === "budget") {
    config.include_byok_in_budgets = g.include_byok_in_budgets === true;
    return config.limit_usd === null && config.reset_interval === null ? undefined : config;
  }
  return fields.some((f) => config[f] !== null) ? config : undefined;
}
