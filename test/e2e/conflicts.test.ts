/**
 * Cross-set conflicts warn at `pulumi preview`, naming both resources: a member in two member
 * sets on guardrails of one workspace, a key in any two key sets. A member in sets of two
 * different workspaces is fine and stays quiet.
 */
import { describe, expect, it } from "vitest";
import { useProgram } from "./harness";

const W2 = "00000000-0000-4000-8000-000000000002";

describe("cross-set conflicts in a program", () => {
  const p = useProgram("conflicts-e2e");

  it("preview warns about each id two sets claim in one scope, naming both resources", async () => {
    p.write(`
import { Guardrail, GuardrailMemberAssignment, GuardrailKeyAssignment } from "pulumi-guardrails";
const g1 = new Guardrail("g1", { name: "One" });
const g2 = new Guardrail("g2", { name: "Two" });
const g3 = new Guardrail("g3", { name: "Three", workspaceId: "${W2}" });
new GuardrailMemberAssignment("one-members", { guardrailId: g1.id, memberUserIds: ["user_alice", "user_bob"] });
new GuardrailMemberAssignment("two-members", { guardrailId: g2.id, memberUserIds: ["user_bob", "user_carol"] });
new GuardrailMemberAssignment("three-members", { guardrailId: g3.id, memberUserIds: ["user_alice"] });
new GuardrailKeyAssignment("one-keys", { guardrailId: g1.id, keyHashes: ["a1b2c3d4e5f60718"] });
new GuardrailKeyAssignment("three-keys", { guardrailId: g3.id, keyHashes: ["a1b2c3d4e5f60718"] });
`);
    const res = await p.preview();
    expect(res.code).toBe(0);
    expect(res.output).toContain(
      'warning: pulumi-guardrails: member "user_bob" is assigned to two guardrails of the same workspace: "g1" (GuardrailMemberAssignment "one-members") and "g2" (GuardrailMemberAssignment "two-members")',
    );
    expect(res.output).toContain(
      'warning: pulumi-guardrails: key "a1b2c3d4e5f60718" is assigned to two guardrails: "g1" (GuardrailKeyAssignment "one-keys") and "g3" (GuardrailKeyAssignment "three-keys")',
    );
    expect(res.output).not.toContain('member "user_alice"');
    expect(res.output).not.toContain('member "user_carol"');
  });

  it("two resources managing one guardrail fail the preview with no write, naming both (issue 24, finding 18)", async () => {
    const existing = (await p.api("POST", "/guardrails", { name: "Sales", limit_usd: 100, reset_interval: "monthly" }))
      .body.data.id as string;
    p.write(`
import { Guardrail } from "pulumi-guardrails";
new Guardrail("sales", { name: "Sales", adoptId: "${existing}" });
new Guardrail("sales-copy", { name: "Sales copy", adoptId: "${existing.toUpperCase()}" });
`);
    await p.clearLog();
    const res = await p.preview();
    expect(res.code).not.toBe(0);
    expect(res.output).toContain(
      `Guardrail "sales-copy": adoptId ${existing.toUpperCase()} is already adopted by Guardrail "sales" of this program`,
    );
    expect(res.output).not.toMatch(/\n\s+at /); // a program error, not a stack trace
    // The first Guardrail is valid and already registered: its adoption preview may read it, after
    // the one read that proves the key (issue 38, class 7). Nothing else is called.
    const log = await p.log();
    expect(log.writes).toBe(0);
    const probe = "GET listGuardrails ?offset=0&limit=1";
    const calls = log.entries.map((e) => `${e.method} ${e.operation} ${e.query}`.trim());
    expect(calls.filter((e) => e === probe)).toHaveLength(1);
    expect(calls.filter((e) => e !== probe && !e.startsWith("GET getGuardrail"))).toEqual([]);
    await p.api("DELETE", `/guardrails/${existing}`);
  });
});
