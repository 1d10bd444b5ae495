/**
 * The effective-access core (src/core/access) against the emulator's own enforcement (issue 41):
 * two implementations that share no code. Each case sets random layers up through the emulator's
 * API (a workspace default, a member and a key guardrail, workspace policies with defaults and
 * opt-outs, workspace-wide policies), reads them back as a lookup would, and compares the core's
 * answer with `GET /__emulator/enforcement` (docs/api-contract.md "The enforcement answer").
 * DIFF_RUNS and DIFF_SEED replay a run.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccessFacts, type EffectiveAccess, effectiveAccess } from "../../src/core/access";
import { actionRank } from "../../src/core/access";
import { http } from "../helpers/spawn-emulator";
import { caseArb, type DiffCase, facts, setUp } from "../helpers/access-differential";
import { TEST_KEY, type TestEmulator, withEmulator } from "../helpers/emulator";

const RUNS = Number(process.env.DIFF_RUNS ?? 300);
const SEED = Number(process.env.DIFF_SEED ?? 41);

type Answer = {
  sources: Array<{ type: string; id: string; legacy_guardrail_ids?: string[] }>;
  budgets: Array<{ limit_usd: number | null; reset_interval: string | null; include_byok_in_budgets: boolean }>;
  model_availability: Record<string, unknown>;
  moderation: {
    content_filter_builtins: Array<Record<string, string>> | null;
    content_filters: Array<Record<string, string>> | null;
  };
};

const sorted = (xs: Iterable<string>) => [...xs].sort();

/** The emulator's answer in the shape both sides can be compared in. */
function ofEmulator(a: Answer) {
  const m = a.model_availability;
  const strongest = new Map<string, string>();
  for (const f of a.moderation.content_filters ?? []) strongest.set(f.pattern as string, f.action as string);
  return {
    // A policy still mapped from a guardrail is that guardrail's layer (nothing is edited here).
    layers: sorted(
      new Set(
        a.sources.map((s) =>
          s.type === "policy" && s.legacy_guardrail_ids?.length ? s.legacy_guardrail_ids[0]! : s.id,
        ),
      ),
    ),
    allowedModels: m.allowed_models,
    ignoredModels: m.ignored_models ?? [],
    allowedProviders: m.allowed_providers,
    ignoredProviders: m.ignored_providers ?? [],
    zdr: ["enforce_zdr_vendor_a", "enforce_zdr_vendor_b", "enforce_zdr_vendor_c", "enforce_zdr_other"].map(
      (f) => m[f] === true,
    ),
    // true grants nothing beyond the account's setting (docs/effective-access.md): only off is compared.
    permissions: ["enable_free_model_training", "enable_paid_model_training", "enable_free_model_publication"].map(
      (f) => m[f] === false,
    ),
    regions: m.allowed_data_regions,
    builtins: (a.moderation.content_filter_builtins ?? [])
      .map((f) => `${f.slug}:${f.action}:${f.scan_scope ?? "-"}`)
      .sort(),
    custom: sorted([...strongest].map(([p, act]) => `${p}:${act}`)),
    budgets: a.budgets.map((b) => `${b.limit_usd}/${b.reset_interval}/${b.include_byok_in_budgets}`).sort(),
  };
}

/** The core's answer in the same shape. */
function ofCore(a: EffectiveAccess) {
  const strongest = new Map<string, string>();
  for (const f of a.customFilters)
    if (!strongest.has(f.pattern) || actionRank(f.action) > actionRank(strongest.get(f.pattern) as string))
      strongest.set(f.pattern, f.action);
  const none = (xs: string[]) => (xs.length ? xs : []);
  return {
    layers: sorted(new Set(a.layers.map((l) => l.id))),
    allowedModels: a.allowedModels.allowed,
    ignoredModels: none(a.ignoredModels.entries.map((e) => e.id)),
    allowedProviders: a.allowedProviders.allowed,
    ignoredProviders: none(a.ignoredProviders.entries.map((e) => e.id)),
    zdr: Object.values(a.zdr).map((e) => e.enforced),
    permissions: Object.values(a.permissions).map((p) => p.value === false),
    regions: a.allowedDataRegions.allowed,
    builtins: a.builtinFilters.map((f) => `${f.slug}:${f.action}:${f.scanScope ?? "-"}`).sort(),
    custom: sorted([...strongest].map(([p, act]) => `${p}:${act}`)),
    budgets: a.budgets.map((b) => `${b.limitUsd}/${b.resetInterval}/${b.includeByokInBudgets}`).sort(),
  };
}

describe("effective access: the core agrees with the emulator's enforcement", () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await withEmulator();
  });
  afterAll(() => emu.close());

  it(`${RUNS} random layer sets, every subject of each`, async () => {
    const api = http(emu.url, TEST_KEY);
    const cases: DiffCase[] = fc.sample(caseArb, { numRuns: RUNS, seed: SEED });
    let compared = 0;
    for (const [n, c] of cases.entries()) {
      const world = await setUp(api, c);
      for (const subject of world.subjects) {
        const f: AccessFacts = facts(world, subject);
        const query = "member" in subject ? `member=${subject.member}` : `key=${subject.key}`;
        const answer = await api("GET", `/__emulator/enforcement?${query}&workspace=${world.workspaceId}`);
        expect(answer.status).toBe(200);
        const where = `case ${n} (seed ${SEED}), ${query}: ${JSON.stringify(c)}`;
        expect(ofCore(effectiveAccess(f)), where).toEqual(ofEmulator(answer.body as Answer));
        compared++;
      }
    }
    expect(compared).toBe(RUNS * 4);
  }, 120_000);
});
