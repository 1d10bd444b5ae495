/**
 * The pack's `effectiveAccess` rule (issue 41): "no member outside group G can reach model M",
 * judged at preview from the layers the stack plans (core/access `plannedAccess`, as the PR
 * summary reads them), failing closed on a layer that cannot be known. Props go through the
 * policy SDK's own proxy, as the other pack tests run them.
 */
import type { PolicyResource, StackValidationPolicy } from "@pulumi/policy";
import * as proxy from "@pulumi/policy/proxy";
import { describe, expect, it } from "vitest";
import { guardrailsPolicies, parsePolicyOptions, PolicyOptionsError } from "../../src/policy";
import { KINDS } from "../../src/core/kinds";

const { unknownCheckingProxy, unknownStringValue } = proxy as any;
const WS = "3f2b8c1e-0000-4000-8000-00000000000a";
const MODEL = "vendor-x/model-y";

const res = (type: keyof typeof KINDS, name: string, props: Record<string, unknown>, on?: PolicyResource) =>
  ({
    type: KINDS[type].dynamicToken,
    name,
    urn: `urn:pulumi:s::p::${KINDS[type].dynamicToken}::${name}`,
    props: unknownCheckingProxy({ workspaceId: WS, ...props }),
    dependencies: on ? [on] : [],
    propertyDependencies: on ? { guardrailId: [on] } : {},
  }) as unknown as PolicyResource;
const guardrail = (name: string, allowedModels: string[] | undefined) =>
  res("Guardrail", name, { name, guardrailId: `g-${name}`, ...(allowedModels ? { allowedModels } : {}) });
const members = (g: PolicyResource, ids: unknown) =>
  res("GuardrailMemberAssignment", `${g.name}-members`, { guardrailId: `g-${g.name}`, memberUserIds: ids }, g);
const keys = (g: PolicyResource, ids: unknown) =>
  res("GuardrailKeyAssignment", `${g.name}-keys`, { guardrailId: `g-${g.name}`, keyHashes: ids }, g);
const DEFAULT = res("WorkspaceDefaultGuardrail", "default", { allowedModels: ["vendor-x/model-a"] });

async function run(resources: PolicyResource[], effectiveAccess: object): Promise<string[]> {
  const p = guardrailsPolicies({ effectiveAccess } as never).find(
    (x) => x.name === "guardrails-effective-access",
  ) as StackValidationPolicy;
  expect(p.enforcementLevel).toBe("mandatory");
  const out: string[] = [];
  await p.validateStack({ resources, getConfig: () => ({}) } as never, (m: string) => out.push(m));
  return out;
}
const ONLY_RESEARCH = {
  models: { [MODEL]: { onlyMembers: ["user_rita"] } },
  keyOwners: { k1: "user_rita", k2: "user_sam" },
};

describe("effectiveAccess (stack rule)", () => {
  const strict = guardrail("strict", ["vendor-x/model-a"]);
  const research = guardrail("research", ["vendor-x/model-a", "vendor-x/model-y-20260101"]);

  it("passes when only the group's members, and keys they own, can reach the model", async () => {
    const stack = [
      DEFAULT,
      strict,
      research,
      members(strict, ["user_sam"]),
      members(research, ["user_rita"]),
      keys(research, ["k1"]),
      keys(strict, ["k2"]),
    ];
    expect(await run(stack, ONLY_RESEARCH)).toEqual([]);
  });

  it("fails a member outside the group who can reach it (a dated slug counts as the model), naming its layers", async () => {
    const stack = [DEFAULT, strict, research, members(strict, []), members(research, ["user_rita", "user_sam"])];
    expect(await run(stack, ONLY_RESEARCH)).toEqual([
      'member "user_sam" can reach "vendor-x/model-y" (layers: "research")',
    ]);
  });

  it("a member two sets assign is not taken to be on the stricter one: which holds it after apply is not known", async () => {
    const stack = [
      DEFAULT,
      strict,
      research,
      members(research, ["user_rita", "user_sam"]),
      members(strict, ["user_sam"]),
    ];
    expect(await run(stack, ONLY_RESEARCH)).toEqual([
      'member "user_sam" cannot be shown not to reach "vendor-x/model-y": "its own guardrail: on two sets, which holds it is not known at preview"',
    ]);
  });

  it("a model allowed under two forms by two layers is reached: the service resolves them alike, exact ids do not", async () => {
    const dated = res("ModelAccessPolicy", "dated", {
      name: "Dated",
      allowedModels: ["vendor-x/model-y-20260101"],
      memberUserIds: ["user_sam"],
    });
    const plain = guardrail("plain", ["vendor-x/model-a", MODEL]);
    const stack = [DEFAULT, plain, members(plain, ["user_sam"]), dated];
    expect(await run(stack, ONLY_RESEARCH)).toEqual([
      'member "user_sam" can reach "vendor-x/model-y" (layers: "plain", "Dated")',
    ]);
  });

  it("a set whose guardrail is not created yet is read by its one dependency, as the engine hands it", async () => {
    const fresh = res("Guardrail", "fresh", { name: "Fresh", allowedModels: [MODEL] });
    const set = res(
      "GuardrailMemberAssignment",
      "fresh-members",
      { guardrailId: unknownStringValue, memberUserIds: ["user_sam"] },
      fresh,
    );
    expect(await run([DEFAULT, fresh, set], ONLY_RESEARCH)).toEqual([
      'member "user_sam" can reach "vendor-x/model-y" (layers: "Fresh")',
    ]);
  });

  it("fails a key under the group's guardrail whose owner is outside the group, or not named", async () => {
    const stack = [DEFAULT, research, members(research, ["user_rita"]), keys(research, ["k2", "k3"])];
    expect(await run(stack, ONLY_RESEARCH)).toEqual([
      // Its owner is named but on no set of the stack: the default it would fall to may not be theirs.
      expect.stringMatching(
        /^key "k2" cannot be shown not to reach "vendor-x\/model-y": "its owner's guardrail, if any/,
      ),
      'key "k3" can reach "vendor-x/model-y" (layers: "research"); its owner is not named (keyOwners), so it may be outside the group',
    ]);
  });

  it("fails everyone without a guardrail of their own when the workspace default lets them reach it", async () => {
    const open = res("WorkspaceDefaultGuardrail", "default", {});
    const out = await run([open, research, members(research, ["user_rita"])], ONLY_RESEARCH);
    expect(out).toEqual([
      `everyone of workspace "${WS}" without a guardrail of their own can reach "vendor-x/model-y" (layers: "default")`,
    ]);
  });

  it("fails closed: an unmanaged default, a set not known until apply, a member's own guardrail outside the stack", async () => {
    const out = await run(
      [
        research,
        members(research, unknownStringValue),
        res("ModelAccessPolicy", "extra", {
          name: "Extra",
          memberUserIds: ["user_tom"],
          allowedModels: ["vendor-x/model-a"],
        }),
      ],
      ONLY_RESEARCH,
    );
    expect(out).toEqual([
      expect.stringMatching(
        /^member "user_tom" cannot be shown not to reach "vendor-x\/model-y": "its own guardrail, if any.*the workspace default guardrail of .*member set \\"research-members\\": its list is secret or not known at preview/,
      ),
      // No default guardrail in the stack: no layer it knows restricts them.
      `everyone of workspace "${WS}" without a guardrail of their own can reach "vendor-x/model-y" (layers: no layer restricts it)`,
    ]);
  });

  it("a secret list is never named: its ids stay out of every message", async () => {
    const secretSet = members(research, ["user_hidden"]);
    const p = guardrailsPolicies({ effectiveAccess: ONLY_RESEARCH } as never);
    const provenance = p.find((x) => x.name === "guardrails-provenance") as any;
    // The remediation sees the secret wrapped; the record marks memberUserIds secret.
    class SecretBox {
      constructor(readonly value: unknown) {}
    }
    Object.defineProperty(SecretBox, "name", { value: "Secret" });
    provenance.remediateResource({ urn: secretSet.urn, props: { memberUserIds: new SecretBox(["user_hidden"]) } });
    const rule = p.find((x) => x.name === "guardrails-effective-access") as StackValidationPolicy;
    const out: string[] = [];
    await rule.validateStack(
      { resources: [DEFAULT, research, secretSet], getConfig: () => ({}) } as never,
      (m: string) => out.push(m),
    );
    expect(out.join("\n")).not.toContain("user_hidden");
    expect(out.join("\n")).toContain("its list is secret or not known at preview");
  });

  it("refuses a bad option naming the field", () => {
    expect(() =>
      parsePolicyOptions({ effectiveAccess: { models: { [MODEL]: { onlyMembers: "user_rita" } } } }),
    ).toThrow(PolicyOptionsError);
    expect(() => parsePolicyOptions({ effectiveAccess: { models: {} } })).toThrow(
      /effectiveAccess.models must name at least one model/,
    );
  });
});
