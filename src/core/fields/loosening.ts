/**
 * How each guardrail setting loosens: one rule per field of the table (fields.ts), typed over
 * its keys, so a field cannot be added without saying what a change to it does to the people on
 * the guardrail. A change is `loosening` when it lets someone do more than before (a model or
 * provider allowed, a limit raised, a filter weakened, ZDR off, training allowed, ...),
 * `tightening` when it lets them do less, `neutral` when it does neither (a name), and `unknown`
 * when nobody can tell from what the preview shows (a secret value, a value known after apply,
 * a value the service answers that this version does not know, custom filters reordered).
 * `unknown` is read as "may loosen" wherever a verdict is drawn: never a silent pass.
 *
 * The values compared are the core's comparable forms (guardrail/model.ts): lists as sets,
 * builtins keyed by slug, custom filters by pattern, `null` for "not set".
 */
import { FILTER_ACTIONS, RESET_INTERVALS } from "./constants";
import type { FieldName } from "./fields";

/** What a change does to the people on a guardrail. */
export type Direction = "tightening" | "loosening" | "neutral" | "unknown";

/** How changes to one field are judged. */
export type LooseningRule =
  /** Changes nothing anyone may do (a name, a description). */
  | { kind: "neutral" }
  /** A list of what is allowed; `null` is no restriction: an element added, or the list dropped, loosens. */
  | { kind: "allowList" }
  /** A list of what is excluded; an element removed, or the list dropped, loosens. */
  | { kind: "denyList" }
  /** An amount that caps use; `null` is no cap: raised or removed loosens. */
  | { kind: "cap" }
  /** One of ordered values, tightest first; `null` is past the last (the loosest). */
  | { kind: "ordered"; order: readonly string[] }
  /** A flag that protects when true (`null` is not enforced, as false): turned off loosens. */
  | { kind: "protection" }
  /** A flag that permits when true; `null` is the service's setting, between false and true. */
  | { kind: "permission" }
  /** Content filters keyed by `key`: one removed, or its action weaker (block > redact > flag), loosens. */
  | { kind: "filters"; key: "slug" | "pattern" };

/**
 * The table: every field of fields.ts, once. Reset intervals: the issue and the organization's
 * policy (policy/rules: `requireResetInterval`) both treat a limit that resets less often as the
 * laxer one, so a longer interval loosens, and no interval (a limit that never resets) is the loosest.
 */
export const LOOSENING: Record<FieldName, LooseningRule> = {
  name: { kind: "neutral" },
  description: { kind: "neutral" },
  allowedModels: { kind: "allowList" },
  allowedProviders: { kind: "allowList" },
  ignoredModels: { kind: "denyList" },
  ignoredProviders: { kind: "denyList" },
  limitUsd: { kind: "cap" },
  resetInterval: { kind: "ordered", order: RESET_INTERVALS },
  enforceZdrVendorA: { kind: "protection" },
  enforceZdrVendorB: { kind: "protection" },
  enforceZdrVendorC: { kind: "protection" },
  enforceZdrOther: { kind: "protection" },
  enforceZdr: { kind: "protection" },
  contentFilterBuiltins: { kind: "filters", key: "slug" },
  contentFilters: { kind: "filters", key: "pattern" },
  enableFreeModelTraining: { kind: "permission" },
  enablePaidModelTraining: { kind: "permission" },
  enableFreeModelPublication: { kind: "permission" },
  allowedDataRegions: { kind: "allowList" },
  includeByokInBudgets: { kind: "protection" },
};

/** One judged change: of an element of a list setting (`element` set), or of the setting as a whole. */
export interface Judged {
  field: FieldName;
  /** The model, provider, region, filter slug or pattern; absent for a scalar or the whole list. */
  element?: string;
  /** Fixed words for what happened (`added`, `raised`, `weaker`, `no longer set`, ...); never a user string. */
  what: string;
  /** The value before and after, in the comparable form (a filter's action; a scalar). */
  before?: unknown;
  after?: unknown;
  direction: Direction;
}

/** Where the prompt-injection filter looks, narrowest first. */
const SCOPES = ["user_only", "all_messages"];

const isList = (v: unknown): v is unknown[] => Array.isArray(v);

/**
 * `String(v)` that never throws: preview JSON may hold an object with no prototype (no
 * `toString`). `null` is "null" either way, and JSON's objects always stringify.
 */
function textOf(v: unknown): string {
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** A filter action's strength, the first of FILTER_ACTIONS the strongest; an action this version does not know has none. */
function strengthOf(action: unknown): number | undefined {
  const at = (FILTER_ACTIONS as readonly string[]).indexOf(textOf(action));
  return at < 0 ? undefined : FILTER_ACTIONS.length - at;
}

/** Compares two ranks where a higher one is looser; `undefined` (unknown value) is `unknown`. */
function byRank(before: number | undefined, after: number | undefined): Direction {
  if (before === undefined || after === undefined || Number.isNaN(before) || Number.isNaN(after)) return "unknown";
  return after > before ? "loosening" : after < before ? "tightening" : "neutral";
}

/**
 * A change of `field` as a whole, from `before` to `after` (comparable forms, not equal): a
 * scalar, or a list set where there was none or dropped. A list's elements are judged one by
 * one (`judgeElement`) from the core's keyed diff (guardrail/key-changes.ts).
 */
export function judgeWhole(field: FieldName, before: unknown, after: unknown): Judged[] {
  const rule = LOOSENING[field];
  const one = (what: string, direction: Direction): Judged[] => [{ field, what, before, after, direction }];
  switch (rule.kind) {
    case "neutral":
      return one("changed", "neutral");
    case "cap": {
      if (after === null) return one("limit removed", "loosening");
      if (before === null) return one("limit set", "tightening");
      // Preview JSON is outside input: only a number (or its text) ranks; anything else is unknown.
      const amount = (v: unknown) => (typeof v === "number" || typeof v === "string" ? Number(v) : undefined);
      const d = byRank(amount(before), amount(after));
      return one(d === "loosening" ? "raised" : d === "tightening" ? "lowered" : "changed", d);
    }
    case "ordered": {
      // indexOf compares strictly: a value that is not one of the order's strings is -1, unranked.
      const rank = (v: unknown) => (v === null ? rule.order.length : rule.order.indexOf(v as string));
      const [b, a] = [rank(before), rank(after)];
      const d = byRank(b < 0 ? undefined : b, a < 0 ? undefined : a);
      return one(
        after === null ? "no longer set" : d === "loosening" ? "longer" : d === "tightening" ? "shorter" : "changed",
        d,
      );
    }
    case "protection":
    case "permission": {
      // A value neither true, false nor null is unreadable here: unranked, so unknown.
      const on = (v: unknown) =>
        v === true ? 2 : v === false ? 0 : v === null ? (rule.kind === "protection" ? 0 : 1) : undefined;
      const d = rule.kind === "protection" ? byRank(on(after), on(before)) : byRank(on(before), on(after));
      const what =
        after === null ? "no longer set" : after === true ? "turned on" : after === false ? "turned off" : "changed";
      return one(what, d);
    }
    case "allowList":
      return before === null
        ? one("restricted to", "tightening")
        : after === null
          ? one("restriction removed", "loosening")
          : one("changed", "unknown");
    case "denyList":
    case "filters": {
      if (before !== null && after !== null) return one("changed", "unknown");
      // Set where there was none, or dropped: each element added or removed.
      const [kind, items] = before === null ? (["add", after] as const) : (["delete", before] as const);
      if (!isList(items)) return one("changed", "unknown");
      const key = (x: unknown) =>
        rule.kind === "filters" ? textOf((x as Record<string, unknown>)[rule.key]) : textOf(x);
      // judgeElement reads an added element as `now` and a removed one as `was`.
      return items.flatMap((x) => judgeElement(field, key(x), kind, x, x));
    }
  }
}

/**
 * One element of a list setting, as the core's keyed diff names it: `add`, `delete`, or
 * `update` (a filter whose action, scope or label changed, or a custom filter that moved).
 * `was` and `now` are the element's comparable values (a filter record; an id itself).
 */
export function judgeElement(
  field: FieldName,
  element: string,
  kind: "add" | "delete" | "update",
  was?: unknown,
  now?: unknown,
): Judged[] {
  const rule = LOOSENING[field];
  const at = (what: string, direction: Direction, before?: unknown, after?: unknown): Judged => ({
    field,
    element,
    what,
    before,
    after,
    direction,
  });
  if (rule.kind === "allowList" || rule.kind === "denyList") {
    const more = (rule.kind === "allowList") === (kind === "add");
    return [
      at(kind === "add" ? "added" : "removed", kind === "update" ? "unknown" : more ? "loosening" : "tightening"),
    ];
  }
  if (rule.kind !== "filters") return [at("changed", "unknown")];
  const w = (was ?? {}) as Record<string, unknown>;
  const n = (now ?? {}) as Record<string, unknown>;
  if (kind === "add") return [at("added", "tightening", undefined, n.action)];
  if (kind === "delete") return [at("removed", "loosening", w.action, undefined)];
  const out: Judged[] = [];
  if (w.action !== n.action) {
    const d = byRank(strengthOf(n.action), strengthOf(w.action));
    out.push(at(d === "loosening" ? "weaker" : d === "tightening" ? "stronger" : "action", d, w.action, n.action));
  }
  if ((w.scanScope ?? null) !== (n.scanScope ?? null)) {
    const rank = (s: unknown) => (SCOPES.includes(textOf(s)) ? SCOPES.indexOf(textOf(s)) : undefined);
    const d = byRank(rank(n.scanScope), rank(w.scanScope));
    out.push(at(d === "loosening" ? "narrower scan" : "scan scope", d, w.scanScope, n.scanScope));
  }
  if ((w.label ?? null) !== (n.label ?? null)) out.push(at("label", "neutral", w.label, n.label));
  // The same filter, moved among the others: the order decides which acts first.
  return out.length ? out : [at("moved (the order decides which filter acts first)", "unknown")];
}
