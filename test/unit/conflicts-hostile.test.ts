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
