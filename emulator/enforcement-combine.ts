/**
 * How layers of settings combine into what is enforced (docs/api-contract.md rule 27: "the
 * stricter rule wins, every budget is checked on its own"): allow lists intersect, ignore lists
 * join, a ZDR flag on wins, a training or publication permission off wins, data regions intersect
 * across every non-null value, builtin and custom filters join with the strictest action.
 */

/** Settings of one layer, by the guardrail's wire names (rule 31). */
export type Settings = Record<string, unknown>;

const lists = (layers: Settings[], field: string) =>
  layers.map((l) => l[field]).filter((v): v is string[] => Array.isArray(v));

/** Every non-null list intersected (sorted); null when every layer leaves it unset (no restriction). */
export function intersect(layers: Settings[], field: string): string[] | null {
  const given = lists(layers, field);
  if (given.length === 0) return null;
  const [first, ...rest] = given;
  return [...new Set(first)].filter((v) => rest.every((l) => l.includes(v))).sort();
}

/** Every non-null list joined (sorted); null when every layer leaves it unset. */
export function union(layers: Settings[], field: string): string[] | null {
  const given = lists(layers, field);
  return given.length === 0 ? null : [...new Set(given.flat())].sort();
}

/** The restrictive value wins: `strict` if any layer holds it, else the other if any does, else null. */
export function flag(layers: Settings[], field: string, strict: boolean): boolean | null {
  const values = layers.map((l) => l[field]).filter((v): v is boolean => typeof v === "boolean");
  if (values.includes(strict)) return strict;
  return values.length > 0 ? !strict : null;
}

const ACTION_RANK: Record<string, number> = { flag: 1, redact: 2, block: 3 };
const rank = (action: unknown) => ACTION_RANK[String(action)] ?? 0;

type Filter = Record<string, unknown>;

/** Filters joined by `key`; where two layers hold the same one, the stricter action (block > redact > flag) wins. */
function joinFilters(layers: Settings[], field: string, key: (f: Filter) => string): Filter[] | null {
  const given = layers.map((l) => l[field]).filter((v): v is Filter[] => Array.isArray(v));
  if (given.length === 0) return null;
  const byKey = new Map<string, Filter>();
  for (const f of given.flat()) {
    const k = key(f);
    const seen = byKey.get(k);
    if (!seen) byKey.set(k, { ...f });
    else {
      if (rank(f.action) > rank(seen.action)) seen.action = f.action;
      // Scanning every message is stricter than scanning the user's only.
      if (f.scan_scope === "all_messages") seen.scan_scope = "all_messages";
    }
  }
  return [...byKey.values()];
}

const ZDR = ["enforce_zdr_vendor_a", "enforce_zdr_vendor_b", "enforce_zdr_vendor_c", "enforce_zdr_other"];
const PERMISSIONS = ["enable_free_model_publication", "enable_free_model_training", "enable_paid_model_training"];

/** The model and provider access every layer together leaves. */
export function modelAvailability(layers: Settings[]): Settings {
  const out: Settings = {
    allowed_models: intersect(layers, "allowed_models"),
    allowed_providers: intersect(layers, "allowed_providers"),
    ignored_models: union(layers, "ignored_models"),
    ignored_providers: union(layers, "ignored_providers"),
  };
  for (const f of ZDR) out[f] = flag(layers, f, true);
  for (const f of PERMISSIONS) out[f] = flag(layers, f, false);
  out.allowed_data_regions = intersect(layers, "allowed_data_regions");
  return out;
}

/** The moderation every layer together applies. */
export function moderation(layers: Settings[]): Settings {
  return {
    content_filter_builtins: joinFilters(layers, "content_filter_builtins", (f) => String(f.slug)),
    content_filters: joinFilters(layers, "content_filters", (f) => String(f.pattern)),
  };
}

/** A layer's budget, if it sets one: every budget is listed on its own. */
export function budgetOf(layer: Settings): Settings | undefined {
  if (layer.limit_usd == null && layer.reset_interval == null) return undefined;
  return {
    limit_usd: layer.limit_usd ?? null,
    reset_interval: layer.reset_interval ?? null,
    include_byok_in_budgets: layer.include_byok_in_budgets === true,
  };
}
