/**
 * The program-side conflict warning (assignments/conflicts.ts) with ids the program made
 * secret: the conflict is still found, and the warning names the resources, never the id
 * (issue 24: every copy of a secret is a secret, CLI messages included). Outside a Pulumi
 * run, `pulumi.log.warn` writes to the console, which the test reads.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, describe, expect, it, vi } from "vitest";
import { registerGuardrail, registerSet } from "../../src/dynamic/claims";

const settle = () => new Promise((r) => setTimeout(r, 50));
const resource = {} as pulumi.Resource;

describe("conflict warnings about secret ids", () => {
  afterEach(() => vi.restoreAllMocks());

  it("a member listed twice in one workspace is reported without its id when the list is secret", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const one = pulumi.output("g-one-id");
    const two = pulumi.output("g-two-id");
    registerGuardrail(one, "g1", undefined);
    registerGuardrail(two, "g2", undefined);
    registerSet("member", "one-members", one, pulumi.secret(["user_SECRET-7c1e"]), resource);
    registerSet("member", "two-members", two, [pulumi.secret("user_SECRET-7c1e")], resource);
    await settle();
    const said = warn.mock.calls.map((c) => String(c[0])).join("\n");
    expect(said).toContain('member [secret] is assigned to two guardrails of the same workspace: "g1" (GuardrailMemberAssignment "one-members") and "g2" (GuardrailMemberAssignment "two-members")');
    expect(said).not.toContain("SECRET-7c1e");
  });

  it("a plain id is still named", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const one = pulumi.output("k-one-id");
    const two = pulumi.output("k-two-id");
    registerGuardrail(one, "k1", undefined);
    registerGuardrail(two, "k2", undefined);
    registerSet("key", "one-keys", one, ["plainhash01"], resource);
    registerSet("key", "two-keys", two, ["plainhash01"], resource);
    await settle();
    expect(warn.mock.calls.map((c) => String(c[0])).join("\n")).toContain('key "plainhash01" is assigned to two guardrails: "k1" (GuardrailKeyAssignment "one-keys") and "k2" (GuardrailKeyAssignment "two-keys")');
  });
});
