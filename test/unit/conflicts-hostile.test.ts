/**
 * The program-side conflict warning (assignments/conflicts.ts) with ids the program made
 * secret: the conflict is still found, and the warning names the resources, never the id
 * (issue 24: every copy of a secret is a secret, CLI messages included). Outside a Pulumi
 * run, `pulumi.log.warn` writes to the console, which the test reads.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
import { claimSet, registerGuardrail, registerSet } from "../../src/dynamic/claims";

const settle = () => new Promise((r) => setTimeout(r, 50));
const resource = {} as pulumi.Resource;
type Ids = Parameters<typeof registerSet>[3];

/**
 * Registers guardrails `${g}1` and `${g}2` (ids `${g}-one-id`, `${g}-two-id`), then a `kind` set on
 * each, `one-${kind}s` listing `lists[0]` and `two-${kind}s` listing `lists[1]`; answers every warning.
 */
async function warningsFor(kind: "member" | "key", g: string, lists: [Ids, Ids]): Promise<string> {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  const one = pulumi.output(`${g}-one-id`);
  const two = pulumi.output(`${g}-two-id`);
  registerGuardrail(one, `${g}1`, undefined);
  registerGuardrail(two, `${g}2`, undefined);
  registerSet(kind, `one-${kind}s`, one, lists[0], resource);
  registerSet(kind, `two-${kind}s`, two, lists[1], resource);
  await settle();
  return warn.mock.calls.map((c) => String(c[0])).join("\n");
}

describe("conflict warnings about secret ids", () => {
  afterEach(() => vi.restoreAllMocks());

  it("a member listed twice in one workspace is reported without its id when the list is secret", async () => {
    const said = await warningsFor("member", "g", [
      pulumi.secret(["user_SECRET-7c1e"]),
      [pulumi.secret("user_SECRET-7c1e")],
    ]);
    expect(said).toContain(
      'member [secret] is assigned to two guardrails of the same workspace: "g1" (GuardrailMemberAssignment "one-members") and "g2" (GuardrailMemberAssignment "two-members")',
    );
    expect(said).not.toContain("SECRET-7c1e");
  });

  it("a plain id is still named", async () => {
    expect(await warningsFor("key", "k", [["plainhash01"], ["plainhash01"]])).toContain(
      'key "plainhash01" is assigned to two guardrails: "k1" (GuardrailKeyAssignment "one-keys") and "k2" (GuardrailKeyAssignment "two-keys")',
    );
  });
});

describe("conflicts about a secret guardrail id", () => {
  afterEach(() => vi.restoreAllMocks());
  const said = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((c) => String(c[0])).join("\n");
  const refusal = (mine: string, theirs: string, guardrail: string) =>
    `${mine} and ${theirs} both manage the members of guardrail ${guardrail}; an exclusive set owns the guardrail's whole member set, so each up would remove the other's members. Merge them into one set, or make both additive (exclusive: false).`;

  it("a member listed on two guardrails is not named when the first set's list alone is secret", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const one = pulumi.output("f-one-id");
    const two = pulumi.output("f-two-id");
    registerGuardrail(one, "f1", undefined);
    registerGuardrail(two, "f2", undefined);
    registerSet("member", "one-members", one, pulumi.secret(["user_FIRST-5d2a"]), resource);
    await settle();
    registerSet("member", "two-members", two, ["user_FIRST-5d2a"], resource);
    await settle();
    const warnings = said(warn);
    expect(warnings).toContain("member [secret] is assigned to two guardrails of the same workspace");
    expect(warnings).not.toContain("FIRST-5d2a");
  });

  it("an exclusive set beside another on a secret guardrail id names the guardrail [secret], either way round", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const G = "5ec2e700-0000-4000-8000-00000000000a";
    claimSet("member", "sa", pulumi.secret(G), false);
    claimSet("member", "sb", pulumi.secret(G), true);
    await settle();
    expect(said(errors)).toContain(
      refusal('exclusive GuardrailMemberAssignment "sb"', 'GuardrailMemberAssignment "sa"', "[secret]"),
    );
    // The first set's id was secret: the second's literal copy of it is not printed either.
    expect(() => claimSet("member", "sc", G, true)).toThrow(
      refusal('exclusive GuardrailMemberAssignment "sc"', 'GuardrailMemberAssignment "sa"', "[secret]"),
    );
    const H = "5ec2e700-0000-4000-8000-00000000000b";
    claimSet("member", "pa", H, false);
    claimSet("member", "pb", pulumi.secret(H), true);
    await settle();
    expect(said(errors)).toContain(
      refusal('exclusive GuardrailMemberAssignment "pb"', 'GuardrailMemberAssignment "pa"', "[secret]"),
    );
    expect(said(errors)).not.toContain(G);
    expect(said(errors)).not.toContain(H);
  });

  it("a plain guardrail id is still named, as before", () => {
    const P = "5ec2e700-0000-4000-8000-00000000000c";
    claimSet("member", "qa", P, false);
    expect(() => claimSet("member", "qb", P, true)).toThrow(
      refusal('exclusive GuardrailMemberAssignment "qb"', 'GuardrailMemberAssignment "qa"', P),
    );
  });
});
