/**
 * `plannedAccess` (issue 41): a stack's planned resources read into each named member's and key's
 * facts, with every layer that cannot be known at preview named, never guessed.
 */
import { describe, expect, it } from "vitest";
import { effectiveAccess, explain, type PlannedResource, plannedAccess } from "../../src/core/access";
import { UNKNOWN } from "../../src/core/markers";

const WS = "00000000-0000-4000-8000-000000000001";
const r = (type: PlannedResource["type"], key: string, props: Record<string, unknown>, target?: string | null) => ({
  type,
  key,
  name: key,
  props: { workspaceId: WS, ...props },
  ...(target !== undefined ? { target } : {}),
});
const LAYERED: PlannedResource[] = [
  r("WorkspaceDefaultGuardrail", "dflt", { allowedModels: ["vendor-x/model-a"] }),
  r("Guardrail", "strict", { name: "Strict", allowedModels: ["vendor-x/model-a"] }),
  r("Guardrail", "lax", { name: "Lax", allowedModels: ["vendor-x/model-a", "vendor-x/model-y"] }),
  r("GuardrailMemberAssignment", "strict-members", { memberUserIds: ["user_alice"] }, "strict"),
  r("GuardrailKeyAssignment", "lax-keys", { keyHashes: ["k1"] }, "lax"),
  r("BudgetPolicy", "budget", { name: "B", limitUsd: 10, resetInterval: "daily", workspaceDefault: true }),
  r("ModelAccessPolicy", "ma", { name: "MA", workspaceDefault: true, optedOutMemberUserIds: ["user_bob"] }),
  r("ModerationPolicy", "mod", { name: "Mod", workspaceDefault: true }),
];
const subject = (p: ReturnType<typeof plannedAccess>, key: string) =>
  p.subjects.find((s) => ("member" in s.facts.subject ? s.facts.subject.member : s.facts.subject.key) === key)!;

describe("plannedAccess", () => {
  it("names every member and key the resources name, each with its layers", () => {
    const p = plannedAccess(LAYERED, { keyOwners: { k1: "user_alice" }, unassigned: new Set(["member:user_bob"]) });
    expect(p.subjects.map((s) => s.facts.subject)).toEqual([
      { member: "user_alice" },
      { member: "user_bob" },
      { key: "k1", ownerMember: "user_alice" },
    ]);
    // The key on Lax under its owner's Strict: vendor-x/model-y stays out.
    const key = effectiveAccess(subject(p, "k1").facts);
    expect(explain(key, { model: "vendor-x/model-y" }).allowed).toBe(false);
    expect(subject(p, "k1").unknown).toEqual([]);
    expect(subject(p, "user_bob").unknown).toEqual([]);
    expect(effectiveAccess(subject(p, "user_bob").facts).layers.map((l) => l.id)).toEqual(["dflt", "budget", "mod"]);
  });

  it("says what it cannot know: an unnamed owner, an unlisted member, an unmanaged default, a value known after apply", () => {
    const p = plannedAccess([
      ...LAYERED.filter((x) => x.key !== "dflt" && x.key !== "budget"),
      r("GuardrailMemberAssignment", "lax-members", { memberUserIds: UNKNOWN }, "lax"),
      r("Guardrail", "later", { allowedModels: [UNKNOWN] }),
      r("GuardrailKeyAssignment", "later-keys", { keyHashes: ["k2"] }, "later"),
    ]);
    expect(subject(p, "k1").unknown).toMatchInlineSnapshot(`
      [
        "its owner's layers: the key's owner is not named (keyOwners), and only the owner's can restrict it further",
        "the workspace default guardrail of "00000000-0000-4000-8000-000000000001": not managed by this stack",
        "the workspace default budget policy of "00000000-0000-4000-8000-000000000001": not managed by this stack",
        "member set "lax-members": its list is secret or not known at preview (anyone may be on it)",
      ]
    `);
    expect(subject(p, "k2").unknown).toContain('guardrail "later": allowedModels not known at preview');
    expect(subject(p, "user_bob").unknown).toContain(
      "its own guardrail, if any: no set of this stack assigns it (a guardrail outside the stack may hold it)",
    );
  });

  it("a set whose guardrail cannot be told leaves every workspace unknown", () => {
    const p = plannedAccess([...LAYERED, r("GuardrailMemberAssignment", "hidden", { memberUserIds: ["x"] }, null)]);
    expect(p.workspaces.get(WS)?.unknown).toEqual([
      'member set "hidden": which guardrail it assigns is not known at preview',
    ]);
  });
});
