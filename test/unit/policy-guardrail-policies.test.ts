/**
 * The pack's settings rules over Guardrail Policies (issue 40): each rule judges the policies that
 * hold its setting (the field table's `policy` column), with the guardrail's messages naming the
 * policy, on both faces' tokens; a policy of another kind is not the rule's business. Runs the
 * validations as CrossGuard's server does (behind its unknown-checking proxy); with no provenance
 * record nothing is quoted, as in policy-rules.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { ResourceValidationPolicy } from "@pulumi/policy";
import * as proxy from "@pulumi/policy/proxy";
import { guardrailsPolicies, POLICY_RULES } from "../../src/policy";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../../src/core/kinds";
import { EMAIL_REDACT_SSN_BLOCK } from "../helpers/filters";

const { UnknownValueError, unknownCheckingProxy, unknownNumberValue } = proxy as any;

const ALL = {
  maxLimitUsd: 1000,
  requireResetInterval: "weekly" as const,
  requireZdr: ["vendorA", "vendorB"] as ("vendorA" | "vendorB")[],
  requireBuiltinFilters: ["email", "ssn"] as ("email" | "ssn")[],
  forbidModels: ["bannedco/*"],
  allowProviders: ["openai", "anthropic"],
};

const WS = "ws-eng";
/** A compliant policy of each kind: its own settings only, as its args schema takes them. */
const COMPLIANT: Record<PolicyTypeName, Record<string, unknown>> = {
  BudgetPolicy: { workspaceId: WS, name: "Budget", limitUsd: 500, resetInterval: "weekly" },
  ModelAccessPolicy: {
    workspaceId: WS,
    name: "Models",
    enforceZdrVendorA: true,
    enforceZdrVendorB: true,
    allowedModels: ["acme/new-model"],
    allowedProviders: ["openai"],
  },
  ModerationPolicy: { workspaceId: WS, name: "Moderation", contentFilterBuiltins: EMAIL_REDACT_SSN_BLOCK },
};

type Outcome = { level: string; message: string }[];

async function run(policy: ResourceValidationPolicy, type: string, props: Record<string, unknown>, name = "eng") {
  const out: Outcome = [];
  if (policy.enforcementLevel === "disabled") return out;
  const args = {
    type,
    props: unknownCheckingProxy(props),
    urn: `urn:pulumi:s::p::${type}::${name}`,
    name,
    getConfig: () => ({}),
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

const resourceRules = () =>
  guardrailsPolicies(ALL).filter(
    (p): p is ResourceValidationPolicy => "validateResource" in p && p.name !== "guardrails-provenance",
  );
const rule = (key: keyof typeof POLICY_RULES) =>
  guardrailsPolicies(ALL).find((p) => p.name === POLICY_RULES[key].name) as ResourceValidationPolicy;

describe("the settings rules judge Guardrail Policies", () => {
  it.each(POLICY_TYPE_NAMES.flatMap((t) => [[t, "dynamic"] as const, [t, "native"] as const]))(
    "a compliant %s (%s token) passes every rule",
    async (t, face) => {
      const type = face === "dynamic" ? KINDS[t].dynamicToken : KINDS[t].nativeToken;
      for (const p of resourceRules()) expect(await run(p, type, COMPLIANT[t]), p.name).toEqual([]);
    },
  );

  it.each([
    [
      "BudgetPolicy",
      "maxLimitUsd",
      { limitUsd: 5000 },
      /^budget policy "eng": limitUsd \[hidden\] is over the organization's ceiling of 1000 USD$/,
    ],
    [
      "BudgetPolicy",
      "requireResetInterval",
      { resetInterval: "monthly" },
      /^budget policy "eng": resetInterval \[hidden\] resets less often than the organization requires \(daily or weekly\)$/,
    ],
    [
      "ModelAccessPolicy",
      "requireZdr",
      { enforceZdrVendorB: false },
      /^model availability policy "eng": enforceZdrVendorB is \[hidden\], not true/,
    ],
    [
      "ModelAccessPolicy",
      "forbidModels",
      { allowedModels: ["BannedCo/x-1"] },
      /^model availability policy "eng": allowedModels allows 1 forbidden model entry \[hidden\]/,
    ],
    [
      "ModelAccessPolicy",
      "forbidModels",
      { allowedModels: undefined },
      /^model availability policy "eng": allows every model, including the forbidden bannedco\/\*/,
    ],
    [
      "ModelAccessPolicy",
      "allowProviders",
      { allowedProviders: ["openai", "shadyhost"] },
      /^model availability policy "eng": allowedProviders has 1 provider \[hidden\] outside/,
    ],
    [
      "ModerationPolicy",
      "requireBuiltinFilters",
      { contentFilterBuiltins: [{ slug: "email", action: "block" }] },
      /^moderation policy "eng": .*lacks the builtin content filter ssn/,
    ],
  ] as const)("%s breaking %s is reported naming the policy, on both faces", async (t, key, change, message) => {
    for (const type of [KINDS[t].dynamicToken, KINDS[t].nativeToken]) {
      const out = await run(rule(key), type, { ...COMPLIANT[t], ...change });
      expect(out).toEqual([{ level: "mandatory", message: expect.stringMatching(message) }]);
    }
  });

  it("a rule leaves the kinds that do not hold its setting alone, and judges the one that does", async () => {
    // A bare policy of each kind (only a name): a rule speaks of it exactly when its setting is of
    // the kind. A moderation policy has no limit to judge; a budget policy no models.
    for (const t of POLICY_TYPE_NAMES)
      for (const [key, holder] of Object.entries(HOLDER)) {
        const out = await run(rule(key as keyof typeof HOLDER), KINDS[t].dynamicToken, { name: "x" });
        expect(out.length > 0, `${t} ${key}`).toBe(holder === t);
        for (const o of out) expect(o.message).toMatch(new RegExp(`^${KINDS[t].policy.noun} "eng": `));
      }
  });

  it("a workspace-wide policy meets the rules of its policyType, named as one", async () => {
    const ww = KINDS.WorkspaceWidePolicy;
    const budget = { name: "Org", policyType: "budget", limitUsd: 5000, resetInterval: "monthly", allWorkspaces: true };
    for (const type of [ww.dynamicToken, ww.nativeToken]) {
      expect(await run(rule("maxLimitUsd"), type, budget)).toEqual([
        {
          level: "mandatory",
          message: `workspace-wide budget policy "eng": limitUsd [hidden] is over the organization's ceiling of 1000 USD`,
        },
      ]);
      expect(await run(rule("requireResetInterval"), type, budget)).toHaveLength(1);
      // A budget has no providers or filters to judge.
      for (const key of ["allowProviders", "requireBuiltinFilters", "requireZdr", "forbidModels"] as const)
        expect(await run(rule(key), type, budget), key).toEqual([]);
      const models = { name: "Org", policyType: "modelAccess", allowedProviders: ["shadyhost"], workspaceIds: [] };
      expect(await run(rule("allowProviders"), type, models)).toEqual([
        {
          level: "mandatory",
          message: expect.stringMatching(
            /^workspace-wide model availability policy "eng": allowedProviders has 1 provider \[hidden\] outside/,
          ),
        },
      ]);
      expect(await run(rule("maxLimitUsd"), type, models)).toEqual([]);
    }
  });

  it("an unknown setting of a policy is checked at up, naming the policy", async () => {
    const out = await run(rule("maxLimitUsd"), KINDS.BudgetPolicy.dynamicToken, {
      ...COMPLIANT.BudgetPolicy,
      limitUsd: unknownNumberValue,
    });
    expect(out).toEqual([
      {
        level: "advisory",
        message:
          'budget policy "eng": limitUsd is not known until the resources it depends on exist; guardrails-max-limit-usd is checked at up',
      },
    ]);
  });
});

/** Which policy kind holds the setting each rule judges (the docs' split of a guardrail). */
const HOLDER = {
  maxLimitUsd: "BudgetPolicy",
  requireResetInterval: "BudgetPolicy",
  requireZdr: "ModelAccessPolicy",
  forbidModels: "ModelAccessPolicy",
  allowProviders: "ModelAccessPolicy",
  requireBuiltinFilters: "ModerationPolicy",
} as const satisfies Partial<Record<keyof typeof POLICY_RULES, PolicyTypeName>>;
