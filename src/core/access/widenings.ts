/**
 * Whether one effective access lets its subject do anything another did not (issue 41: "the
 * effect, not the field"). Pure; the property test holds the rules to it, and a review of a change
 * can name each line.
 */
import { actionRank } from "./filters";
import type { AllowList, DenyList, EffectiveAccess, PermissionName } from "./types";

const scopeRank = (s: string | undefined) => (s === "user_only" || s === undefined ? 0 : 1);
/** Off is strictest; otherwise the account's setting decides. */
const permissionRank = (v: false | null) => (v === false ? 0 : 1);

function allowWidens(name: string, before: AllowList, after: AllowList): string[] {
  if (before.allowed === null) return [];
  if (after.allowed === null) return [`${name}: no longer restricted (was ${before.allowed.length} allowed)`];
  return after.allowed.filter((id) => !before.allowed?.includes(id)).map((id) => `${name}: ${id} now allowed`);
}

function denyWidens(name: string, before: DenyList, after: DenyList): string[] {
  const now = new Set(after.entries.map((e) => e.id));
  return before.entries.filter((e) => !now.has(e.id)).map((e) => `${name}: ${e.id} no longer ignored`);
}

function filterWidens(before: EffectiveAccess, after: EffectiveAccess): string[] {
  const out: string[] = [];
  const now = new Map(after.builtinFilters.map((f) => [f.slug, f]));
  for (const b of before.builtinFilters) {
    const a = now.get(b.slug);
    if (!a) out.push(`builtin ${b.slug}: no longer applied (was ${b.action})`);
    else if (actionRank(a.action) < actionRank(b.action)) out.push(`builtin ${b.slug}: ${b.action} -> ${a.action}`);
    else if (scopeRank(a.scanScope) < scopeRank(b.scanScope))
      out.push(`builtin ${b.slug}: scope ${b.scanScope} -> ${a.scanScope}`);
  }
  const strongest = new Map<string, number>();
  for (const f of after.customFilters)
    strongest.set(f.pattern, Math.max(strongest.get(f.pattern) ?? -1, actionRank(f.action)));
  for (const f of before.customFilters)
    if ((strongest.get(f.pattern) ?? -1) < actionRank(f.action))
      out.push(`custom filter ${f.pattern}: weaker or gone (was ${f.action})`);
  return out;
}

/** Each budget that capped spend before still caps it: the same interval, a limit no higher, BYOK still counted. */
function budgetWidens(before: EffectiveAccess, after: EffectiveAccess): string[] {
  return before.budgets
    .filter((b) => b.limitUsd !== null)
    .filter(
      (b) =>
        !after.budgets.some(
          (a) =>
            a.limitUsd !== null &&
            a.limitUsd <= (b.limitUsd as number) &&
            a.resetInterval === b.resetInterval &&
            (a.includeByokInBudgets || !b.includeByokInBudgets),
        ),
    )
    .map((b) => `budget ${b.limitUsd} ${b.resetInterval} (${b.from.kind} ${b.from.id}): no longer capped so`);
}

/** Every way `after` grants more than `before`, one line each; `[]` when it is at least as strict everywhere. */
export function widenings(before: EffectiveAccess, after: EffectiveAccess): string[] {
  const permissions = Object.keys(before.permissions) as PermissionName[];
  return [
    ...allowWidens("allowed models", before.allowedModels, after.allowedModels),
    ...denyWidens("ignored models", before.ignoredModels, after.ignoredModels),
    ...allowWidens("allowed providers", before.allowedProviders, after.allowedProviders),
    ...denyWidens("ignored providers", before.ignoredProviders, after.ignoredProviders),
    ...allowWidens("data regions", before.allowedDataRegions, after.allowedDataRegions),
    ...Object.entries(before.zdr)
      .filter(([g, e]) => e.enforced && !after.zdr[g as keyof typeof after.zdr].enforced)
      .map(([g]) => `${g}: no longer enforced`),
    ...permissions
      .filter((p) => permissionRank(after.permissions[p].value) > permissionRank(before.permissions[p].value))
      .map((p) => `${p}: ${before.permissions[p].value} -> ${after.permissions[p].value}`),
    ...filterWidens(before, after),
    ...budgetWidens(before, after),
  ];
}
