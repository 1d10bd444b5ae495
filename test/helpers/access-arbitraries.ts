/**
 * fast-check arbitraries of layer settings and a deterministic "tighten" of a layer's settings,
 * for the effective-access property test. Small universes, so lists overlap often.
 */
import fc from "fast-check";
import type { BuiltinFilter, CustomFilter, LayerSettings } from "../../src/core/access";
import type { PolicyKind } from "../../src/core/fields/policy-kinds";

export const MODELS = ["m1", "m2", "m3", "m3-2026", "m4"] as const;
/** An alias pair the facts may carry: `m3` stands for `m3-2026`. */
export const ALIASES = { m3: "m3-2026" } as const;
export const PROVIDERS = ["p1", "p2", "p3", "p4"] as const;
export const REGIONS = ["global", "europe", "us"] as const;
const SLUGS = ["email", "ssn", "regex-prompt-injection"] as const;
const ACTIONS = ["flag", "redact", "block"] as const;
const PATTERNS = ["a+", "b+", "c+"] as const;

const list = <T extends string>(xs: readonly T[]) =>
  fc.option(fc.uniqueArray(fc.constantFrom(...xs), { minLength: 1, maxLength: xs.length }), { nil: null });
const flag = fc.constantFrom(true, false, null);

const builtin: fc.Arbitrary<BuiltinFilter> = fc
  .record({
    slug: fc.constantFrom(...SLUGS),
    action: fc.constantFrom(...ACTIONS),
    scope: fc.constantFrom("user_only", "all_messages", undefined),
  })
  .map(({ slug, action, scope }) => ({
    slug,
    action,
    ...(slug === "regex-prompt-injection" && scope ? { scanScope: scope } : {}),
  }));
const custom: fc.Arbitrary<CustomFilter> = fc.record({
  pattern: fc.constantFrom(...PATTERNS),
  action: fc.constantFrom(...ACTIONS),
});

const modelAvailability = fc.record(
  {
    allowedModels: list(MODELS),
    ignoredModels: list(MODELS),
    allowedProviders: list(PROVIDERS),
    ignoredProviders: list(PROVIDERS),
    enforceZdrVendorA: flag,
    enforceZdrVendorB: flag,
    enforceZdrOther: flag,
    enforceZdr: flag,
    enableFreeModelTraining: flag,
    enablePaidModelTraining: flag,
    enableFreeModelPublication: flag,
    allowedDataRegions: list(REGIONS),
  },
  { requiredKeys: [] },
);
const moderation = fc.record(
  {
    contentFilterBuiltins: fc.option(fc.uniqueArray(builtin, { selector: (b) => b.slug, minLength: 1, maxLength: 3 }), {
      nil: null,
    }),
    contentFilters: fc.option(fc.array(custom, { minLength: 1, maxLength: 3 }), { nil: null }),
  },
  { requiredKeys: [] },
);
const budget = fc.option(
  fc.record({
    limitUsd: fc.integer({ min: 1, max: 100 }),
    resetInterval: fc.constantFrom("daily", "weekly"),
    includeByokInBudgets: fc.boolean(),
  }),
  { nil: {} },
);

/** Settings of one policy kind. */
export const settingsOf = (kind: PolicyKind): fc.Arbitrary<LayerSettings> =>
  kind === "budget" ? budget : kind === "moderation" ? moderation : modelAvailability;

/** A guardrail's settings: any mix of the three kinds. */
export const guardrailSettings: fc.Arbitrary<LayerSettings> = fc
  .tuple(modelAvailability, moderation, budget)
  .map(([a, b, c]) => ({ ...a, ...b, ...c }));

const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length] as T;
const RANK_UP: Record<string, string> = { flag: "redact", redact: "block", block: "block" };

/** Tightenings within a kind already set: every one leaves the layer at least as strict. */
const WITHIN: Array<(s: LayerSettings, n: number) => LayerSettings | undefined> = [
  (s, n) =>
    s.allowedModels?.length
      ? { ...s, allowedModels: s.allowedModels.filter((_, i) => i !== n % s.allowedModels!.length) }
      : undefined,
  (s, n) =>
    s.allowedProviders
      ? { ...s, allowedProviders: s.allowedProviders.slice(0, n % (s.allowedProviders.length + 1)) }
      : undefined,
  (s, n) => (s.allowedDataRegions ? { ...s, allowedDataRegions: s.allowedDataRegions.slice(n % 2) } : undefined),
  (s, n) => (s.ignoredModels ? { ...s, ignoredModels: [...s.ignoredModels, pick(MODELS, n)] } : undefined),
  (s, n) => (s.ignoredProviders ? { ...s, ignoredProviders: [...s.ignoredProviders, pick(PROVIDERS, n)] } : undefined),
  (s, n) =>
    "enforceZdr" in s || "enforceZdrVendorA" in s
      ? { ...s, [pick(["enforceZdrVendorA", "enforceZdrVendorC", "enforceZdr"], n)]: true }
      : undefined,
  (s, n) => {
    const p = pick(["enableFreeModelTraining", "enablePaidModelTraining", "enableFreeModelPublication"] as const, n);
    return p in s ? { ...s, [p]: s[p] === true && n % 2 ? null : false } : undefined;
  },
  (s, n) =>
    s.contentFilterBuiltins
      ? {
          ...s,
          contentFilterBuiltins: s.contentFilterBuiltins.map((b, i) =>
            i === n % s.contentFilterBuiltins!.length
              ? { ...b, action: RANK_UP[b.action] ?? b.action, ...(b.scanScope ? { scanScope: "all_messages" } : {}) }
              : b,
          ),
        }
      : undefined,
  (s, n) =>
    s.contentFilters
      ? { ...s, contentFilters: [...s.contentFilters, { pattern: pick(PATTERNS, n), action: "block" }] }
      : undefined,
  (s, n) =>
    s.limitUsd != null
      ? {
          ...s,
          limitUsd: s.limitUsd - (n % (s.limitUsd + 1)),
          includeByokInBudgets: s.includeByokInBudgets || n % 2 === 1,
        }
      : undefined,
];

/** Tightenings that may start restricting a kind the layer did not set. */
const NEW_KIND: Array<(s: LayerSettings, n: number) => LayerSettings> = [
  (s, n) => ({ ...s, allowedModels: s.allowedModels ?? [pick(MODELS, n)] }),
  (s, n) => ({ ...s, allowedDataRegions: s.allowedDataRegions ?? [pick(REGIONS, n)] }),
  (s) => ({
    ...s,
    contentFilterBuiltins: [
      ...(s.contentFilterBuiltins ?? []).filter((b) => b.slug !== "ssn"),
      { slug: "ssn", action: "block" },
    ],
  }),
  (s, n) => (s.limitUsd != null ? s : { ...s, limitUsd: 1 + (n % 50), resetInterval: "daily" }),
];

/** `s` made at least as strict by the `op`-th tightening (with `n` choosing inside it); `s` itself when it does not fit. */
export function tighten(s: LayerSettings, op: number, n: number, mayAddKind: boolean): LayerSettings {
  const ops = mayAddKind ? [...WITHIN, ...NEW_KIND] : WITHIN;
  return pick(ops, op)(s, n) ?? s;
}
