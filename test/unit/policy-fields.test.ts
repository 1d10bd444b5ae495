/**
 * Issue 40: the field table's policy column (docs/api-contract.md rule 31; design-40 "Settings").
 * Every setting belongs to exactly one Guardrail Policy kind, `name` and `description` to none,
 * and each kind's derived shapes (the strict args shape, the tolerant `config` read schema, the
 * `config` body) hold exactly that kind's fields, in the table's names.
 */
import { describe, expect, it } from "vitest";
import { POLICY_SETTINGS_SHAPES } from "../../src/core/args/policy-args";
import { wirePolicyConfig, wirePolicyDetail } from "../../src/core/client/policy-wire";
import { FIELD_NAMES, spec } from "../../src/core/fields/fields";
import { POLICY_FIELDS, POLICY_KINDS, policyConfig, policyKindOf } from "../../src/core/fields/policy-kinds";

/** The design's list (design-40.md, "Settings"), stated here on its own so the column is checked against it. */
const EXPECTED = {
  budget: ["limitUsd", "resetInterval", "includeByokInBudgets"],
  modelAvailability: [
    "allowedModels",
    "allowedProviders",
    "ignoredModels",
    "ignoredProviders",
    "enforceZdrVendorA",
    "enforceZdrVendorB",
    "enforceZdrVendorC",
    "enforceZdrOther",
    "enforceZdr",
    "enableFreeModelTraining",
    "enablePaidModelTraining",
    "enableFreeModelPublication",
    "allowedDataRegions",
  ],
  moderation: ["contentFilterBuiltins", "contentFilters"],
};
const sorted = (xs: readonly string[]) => [...xs].sort();

describe("the field table's policy column", () => {
  it("gives every field but name and description a policy kind, and those two none", () => {
    for (const k of FIELD_NAMES) {
      const kind = spec(k).policy;
      if (k === "name" || k === "description") expect(kind, k).toBeNull();
      else expect(POLICY_KINDS, k).toContain(kind);
    }
  });

  it.each(POLICY_KINDS)("%s: its fields are the design's, and each field is in one kind only", (kind) => {
    expect(sorted(POLICY_FIELDS[kind])).toEqual(sorted(EXPECTED[kind]));
    const others = POLICY_KINDS.filter((p) => p !== kind).flatMap((p) => POLICY_FIELDS[p]);
    for (const k of POLICY_FIELDS[kind]) expect(others, k).not.toContain(k);
  });

  it.each(POLICY_KINDS)("%s: args shape, config read schema and config body hold exactly its fields", (kind) => {
    const fields = POLICY_FIELDS[kind];
    const wires = sorted(fields.map((k) => spec(k).wire));
    expect(sorted(Object.keys(POLICY_SETTINGS_SHAPES[kind]))).toEqual(sorted(fields));
    expect(sorted(Object.keys(wirePolicyConfig[kind].shape))).toEqual(wires);
    expect(sorted(Object.keys(policyConfig(kind, {})))).toEqual(wires);
  });

  it("the args shape is the guardrail's own schema per field (strict: a bad value fails with the guardrail's message)", () => {
    const limit = POLICY_SETTINGS_SHAPES.budget.limitUsd.safeParse(-1);
    expect(limit.success).toBe(false);
    expect(limit.error?.issues[0]?.message).toBe("must be >= 0");
    expect(POLICY_SETTINGS_SHAPES.budget.limitUsd.parse(null)).toBeUndefined();
  });

  it("the config read is tolerant: absent and [] read as null, unknown settings are dropped, enums stay open", () => {
    const read = wirePolicyConfig.modelAvailability.parse({
      allowed_models: [],
      allowed_data_regions: ["mars"],
      pii_filters: [{ x: 1 }],
    });
    expect(read.allowed_models).toBeNull();
    expect(read.ignored_models).toBeNull();
    expect(read.allowed_data_regions).toEqual(["mars"]);
    expect(read).not.toHaveProperty("pii_filters");
  });

  it("a detail keeps config's unmanaged keys raw for an update to carry back, every string bounded", () => {
    const detail = (config: unknown) => ({
      id: "3f2b8c1e-0000-4000-8000-000000000001",
      name: "p",
      policy_type: "budget",
      config,
      member_ids: [],
      api_key_hashes: [],
      opted_out_api_key_hashes: [],
      overridden_api_key_hashes: [],
    });
    const own = { pii_filters: [{ type: "email" }], armor: { level: "strict" }, allowed_models: ["a/b"] };
    const read = wirePolicyDetail("budget").parse(detail({ limit_usd: 5, reset_interval: "daily", ...own }));
    expect(read.unmanaged_config).toEqual(own);
    expect(read.config).not.toHaveProperty("armor");
    expect(wirePolicyDetail("budget").parse(detail(null)).unmanaged_config).toEqual({});
    const long = wirePolicyDetail("budget").safeParse(detail({ armor: { level: "x".repeat(5000) } }));
    expect(long.error?.issues[0]?.message).toBe("config.armor.level: must be at most 4096 characters (got 5000)");
    const deep = wirePolicyDetail("budget").safeParse(
      detail({ armor: JSON.parse(`${"[".repeat(20)}${"]".repeat(20)}`) }),
    );
    expect(deep.error?.issues[0]?.message).toContain("nested deeper than 16 levels");
    const big = wirePolicyDetail("budget").safeParse(detail({ armor: Array(40).fill("y".repeat(4000)) }));
    expect(big.error?.issues[0]?.message).toContain("exceed 65536 characters as JSON");
  });

  it("the config body falls back as a guardrail's: enforceZdr fills each per-vendor flag, an explicit one wins", () => {
    const body = policyConfig("modelAvailability", { enforceZdr: true, enforceZdrVendorB: false });
    expect(body).toMatchObject({
      enforce_zdr: true,
      enforce_zdr_vendor_a: true,
      enforce_zdr_vendor_b: false,
      enforce_zdr_other: true,
      allowed_models: null,
    });
  });

  it("names each kind's policy_type and back; an unknown type is no kind", () => {
    expect(policyKindOf("model_availability")).toBe("modelAvailability");
    expect(policyKindOf("rate_limit")).toBeUndefined();
  });
});
