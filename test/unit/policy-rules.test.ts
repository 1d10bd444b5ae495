/**
 * The policy factory's rules over props as CrossGuard hands them: behind the policy SDK's own
 * unknown-checking proxy, with its own sentinels for unknowns. Violations are reported at
 * the policy's level; an unknown becomes the SDK's unknown-value error (its advisory) only
 * after every provable violation was reported. This harness calls the validations alone (no
 * remediation records which inputs are secret), so no message quotes a value: `[hidden]`.
 * policy-hostile.test.ts runs the whole pack, records included.
 */
import { describe, expect, it } from "vitest";
import {
  validateResourceOfType,
  type ResourceValidationPolicy,
  type StackValidationPolicy,
  type PolicyResource,
} from "@pulumi/policy";
import * as proxy from "@pulumi/policy/proxy";

import {
  guardrailsPolicies,
  parsePolicyOptions,
  PolicyOptionsError,
  POLICY_RULES,
  GUARDRAIL_TYPE,
  MEMBER_ASSIGNMENT_TYPE,
  loadPolicyFile,
} from "../../src/policy";
import { Guardrail, GuardrailMemberAssignment, GuardrailKeyAssignment } from "../../src";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EMAIL_REDACT_SSN_BLOCK } from "../helpers/filters";

// The SDK's own proxy and sentinels (marked internal in its typings): what its server hands a policy.
const { UnknownValueError, unknownCheckingProxy, unknownNumberValue, unknownStringValue, unknownObjectValue } =
  proxy as any;

const ALL = {
  maxLimitUsd: 1000,
  requireResetInterval: "weekly" as const,
  requireZdr: ["vendorA", "vendorB"] as ("vendorA" | "vendorB")[],
  requireBuiltinFilters: ["email", "ssn"] as ("email" | "ssn")[],
  forbidModels: ["bannedco/*", "acme/old-model"],
  allowProviders: ["openai", "anthropic"],
  requireMemberSet: true,
};

const COMPLIANT = {
  name: "Engineering",
  limitUsd: 500,
  resetInterval: "weekly",
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  contentFilterBuiltins: EMAIL_REDACT_SSN_BLOCK,
  allowedModels: ["acme/new-model"],
  allowedProviders: ["openai"],
};

type Outcome = { level: string; message: string }[];

/** Runs one resource policy the way CrossGuard's server does (server.js, analyze). */
async function run(
  policy: ResourceValidationPolicy,
  props: Record<string, unknown>,
  config: Record<string, unknown> = {},
  name = "eng",
): Promise<Outcome> {
  const out: Outcome = [];
  if (policy.enforcementLevel === "disabled") return out;
  const args = {
    type: GUARDRAIL_TYPE,
    props: unknownCheckingProxy(props),
    urn: `urn:pulumi:s::p::${GUARDRAIL_TYPE}::${name}`,
    name,
    getConfig: () => config,
  } as any;
  try {
    await (policy.validateResource as any)(args, (message: string) =>
      out.push({ level: policy.enforcementLevel!, message }),
    );
  } catch (e) {
    if (!(e instanceof UnknownValueError)) throw e;
    out.push({ level: "advisory", message: (e as Error).message });
  }
  return out;
}

const byName = (policies: any[], name: string) => policies.find((p) => p.name === name);
const rule = (key: keyof typeof POLICY_RULES, opts: object = ALL) =>
  byName(guardrailsPolicies(opts), POLICY_RULES[key].name) as ResourceValidationPolicy;

describe("guardrailsPolicies: each rule", () => {
  it("passes a compliant guardrail on every resource rule", async () => {
    for (const p of guardrailsPolicies(ALL).filter((p) => "validateResource" in p))
      expect(await run(p as ResourceValidationPolicy, COMPLIANT), p.name).toEqual([]);
  });

  it.each([
    ["maxLimitUsd", { limitUsd: 5000 }, /limitUsd \[hidden\] is over the organization's ceiling of 1000 USD/],
    ["maxLimitUsd", { limitUsd: undefined }, /has no limitUsd \(no spending limit\)/],
    [
      "requireResetInterval",
      { limitUsd: undefined, resetInterval: undefined },
      /has no resetInterval, so no spending limit that resets; set limitUsd with a resetInterval of daily or weekly$/,
    ],
    [
      "requireResetInterval",
      { resetInterval: "monthly" },
      /resetInterval \[hidden\] resets less often than the organization requires \(daily or weekly\)$/,
    ],
    ["requireZdr", { enforceZdrVendorB: false }, /enforceZdrVendorB is \[hidden\], not true/],
    ["requireZdr", { enforceZdrVendorA: undefined }, /does not set enforceZdrVendorA/],
    [
      "requireBuiltinFilters",
      { contentFilterBuiltins: [{ slug: "email", action: "block" }] },
      /lacks the builtin content filter ssn/,
    ],
    [
      "forbidModels",
      { allowedModels: ["BannedCo/x-1", "acme/new-model"] },
      /allowedModels allows 1 forbidden model entry \[hidden\]/,
    ],
    [
      "forbidModels",
      { allowedModels: undefined, ignoredModels: ["bannedco/*"] },
      /allows every model, including the forbidden .*acme\/old-model: it sets no allowedModels, and ignoredModels cannot take them out/,
    ],
    [
      "allowProviders",
      { allowedProviders: ["openai", "shadyhost"] },
      /allowedProviders has 1 provider \[hidden\] outside the organization's list \(openai, anthropic\)/,
    ],
    ["allowProviders", { allowedProviders: undefined }, /does not set allowedProviders/],
  ] as const)("%s fails %j, naming the guardrail", async (key, change, message) => {
    const out = await run(rule(key), { ...COMPLIANT, ...change });
    expect(out).toHaveLength(1);
    expect(out[0]!.level).toBe("mandatory");
    expect(out[0]!.message).toMatch(/^guardrail "eng": /);
    expect(out[0]!.message).toMatch(message);
  });

  it("requireResetInterval: true takes any interval and still wants one; an interval takes itself and shorter ones", async () => {
    expect(
      await run(rule("requireResetInterval", { requireResetInterval: true }), {
        ...COMPLIANT,
        resetInterval: "monthly",
      }),
    ).toEqual([]);
    expect(
      await run(rule("requireResetInterval", { requireResetInterval: true }), {
        ...COMPLIANT,
        limitUsd: undefined,
        resetInterval: undefined,
      }),
    ).toEqual([
      {
        level: "mandatory",
        message:
          'guardrail "eng": has no resetInterval, so no spending limit that resets; set limitUsd with a resetInterval of daily, weekly or monthly',
      },
    ]);
    for (const [required, reset, passes] of [
      ["daily", "daily", true],
      ["daily", "weekly", false],
      ["weekly", "daily", true],
      ["monthly", "monthly", true],
    ] as const) {
      expect(
        await run(rule("requireResetInterval", { requireResetInterval: required }), {
          ...COMPLIANT,
          resetInterval: reset,
        }),
        `${required} ${reset}`,
      ).toHaveLength(passes ? 0 : 1);
    }
    expect(() => parsePolicyOptions({ requireResetInterval: "hourly" })).toThrow(
      'requireResetInterval must be true, false, or the longest reset interval allowed (daily, weekly, monthly) (got "hourly")',
    );
  });

  it("reads the deprecated enforceZdr as the fallback of an omitted per-vendor arg", async () => {
    const { enforceZdrVendorA: _a, enforceZdrVendorB: _b, ...rest } = COMPLIANT;
    expect(await run(rule("requireZdr"), { ...rest, enforceZdr: true })).toEqual([]);
    expect(await run(rule("requireZdr"), { ...rest, enforceZdr: true, enforceZdrVendorA: false })).toHaveLength(1);
  });

  it("a rule at advisory warns; levels override per rule; no option means disabled", async () => {
    const p = rule("maxLimitUsd", { ...ALL, enforcement: "advisory", levels: { forbidModels: "mandatory" } });
    expect(await run(p, { ...COMPLIANT, limitUsd: 5000 })).toEqual([expect.objectContaining({ level: "advisory" })]);
    expect(
      rule("forbidModels", { ...ALL, enforcement: "advisory", levels: { forbidModels: "mandatory" } }).enforcementLevel,
    ).toBe("mandatory");
    expect(guardrailsPolicies({ maxLimitUsd: 1 }).map((p) => [p.name, p.enforcementLevel])).toEqual([
      ["guardrails-provenance", "remediate"],
      ["guardrails-max-limit-usd", "mandatory"],
      ["guardrails-require-reset-interval", "disabled"],
      ["guardrails-require-zdr", "disabled"],
      ["guardrails-require-builtin-filters", "disabled"],
      ["guardrails-forbid-models", "disabled"],
      ["guardrails-allow-providers", "disabled"],
      ["guardrails-sets-on-checked-guardrails", "mandatory"],
      ["guardrails-require-member-set", "disabled"],
      ["guardrails-require-workspace-default", "disabled"],
      ["guardrails-effective-access", "disabled"],
    ]);
  });

  it("pack config overrides the option's value, validated like the options", async () => {
    const p = rule("maxLimitUsd");
    expect(await run(p, { ...COMPLIANT, limitUsd: 500 }, { maxLimitUsd: 100 })).toHaveLength(1);
    await expect(run(p, COMPLIANT, { maxLimitUsd: -1 })).rejects.toThrow(
      "policy pack config of guardrails-max-limit-usd: maxLimitUsd must be >= 0 (got -1)",
    );
    await expect(run(rule("maxLimitUsd", {}), COMPLIANT, {})).resolves.toEqual([]); // disabled: not run
    const enabledByConfig = { ...rule("maxLimitUsd", {}), enforcementLevel: "mandatory" as const };
    await expect(run(enabledByConfig, COMPLIANT)).rejects.toThrow(
      "maxLimitUsd is required when guardrails-max-limit-usd is enabled",
    );
  });
});

describe("unknowns: checked at up, never a lost violation or a false pass", () => {
  it("an unknown value gives the SDK's advisory saying 'checked at up'", async () => {
    const out = await run(rule("maxLimitUsd"), { ...COMPLIANT, limitUsd: unknownNumberValue });
    expect(out).toEqual([
      {
        level: "advisory",
        message:
          'guardrail "eng": limitUsd is not known until the resources it depends on exist; guardrails-max-limit-usd is checked at up',
      },
    ]);
  });

  it("a violation proven beside an unknown stays mandatory", async () => {
    const out = await run(rule("requireZdr"), {
      ...COMPLIANT,
      enforceZdrVendorA: false,
      enforceZdrVendorB: unknownObjectValue,
    });
    expect(out.map((o) => o.level)).toEqual(["mandatory", "advisory"]);
    expect(out[0]!.message).toMatch(/enforceZdrVendorA is \[hidden\]/);
  });

  it("an unknown list item is checked at up unless the violation is proven anyway", async () => {
    const item = await run(rule("requireBuiltinFilters"), {
      ...COMPLIANT,
      contentFilterBuiltins: [
        { slug: "email", action: "block" },
        { slug: unknownStringValue, action: "block" },
      ],
    });
    expect(item).toEqual([
      expect.objectContaining({ level: "advisory", message: expect.stringContaining("checked at up") }),
    ]);
    const proven = await run(rule("allowProviders"), { ...COMPLIANT, allowedProviders: ["shady", unknownStringValue] });
    expect(proven.map((o) => o.level)).toEqual(["mandatory"]);
  });
});

describe("without a record of which inputs were secret, no value is quoted", () => {
  it("messages carry [hidden], never the resource's values", async () => {
    const secretish = {
      ...COMPLIANT,
      name: "s3cr3t-name",
      limitUsd: 987654.321,
      allowedProviders: ["s3cr3t-provider"],
      allowedModels: ["bannedco/s3cr3t-model"],
      enforceZdrVendorA: "s3cr3t-flag",
    };
    const messages = (
      await Promise.all(
        guardrailsPolicies(ALL)
          .filter((p) => "validateResource" in p)
          .map((p) => run(p as ResourceValidationPolicy, secretish)),
      )
    )
      .flat()
      .map((o) => o.message)
      .join("\n");
    expect(messages).toContain("[hidden]");
    expect(messages).not.toMatch(/s3cr3t|987654/);
  });
});

describe("requireMemberSet (stack rule)", () => {
  const g = (name: string) =>
    ({
      type: GUARDRAIL_TYPE,
      name,
      urn: `urn:g:${name}`,
      props: unknownCheckingProxy({ name }),
      dependencies: [],
      propertyDependencies: {},
    }) as unknown as PolicyResource;
  const set = (of: PolicyResource, members: unknown) =>
    ({
      type: MEMBER_ASSIGNMENT_TYPE,
      name: `${of.name}-members`,
      urn: `urn:m:${of.name}`,
      props: unknownCheckingProxy({ guardrailId: unknownStringValue, members }),
      dependencies: [of],
      propertyDependencies: { guardrailId: [of] },
    }) as unknown as PolicyResource;
  async function runStack(resources: PolicyResource[]): Promise<Outcome> {
    const p = byName(guardrailsPolicies(ALL), "guardrails-require-member-set") as StackValidationPolicy;
    const out: Outcome = [];
    try {
      await p.validateStack({ resources, getConfig: () => ({}) } as any, (message: string) =>
        out.push({ level: "mandatory", message }),
      );
    } catch (e) {
      if (!(e instanceof UnknownValueError)) throw e;
      out.push({ level: "advisory", message: (e as Error).message });
    }
    return out;
  }

  it("fails a guardrail without a set or with an empty one; passes one with members; unknown members are checked at up", async () => {
    const [a, b, c, d] = ["a", "b", "c", "d"].map(g) as [
      PolicyResource,
      PolicyResource,
      PolicyResource,
      PolicyResource,
    ];
    const out = await runStack([a, b, c, d, set(b, {}), set(c, { user_1: true }), set(d, unknownObjectValue)]);
    expect(out).toEqual([
      {
        level: "mandatory",
        message: expect.stringMatching(/^guardrail "a": has no GuardrailMemberAssignment whose guardrailId is its id/),
      },
      { level: "mandatory", message: expect.stringMatching(/^guardrail "b": has a member set with no members/) },
      {
        level: "advisory",
        message: expect.stringMatching(/^guardrail "d": members of its member set is not known .* checked at up$/),
      },
    ]);
  });
});

describe("options", () => {
  it("a bad option fails with a message naming every field", () => {
    expect(() =>
      guardrailsPolicies({
        maxLimitUsd: -5,
        requireZdr: ["vendorQ" as any],
        forbidModels: [],
        enforcment: "advisory",
      } as any),
    ).toThrow(PolicyOptionsError);
    expect(() =>
      parsePolicyOptions({ maxLimitUsd: -5, requireZdr: ["vendorQ"], forbidModels: [], enforcment: "advisory" }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[PolicyOptionsError: guardrailsPolicies options: maxLimitUsd must be >= 0 (got -5); requireZdr[0] each item must be one of vendorA, vendorB, vendorC, other (got "vendorQ"); forbidModels must not be empty: omit the option to disable the rule (got []); enforcment unknown property; did you mean "enforcement"?]`,
    );
  });

  it("the policy file holds the same options, with the same messages, naming the file", () => {
    const dir = mkdtempSync(join(tmpdir(), "policy-file-"));
    writeFileSync(
      join(dir, "policy.yaml"),
      "$schema: ../schema/policy.schema.json\nmaxLimitUsd: 1000\nrequireZdr: [vendorA]\nlevels:\n  maxLimitUsd: advisory\n",
    );
    expect(loadPolicyFile(join(dir, "policy.yaml"))).toEqual({
      maxLimitUsd: 1000,
      requireZdr: ["vendorA"],
      levels: { maxLimitUsd: "advisory" },
    });
    writeFileSync(join(dir, "bad.yaml"), "maxLimitUsd: lots\n");
    expect(() => loadPolicyFile(join(dir, "bad.yaml"))).toThrow(
      `${join(dir, "bad.yaml")}: maxLimitUsd must be a number of US dollars (got "lots")`,
    );
  });
});

describe("type tokens", () => {
  it("the resource classes' static __pulumiType is what validateResourceOfType matches", async () => {
    expect(Guardrail.__pulumiType).toBe("pulumi-nodejs:dynamic/guardrails:Guardrail");
    expect(GuardrailMemberAssignment.__pulumiType).toBe("pulumi-nodejs:dynamic/guardrails:GuardrailMemberAssignment");
    expect(GuardrailKeyAssignment.__pulumiType).toBe("pulumi-nodejs:dynamic/guardrails:GuardrailKeyAssignment");
    let seen = 0;
    const fn = validateResourceOfType(Guardrail, () => void seen++) as any;
    expect(fn.__pulumiType).toBe(GUARDRAIL_TYPE);
    fn({ type: GUARDRAIL_TYPE, isType: (cls: any) => cls.__pulumiType === GUARDRAIL_TYPE, props: {} }, () => {});
    expect(seen).toBe(1);
  });
});
