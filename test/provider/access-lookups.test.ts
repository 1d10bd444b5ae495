/**
 * Issue 41: the core effective-access lookups (`getEffectiveAccess`, `getSubjectGuardrail`)
 * against the emulator over HTTP: the combined result is `effectiveAccess` of the facts read and
 * what the emulator enforces; args are refused, naming the field, before any call; calls counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { effectiveAccess } from "../../src/core/access";
import { getEffectiveAccess, getSubjectGuardrail } from "../../src/core/data-sources/access";
import { readAccessFacts } from "../../src/core/data-sources/access-facts";
import { comparable, connectionOf, enforced, id, K0, K1, setUpLayers } from "../helpers/access-layers";
import { DEFAULT_WS, type TestEmulator, withEmulator } from "../helpers/emulator";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await withEmulator();
  await setUpLayers(emu);
});
afterAll(() => emu.close());
const conn = () => connectionOf(emu.client());

describe("getEffectiveAccess", () => {
  it.each([
    [{ memberId: "user_alice" }, "member=user_alice"],
    [{ memberId: "user_bob" }, "member=user_bob"],
    [{ keyHash: K0, ownerMemberId: "user_alice" }, `key=${K0}`],
    [{ keyHash: K1 }, `key=${K1}`],
  ])("%o: effectiveAccess of the facts, and what the emulator enforces", async (args, q) => {
    const found = await getEffectiveAccess(conn(), { ...args, workspaceId: DEFAULT_WS });
    const { facts } = await readAccessFacts(conn(), "memberId" in args ? args : { ...args }, DEFAULT_WS);
    expect(found.access).toEqual(effectiveAccess(facts));
    expect(found.layers).toEqual(found.access.layers);
    expect(comparable(found.access)).toEqual(comparable(await enforced(emu, q)));
  });

  it("names each layer with its id and name; a key's owner is echoed", async () => {
    const found = await getEffectiveAccess(conn(), {
      keyHash: K0,
      ownerMemberId: "user_alice",
      workspaceId: DEFAULT_WS,
    });
    expect(found).toMatchObject({
      workspaceId: DEFAULT_WS,
      keyHash: K0,
      ownerMemberId: "user_alice",
      ownerKnown: true,
    });
    expect(found.layers.map((l) => [l.kind, l.id, l.name])).toEqual([
      ["member-guardrail", id.eng, "Eng"],
      ["key-guardrail", id.keys, "Keys"],
      ["workspace-default-policy", id.weekly, "everyone weekly"],
      ["workspace-wide-policy", id.wide, "no vendor-x"],
    ]);
  });
});

describe("getSubjectGuardrail", () => {
  it("a member under the defaults: the workspace default guardrail and the default budget", async () => {
    const found = await getSubjectGuardrail(conn(), { memberId: "user_carol", workspaceId: DEFAULT_WS });
    expect(found.guardrails.map((g) => [g.kind, g.id])).toEqual([["workspace-default-guardrail", id.dflt]]);
    expect(found.policies.map((p) => [p.kind, p.id])).toEqual([
      ["workspace-default-policy", id.weekly],
      ["workspace-wide-policy", id.wide],
    ]);
  });

  it("a member with a direct budget is off the default one", async () => {
    const found = await getSubjectGuardrail(conn(), { memberId: "user_bob", workspaceId: DEFAULT_WS });
    expect(found.policies.map((p) => [p.kind, p.id, p.name])).toEqual([
      ["policy", id.bob, "bob monthly"],
      ["workspace-wide-policy", id.wide, "no vendor-x"],
    ]);
  });

  it("a key without its owner: its own guardrail, and ownerKnown false", async () => {
    const found = await getSubjectGuardrail(conn(), { keyHash: K0, workspaceId: DEFAULT_WS });
    expect(found.ownerKnown).toBe(false);
    expect(found.ownerMemberId).toBeNull();
    // Its own guardrail only: with no owner known, no one without a guardrail brings the default (L3).
    expect(found.guardrails.map((g) => [g.kind, g.id])).toEqual([["key-guardrail", id.keys]]);
  });
});

describe("args", () => {
  it.each([
    [{}, "getEffectiveAccess: memberId: give memberId (a member's user id) or keyHash"],
    [{ memberId: "user_alice", keyHash: K0 }, "getEffectiveAccess: keyHash: give memberId or keyHash, not both"],
    [
      { memberId: "user_alice", ownerMemberId: "user_bob" },
      "getEffectiveAccess: ownerMemberId: names a key's owner; give it with keyHash, not memberId",
    ],
    [{ memberId: " " }, "getEffectiveAccess: memberId: must be a non-empty string"],
  ])("%o is refused before any call", async (args, message) => {
    await emu.clearLog();
    await expect(getEffectiveAccess(conn(), args)).rejects.toThrow(message);
    expect((await emu.log()).total).toBe(0);
  });

  it("an unknown field and a bad workspace are named", async () => {
    await expect(getSubjectGuardrail(conn(), { memberId: "user_alice", workspace: "x" } as never)).rejects.toThrow(
      /getSubjectGuardrail: .*workspace/,
    );
    await expect(getEffectiveAccess(conn(), { memberId: "user_alice", workspaceId: "no/such" })).rejects.toThrow(
      "getEffectiveAccess: workspaceId: must be a workspace id (UUID) or slug",
    );
  });

  it("an unknown workspace and, with several workspaces, an omitted one, say what to do", async () => {
    await expect(getEffectiveAccess(conn(), { memberId: "user_alice", workspaceId: "no-such-ws" })).rejects.toThrow(
      'effective access: workspaceId: no workspace has id or slug "no-such-ws" (the service answered 404)',
    );
    await expect(getEffectiveAccess(conn(), { memberId: "user_alice" })).rejects.toThrow(
      "effective access: workspaceId is required when the organization has more than one workspace (it has 2)",
    );
  });

  it("an unknown member is a 404 said without its id", async () => {
    const err = await getEffectiveAccess(conn(), { memberId: "user_nobody", workspaceId: DEFAULT_WS }).catch((e) => e);
    expect(String(err)).toContain("the service knows no such memberId");
    expect(String(err)).not.toContain("user_nobody");
  });
});

describe("calls", () => {
  it("one lookup reads the facts once: the reader's calls and no more", async () => {
    await emu.clearLog();
    await getSubjectGuardrail(conn(), { keyHash: K0, ownerMemberId: "user_alice", workspaceId: DEFAULT_WS });
    const { counts, total } = await emu.log();
    expect(total).toBe(15);
    expect(counts.listAllMemberAssignments).toBe(1);
    expect(counts.listAllKeyAssignments).toBe(1);
  });
});
