/**
 * Attack on issue 40's library surfaces, part 2: the policy pack's settings rules over Guardrail
 * Policies (src/policy). The bar: a policy that may break an organization rule is reported, or
 * checked at up when the preview cannot tell; never passed unseen. Runs the validations as
 * CrossGuard's server does (behind its unknown-checking proxy), as
 * policy-guardrail-policies.test.ts does. Attack ids P1... are the report's.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import * as proxy from "@pulumi/policy/proxy";
import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/core/kinds";
import { guardrailsPolicies, POLICY_RULES } from "../../src/policy";

const { UnknownValueError, unknownCheckingProxy, unknownNumberValue, unknownStringValue } = proxy as any;

const ALL = {
  maxLimitUsd: 1000,
  requireResetInterval: "weekly" as const,
  requireZdr: ["vendorA"] as "vendorA"[],
  requireBuiltinFilters: ["email"] as "email"[],
  forbidModels: ["bannedco/*"],
  allowProviders: ["openai"],
};
type Outcome = { level: string; message: string }[];

async function run(key: keyof typeof POLICY_RULES, type: string, props: Record<string, unknown>, name = "eng") {
  const policy = guardrailsPolicies(ALL).find((p) => p.name === POLICY_RULES[key].name) as ResourceValidationPolicy;
  const out: Outcome = [];
  const args = {
    type,
    props: unknownCheckingProxy(props),
    urn: `urn:pulumi:s::p::${type}::${name}`,
    name,
    getConfig: () => ({}),
  } as any;
  try {
    await (policy.validateResource as any)(args, (message: string) => out.push({ level: "report", message }));
  } catch (e) {
    if (!(e instanceof UnknownValueError)) throw e;
    out.push({ level: "checked at up", message: (e as Error).message });
  }
  return out;
}
const WIDE = KINDS.WorkspaceWidePolicy;
const faces = (k: keyof typeof KINDS) => [KINDS[k].dynamicToken, KINDS[k].nativeToken];

describe("P: the settings rules over workspace-wide and workspace policies", () => {
  it.each(faces("WorkspaceWidePolicy"))("P1 a workspace-wide budget over the ceiling is reported (%s)", async (t) => {
    const out = await run("maxLimitUsd", t, { name: "Org", policyType: "budget", limitUsd: 5000, allWorkspaces: true });
    expect(out).toEqual([{ level: "report", message: expect.stringMatching(/^workspace-wide budget policy "eng"/) }]);
  });
  it("P2 a workspace-wide policy whose type is unknown at preview, over the ceiling, is reported", async () => {
    const out = await run("maxLimitUsd", WIDE.dynamicToken, {
      name: "Org",
      policyType: unknownStringValue,
      limitUsd: 5000,
    });
    expect(out.length).toBe(1);
  });
  it("P3 a workspace-wide policy whose type is unknown at preview and sets no providers is checked at up", async () => {
    const out = await run("allowProviders", WIDE.dynamicToken, { name: "Org", policyType: unknownStringValue });
    expect(out.length, JSON.stringify(out)).toBe(1);
  });
  it("P4 a workspace-wide model access policy with no allowedProviders is reported", async () => {
    const out = await run("allowProviders", WIDE.nativeToken, { name: "Org", policyType: "modelAccess" });
    expect(out).toEqual([{ level: "report", message: expect.stringMatching(/does not set allowedProviders/) }]);
  });
  it("P5 a workspace-wide moderation policy without a required builtin is reported", async () => {
    const out = await run("requireBuiltinFilters", WIDE.dynamicToken, {
      name: "Org",
      policyType: "moderation",
      contentFilterBuiltins: [],
    });
    expect(out.length).toBe(1);
  });
  it("P6 a workspace-wide policy of a type the rule does not know, holding a limit over the ceiling, is reported", async () => {
    const out = await run("maxLimitUsd", WIDE.dynamicToken, { name: "Org", policyType: "toString", limitUsd: 5000 });
    expect(out.length).toBe(1);
  });
  it.each(faces("BudgetPolicy"))(
    "P7 a budget policy whose limit is unknown at preview is checked at up (%s)",
    async (t) => {
      const out = await run("maxLimitUsd", t, { workspaceId: "w", name: "B", limitUsd: unknownNumberValue });
      expect(out).toEqual([{ level: "checked at up", message: expect.any(String) }]);
    },
  );
  it("P8 a budget policy with a reset interval unknown at preview is checked at up", async () => {
    const out = await run("requireResetInterval", KINDS.BudgetPolicy.dynamicToken, {
      workspaceId: "w",
      name: "B",
      limitUsd: 5,
      resetInterval: unknownStringValue,
    });
    expect(out).toEqual([{ level: "checked at up", message: expect.any(String) }]);
  });
  it("P9 a budget policy that never resets breaks requireResetInterval", async () => {
    const out = await run("requireResetInterval", KINDS.BudgetPolicy.nativeToken, {
      workspaceId: "w",
      name: "B",
      limitUsd: 5,
    });
    expect(out.length).toBe(1);
  });
  it("P10 a model access policy with ZDR unknown at preview is checked at up", async () => {
    const out = await run("requireZdr", KINDS.ModelAccessPolicy.dynamicToken, {
      workspaceId: "w",
      name: "M",
      enforceZdrVendorA: unknownStringValue,
      allowedProviders: ["openai"],
    });
    expect(out).toEqual([{ level: "checked at up", message: expect.any(String) }]);
  });
  it("P11 a model access policy with ZDR off is reported", async () => {
    const out = await run("requireZdr", KINDS.ModelAccessPolicy.nativeToken, {
      workspaceId: "w",
      name: "M",
      enforceZdrVendorA: false,
    });
    expect(out.length).toBe(1);
  });
  it("P12 a model access policy allowing a forbidden model through an unknown element is checked at up", async () => {
    const out = await run("forbidModels", KINDS.ModelAccessPolicy.dynamicToken, {
      workspaceId: "w",
      name: "M",
      allowedModels: ["openai/gpt-4o", unknownStringValue],
    });
    expect(out).toEqual([{ level: "checked at up", message: expect.any(String) }]);
  });
  it("P13 a policy under another type token (an alias of a dynamic resource, no provenance) is not passed unseen", async () => {
    const out = await run("maxLimitUsd", "pulumi-nodejs:dynamic:Resource", {
      workspaceId: "w",
      name: "B",
      limitUsd: 5000,
      __provider: "x",
    });
    expect(out.length).toBe(1);
  });
  it("P14 a hostile policy name is quoted, not passed raw into the engine's message", async () => {
    const out = await run(
      "maxLimitUsd",
      KINDS.BudgetPolicy.dynamicToken,
      { workspaceId: "w", name: "B", limitUsd: 5000 },
      'x"\u001b[31m\nFAKE: ok',
    );
    expect(out[0]?.message).not.toMatch(/\u001b|\n/);
  });
});
