/**
 * Issue 41: the fact reader of effective access against the emulator over HTTP. Layers are set up
 * through the API (a workspace default, a member and a key guardrail, workspace policies with a
 * default, a workspace-wide policy); the facts read, combined by `effectiveAccess`, must match
 * what the emulator itself enforces (`GET /__emulator/enforcement`), and the calls are counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { effectiveAccess } from "../../src/core/access";
import { readAccessFacts } from "../../src/core/data-sources/access-facts";
import { comparable, connectionOf, enforced, id, K0, K1, setUpLayers } from "../helpers/access-layers";
import { DEFAULT_WS, type TestEmulator, withEmulator } from "../helpers/emulator";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await withEmulator();
  await setUpLayers(emu);
});
afterAll(() => emu.close());

const SUBJECTS = [
  ["member on a guardrail", { memberId: "user_alice" }, "member=user_alice"],
  ["member with a direct budget", { memberId: "user_bob" }, "member=user_bob"],
  ["member under the defaults", { memberId: "user_carol" }, "member=user_carol"],
  ["key with its owner", { keyHash: K0, ownerMemberId: "user_alice" }, `key=${K0}`],
  ["key without an owner", { keyHash: K1 }, `key=${K1}`],
] as const;

describe("readAccessFacts", () => {
  it.each(SUBJECTS)("%s: effectiveAccess of the facts is what the emulator enforces", async (_, subject, q) => {
    const { facts } = await readAccessFacts(connectionOf(emu.client()), subject, DEFAULT_WS);
    expect(comparable(effectiveAccess(facts))).toEqual(comparable(await enforced(emu, q)));
  });

  it("the comparison tells subjects apart (it can fail)", async () => {
    const read = async (memberId: string) =>
      comparable(effectiveAccess((await readAccessFacts(connectionOf(emu.client()), { memberId }, DEFAULT_WS)).facts));
    expect(await read("user_alice")).not.toEqual(await read("user_carol"));
    expect(comparable(await enforced(emu, "member=user_alice"))).not.toEqual(
      comparable(await enforced(emu, "member=user_carol")),
    );
  });

  it("reads the layers the set-up wrote, by id and name", async () => {
    const { facts, ownerKnown } = await readAccessFacts(
      connectionOf(emu.client()),
      { keyHash: K0, ownerMemberId: "user_alice" },
      DEFAULT_WS,
    );
    expect(ownerKnown).toBe(true);
    expect(facts.memberGuardrail).toMatchObject({
      id: id.eng,
      name: "Eng",
      settings: { allowedProviders: ["vendor-a"] },
    });
    expect(facts.keyGuardrail).toMatchObject({
      id: id.keys,
      name: "Keys",
      settings: { allowedDataRegions: ["europe"] },
    });
    expect(facts.workspaceDefault?.id).toBe(id.dflt);
    expect(effectiveAccess(facts).allowedProviders.allowed).toEqual(["vendor-a"]);
    expect(effectiveAccess(facts).allowedDataRegions.allowed).toEqual(["europe"]);
  });

  it("a key without its owner says the owner is unknown", async () => {
    const read = await readAccessFacts(connectionOf(emu.client()), { keyHash: K0 }, DEFAULT_WS);
    expect(read.ownerKnown).toBe(false);
    expect(read.facts.subject).toEqual({ key: K0, ownerMember: null });
  });

  it("calls: each org-wide listing once per lookup, no call per member or policy", async () => {
    const count = async (subject: Parameters<typeof readAccessFacts>[1]) => {
      await emu.clearLog();
      await readAccessFacts(connectionOf(emu.client()), subject, DEFAULT_WS);
      return (await emu.log()).counts;
    };
    const base = {
      getWorkspace: 1,
      getGuardrail: 1,
      listGuardrails: 1,
      listBudgetPolicies: 1,
      listModelAvailabilityPolicies: 1,
      listModerationPolicies: 1,
      listAccountPolicies: 1,
    };
    expect(await count({ memberId: "user_alice" })).toEqual({
      ...base,
      listAllMemberAssignments: 1,
      getMemberPolicyAssignment: 3,
    });
    expect(await count({ keyHash: K0, ownerMemberId: "user_alice" })).toEqual({
      ...base,
      listAllMemberAssignments: 1,
      listAllKeyAssignments: 1,
      getMemberPolicyAssignment: 3,
      getApiKeyPolicyAssignment: 3,
    });
    expect(await count({ keyHash: K1 })).toEqual({ ...base, listAllKeyAssignments: 1, getApiKeyPolicyAssignment: 3 });
  });
});
