/**
 * The organization rules over one guardrail's props, as pure functions. A rule gets the
 * plain props (unknowns still in them as sentinels) and its option's value, and answers what
 * it can prove now plus the property it could not read yet.
 *
 * Props are the checked inputs of the program, not the service's outputs: an omitted arg is
 * missing (not `false`), `enforceZdr` still stands beside the per-vendor args, and model ids
 * are as the program wrote them. A finding quotes a value only through `show` (quote.ts): a
 * value the program marked secret is never quoted.
 */
import type { GuardrailsPolicyOptions, ZdrGroup } from "./options";
import { isAnyUnknown } from "../core/markers";
import { read, readList, type Props } from "./props";
import { showItems, showValues, type Show } from "./quote";
import { FORMS_NOTE, modelMatches } from "./model-ids";
import { RESET_INTERVALS, type ResetInterval } from "../core/fields/constants";
import type { FieldName } from "../core/fields/fields";

export { modelMatches } from "./model-ids";

export interface RuleFinding {
  /** Violations proven from known values, each a phrase about the guardrail. */
  violations: string[];
  /** A property the rule needs that is not known yet (preview): checked at `up`. */
  unknown?: string;
}

type GuardrailRule<V> = (props: Props, value: V, show?: Show) => RuleFinding;

/** Without a record of which inputs are secret, nothing is quoted. */
const HIDE_ALL = showValues(undefined);

const ok = (violations: string[] = [], unknown?: string): RuleFinding =>
  unknown ? { violations, unknown } : { violations };

/** `maxLimitUsd`: a spending limit at or under the ceiling; no limit exceeds any ceiling. */
export const maxLimitUsd: GuardrailRule<number> = (props, ceiling, show = HIDE_ALL) => {
  const limit = read<number>(props, "limitUsd");
  if (limit.unknown) return ok([], "limitUsd");
  if (limit.value === undefined)
    return ok([`has no limitUsd (no spending limit); the organization's ceiling is ${ceiling} USD`]);
  return ok(
    typeof limit.value === "number" && limit.value <= ceiling
      ? []
      : [`limitUsd ${show("limitUsd", limit.value)} is over the organization's ceiling of ${ceiling} USD`],
  );
};

/**
 * `requireResetInterval`: a spending limit that resets, at least as often as the option's
 * interval (`true`: any). `check` already refuses a limit without an interval and the
 * reverse, so a missing `resetInterval` means the guardrail has no spending limit at all.
 */
export const requireResetInterval: GuardrailRule<boolean | ResetInterval> = (props, required, show = HIDE_ALL) => {
  if (required === false) return ok();
  const longest = required === true ? RESET_INTERVALS.length - 1 : RESET_INTERVALS.indexOf(required);
  const shorter = RESET_INTERVALS.slice(0, longest + 1);
  const allowed = shorter.length > 1 ? `${shorter.slice(0, -1).join(", ")} or ${shorter.at(-1)}` : shorter[0];
  const reset = read(props, "resetInterval");
  if (reset.unknown) return ok([], "resetInterval");
  if (reset.value === undefined)
    return ok([
      `has no resetInterval, so no spending limit that resets; set limitUsd with a resetInterval of ${allowed}`,
    ]);
  const rank = RESET_INTERVALS.indexOf(reset.value as ResetInterval);
  return ok(
    rank >= 0 && rank <= longest
      ? []
      : [
          `resetInterval ${show("resetInterval", reset.value)} resets less often than the organization requires (${allowed})`,
        ],
  );
};

const ZDR_ARG: Record<ZdrGroup, string> = {
  vendorA: "enforceZdrVendorA",
  vendorB: "enforceZdrVendorB",
  vendorC: "enforceZdrVendorC",
  other: "enforceZdrOther",
};

/** `requireZdr`: each listed vendor group's effective ZDR flag is `true` (the per-vendor arg, else `enforceZdr`). */
export const requireZdr: GuardrailRule<ZdrGroup[]> = (props, groups, show = HIDE_ALL) => {
  const violations: string[] = [];
  let unknown: string | undefined;
  for (const group of groups) {
    const arg = ZDR_ARG[group];
    const own = read(props, arg);
    if (own.unknown) {
      unknown ??= arg;
      continue;
    }
    let effective = own.value;
    let from = arg;
    if (effective === undefined) {
      from = "enforceZdr";
      const legacy = read(props, "enforceZdr");
      if (legacy.unknown) {
        unknown ??= "enforceZdr";
        continue;
      }
      effective = legacy.value;
    }
    if (effective === undefined)
      violations.push(`does not set ${arg}; the organization requires zero-data retention for ${group}`);
    else if (effective !== true)
      violations.push(
        `${arg} is ${show(from, effective)}${from === arg ? "" : " (from enforceZdr)"}, not true; the organization requires zero-data retention for ${group}`,
      );
  }
  return ok(violations, unknown);
};

/** `requireBuiltinFilters`: each listed builtin slug is among `contentFilterBuiltins` (any action). */
export const requireBuiltinFilters: GuardrailRule<string[]> = (props, slugs) => {
  const list = readList(props, "contentFilterBuiltins");
  if (list.unknown) return ok([], "contentFilterBuiltins");
  const present = new Set(
    (list.value ?? [])
      .map((f) => (f && typeof f === "object" ? (f as Record<string, unknown>).slug : undefined))
      .filter((s) => typeof s === "string"),
  );
  const missing = slugs.filter((s) => !present.has(s));
  // A missing slug might still be an unknown item's: only what no item can supply is proven.
  if (missing.length > 0 && list.unknownItems) return ok([], "contentFilterBuiltins");
  return ok(
    missing.length
      ? [
          `lacks the builtin content filter${missing.length > 1 ? "s" : ""} ${missing.join(", ")} in contentFilterBuiltins`,
        ]
      : [],
  );
};

/**
 * `forbidModels`: no forbidden model is allowed. With `allowedModels` set, none of its
 * entries may be a form of a forbidden model (model-ids.ts). Without it every model is
 * allowed, and `ignoredModels` cannot make up for that: it drops the catalogue entries it
 * names, while a forbidden model's `:variant`s and other dated snapshots are entries of their
 * own, which a policy cannot list (no operation reads the catalogue). So the rule fails closed.
 */
export const forbidModels: GuardrailRule<string[]> = (props, forbidden, show = HIDE_ALL) => {
  const allowed = readList(props, "allowedModels");
  if (allowed.unknown) return ok([], "allowedModels");
  if (allowed.value !== undefined) {
    const ids = allowed.value.filter((x): x is string => typeof x === "string");
    const hits = ids.filter((id) => forbidden.some((f) => modelMatches(id, f)));
    if (hits.length)
      return ok([
        `allowedModels allows ${hits.length} forbidden model entr${hits.length > 1 ? "ies" : "y"} ${showItems(show, "allowedModels", hits)} (the organization forbids ${forbidden.join(", ")}; ${FORMS_NOTE})`,
      ]);
    return ok([], allowed.unknownItems ? "allowedModels" : undefined);
  }
  return ok([
    `allows every model, including the forbidden ${forbidden.join(", ")}: it sets no allowedModels, and ignoredModels cannot take them out (it drops the entries it names, not their :variants or other dated snapshots, which the catalogue lists as models of their own); set allowedModels`,
  ]);
};

/** `allowProviders`: `allowedProviders` is set and within the organization's list. */
export const allowProviders: GuardrailRule<string[]> = (props, allowedList, show = HIDE_ALL) => {
  const list = readList(props, "allowedProviders");
  if (list.unknown) return ok([], "allowedProviders");
  if (list.value === undefined)
    return ok([
      `does not set allowedProviders, so every provider is allowed; the organization allows only ${allowedList.join(", ")}`,
    ]);
  const allowed = new Set(allowedList.map((p) => p.toLowerCase()));
  // An item not known yet (preview) is the engine's placeholder string, not a provider.
  const outside = list.value.filter((p) => typeof p === "string" && !isAnyUnknown(p) && !allowed.has(p.toLowerCase()));
  if (outside.length)
    return ok([
      `allowedProviders has ${outside.length} provider${outside.length > 1 ? "s" : ""} ${showItems(show, "allowedProviders", outside)} outside the organization's list (${allowedList.join(", ")})`,
    ]);
  return ok([], list.unknownItems ? "allowedProviders" : undefined);
};

/** The per-guardrail rules, keyed by option name. */
export const GUARDRAIL_RULES = {
  maxLimitUsd,
  requireResetInterval,
  requireZdr,
  requireBuiltinFilters,
  forbidModels,
  allowProviders,
} satisfies { [K in keyof GuardrailsPolicyOptions]?: GuardrailRule<NonNullable<GuardrailsPolicyOptions[K]>> };

/**
 * The setting each rule judges: a Guardrail Policy (issue 40) holds a rule when this field is of
 * its kind (the field table's `policy` column), so a budget policy meets the limit rules, a model
 * access policy the ZDR, model and provider rules, a moderation policy the filter rule.
 */
export const RULE_FIELD: Record<keyof typeof GUARDRAIL_RULES, FieldName> = {
  maxLimitUsd: "limitUsd",
  requireResetInterval: "resetInterval",
  requireZdr: "enforceZdrVendorA",
  requireBuiltinFilters: "contentFilterBuiltins",
  forbidModels: "allowedModels",
  allowProviders: "allowedProviders",
};
