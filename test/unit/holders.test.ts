import { describe, expect, it } from "vitest";
import {
  competes,
  heldTwice,
  heldTwiceMessage,
  MOVES_EVERY_UP,
  mayCompete,
  UNKNOWN_WORKSPACE,
  type Holder,
} from "../../src/core/holders";

const WS = "3F2B8C1E-0000-4000-8000-000000000001";

describe("the holder rule, one home (docs/api-contract.md rules 5 and 6)", () => {
  it("a member twice in one workspace (any case) and a key twice at all break it; the rest do not", () => {
    const holders: Holder[] = [
      { noun: "member", id: "u1", guardrail: "a", workspace: WS },
      { noun: "member", id: "u1", guardrail: "a", workspace: WS }, // the same guardrail twice
      { noun: "member", id: "u1", guardrail: "b", workspace: WS.toLowerCase() },
      { noun: "member", id: "u1", guardrail: "c", workspace: null }, // another workspace (the default)
      { noun: "key", id: "u1", guardrail: "b" }, // a key with the same id is another thing
      { noun: "key", id: "k1", guardrail: "a", workspace: WS },
      { noun: "key", id: "k1", guardrail: "c" },
    ];
    expect(
      heldTwice(holders).map(
        ({ first, again }) => `${again.noun} ${again.id}: ${first.guardrail} then ${again.guardrail}`,
      ),
    ).toEqual(["member u1: a then b", "key k1: a then c"]);
  });

  it("competes: members by workspace (no workspace is the default one), keys always", () => {
    expect(competes("member", WS, WS.toLowerCase())).toBe(true);
    expect(competes("member", undefined, null)).toBe(true);
    expect(competes("member", WS, undefined)).toBe(false);
    expect(competes("key", WS, undefined)).toBe(true);
  });

  it("one message style", () => {
    expect(heldTwiceMessage("member", '"u1"', '"a"', '"b"', "the default workspace", MOVES_EVERY_UP)).toBe(
      'member "u1" is assigned to two guardrails of the default workspace: "a" and "b"; a member holds one guardrail per workspace, so it would move back and forth between them on every up',
    );
    expect(heldTwiceMessage("key", '"k1"', '"a"', '"b"', "workspace x", "x")).toBe(
      'key "k1" is assigned to two guardrails: "a" and "b"; a key holds one guardrail at all, so x',
    );
  });
});

describe("mayCompete: the holder rule when a policy cannot see everything", () => {
  const W1 = "11111111-1111-4111-8111-111111111111";
  const W2 = "22222222-2222-4222-8222-222222222222";
  it.each([
    ["two known, different workspaces", W1, W2, false],
    ["one workspace in two cases", W1, W1.toUpperCase(), true],
    ["both in the default workspace", null, undefined, true],
    ["the default against an explicit one (the default's id is not shown)", null, W1, true],
    ["an unknown against a known one", UNKNOWN_WORKSPACE, W2, true],
  ] as const)("members: %s", (_, a, b, expected) => {
    expect(mayCompete("member", a, b)).toBe(expected);
    expect(mayCompete("member", b, a)).toBe(expected);
  });

  it("keys compete everywhere, known or not", () => {
    expect(mayCompete("key", W1, W2)).toBe(true);
    expect(mayCompete("key", UNKNOWN_WORKSPACE, null)).toBe(true);
  });
});
