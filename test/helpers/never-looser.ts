/**
 * "Never looser": whether one enforcement answer of the emulator (`GET /__emulator/enforcement`,
 * docs/api-contract.md "The emulator and Guardrail Policies") lets its subject do anything the
 * other did not. The oracle of the move from guardrails to policies (issue 40): after every
 * step, each member's and key's answer must be no looser than before the move. Pure.
 */

/** The parts of an enforcement answer the comparison reads (wire names, as the emulator answers). */
export interface Enforcement {
  budgets: Array<{ limit_usd: number; reset_interval: string | null; include_byok_in_budgets?: boolean | null }>;
  model_availability: Record<string, unknown>;
  moderation: Record<string, unknown>;
  /** Where each layer comes from (not compared). */
  sources?: Array<{ type: string; id: string; via?: string; legacy_guardrail_ids?: string[] }>;
}

const ALLOW_LISTS = ["allowed_models", "allowed_providers", "allowed_data_regions"] as const;
const IGNORE_LISTS = ["ignored_models", "ignored_providers"] as const;
const ZDR = ["enforce_zdr_vendor_a", "enforce_zdr_vendor_b", "enforce_zdr_vendor_c", "enforce_zdr_other"] as const;
const PERMISSIONS = [
  "enable_free_model_training",
  "enable_paid_model_training",
  "enable_free_model_publication",
] as const;
const ACTION_RANK: Record<string, number> = { flag: 1, redact: 2, block: 3 };

type Filter = Record<string, unknown>;
const list = (v: unknown): string[] | null => (Array.isArray(v) ? (v as string[]) : null);
const filters = (v: unknown): Filter[] => (Array.isArray(v) ? (v as Filter[]) : []);
const json = (v: unknown) => JSON.stringify(v);

/** A permission's rank: off is strictest, unsaid (the service's default) next, on loosest. */
const permissionRank = (v: unknown) => (v === false ? 0 : v === true ? 2 : 1);

/** Each filter of `before` must still apply after, with an action at least as strict and a scope at least as wide. */
function filterLoosenings(field: string, key: string, before: unknown, after: unknown): string[] {
  const out: string[] = [];
  const now = new Map(filters(after).map((f) => [String(f[key]), f]));
  for (const b of filters(before)) {
    const a = now.get(String(b[key]));
    const id = `${field}[${json(b[key])}]`;
    if (!a) out.push(`${id}: removed (was ${json(b.action)})`);
    else {
      if ((ACTION_RANK[String(a.action)] ?? 0) < (ACTION_RANK[String(b.action)] ?? 0))
        out.push(`${id}: action ${json(b.action)} -> ${json(a.action)}`);
      if (b.scan_scope === "all_messages" && a.scan_scope !== "all_messages")
        out.push(`${id}: scan_scope ${json(b.scan_scope)} -> ${json(a.scan_scope)}`);
    }
  }
  return out;
}

/**
 * Every way `after` is looser than `before`, one line each; `[]` when `after` is at least as
 * strict everywhere. Allowed lists never grow (and never go from a list to none), ignored lists
 * never shrink, a ZDR flag on never drops, a permission never widens (off < unsaid < on), each
 * budget of `before` is still there (same interval, a limit no higher, BYOK still counted if it
 * was), and each filter still applies with an action no weaker and a scope no narrower.
 */
export function loosenings(before: Enforcement, after: Enforcement): string[] {
  const out: string[] = [];
  const bm = before.model_availability;
  const am = after.model_availability;
  for (const f of ALLOW_LISTS) {
    const b = list(bm[f]);
    const a = list(am[f]);
    if (b === null) continue;
    if (a === null) out.push(`${f}: ${json(b)} -> null (no restriction)`);
    else {
      const added = a.filter((x) => !b.includes(x));
      if (added.length > 0) out.push(`${f}: allows ${json(added)} too`);
    }
  }
  for (const f of IGNORE_LISTS) {
    const a = list(am[f]) ?? [];
    const dropped = (list(bm[f]) ?? []).filter((x) => !a.includes(x));
    if (dropped.length > 0) out.push(`${f}: no longer ignores ${json(dropped)}`);
  }
  for (const f of ZDR) if (bm[f] === true && am[f] !== true) out.push(`${f}: true -> ${json(am[f])}`);
  for (const f of PERMISSIONS)
    if (permissionRank(am[f]) > permissionRank(bm[f])) out.push(`${f}: ${json(bm[f])} -> ${json(am[f])}`);
  for (const b of before.budgets) {
    const kept = after.budgets.some(
      (a) =>
        a.reset_interval === b.reset_interval &&
        a.limit_usd <= b.limit_usd &&
        (a.include_byok_in_budgets === true || b.include_byok_in_budgets !== true),
    );
    if (!kept)
      out.push(
        `budget ${b.limit_usd} USD ${b.reset_interval ?? "(no reset)"}${b.include_byok_in_budgets ? " with BYOK" : ""}: no budget as strict remains`,
      );
  }
  out.push(
    ...filterLoosenings(
      "content_filter_builtins",
      "slug",
      before.moderation.content_filter_builtins,
      after.moderation.content_filter_builtins,
    ),
    ...filterLoosenings(
      "content_filters",
      "pattern",
      before.moderation.content_filters,
      after.moderation.content_filters,
    ),
  );
  return out;
}
