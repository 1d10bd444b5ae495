/**
 * Flipping a set between exclusive and additive against the emulator: exclusive -> additive
 * releases the foreign ids (they leave the state, stay on the service); additive ->
 * exclusive records the foreign ids it finds, as an exclusive create does, and removes none
 * until the next update. Also: a guardrailId differing only in case is the same guardrail.
 */
import { describe, expect, it } from "vitest";
import { memberAssignment } from "../../src/dynamic/internal";
import { FOREIGN } from "../../src/core/assignments/status";
import { collect } from "../../src/core/client";
import { useProviderEmulator } from "../helpers/emulator";

const emu = useProviderEmulator();
const raw = () => emu.client();
const asMap = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));
const args = (guardrailId: string, ids: string[], exclusive: boolean) => ({
  __provider: "p",
  guardrailId,
  members: asMap(ids),
  exclusive,
});
const live = async (g: string) => (await collect(raw().listMemberAssignments(g))).map((r) => r.user_id).sort();
const newGuardrail = async (name: string) => (await raw().createGuardrail({ name })).id;

describe("set mode flips", () => {
  it("finding 3: exclusive -> additive leaves a hand-assigned member on the service and drops it from the state", async () => {
    const g = await newGuardrail("ex-to-add");
    await raw().assignMembers(g, ["user_erin"]);
    const a = await memberAssignment.create(args(g, ["user_alice"], true));
    expect(a.outs.members).toEqual({ user_alice: true, user_erin: FOREIGN });
    expect(await memberAssignment.diff(a.id, a.outs, args(g, ["user_alice"], false))).toMatchObject({
      changes: true,
      replaces: [],
    });
    await emu.clearLog();
    const b = await memberAssignment.update(a.id, a.outs, args(g, ["user_alice"], false));
    expect((await emu.log()).writes).toBe(0);
    expect(await live(g)).toEqual(["user_alice", "user_erin"]);
    expect(b.outs.members).toEqual({ user_alice: true });
    expect(await memberAssignment.diff(a.id, b.outs, args(g, ["user_alice"], false))).toMatchObject({ changes: false });
    // Still managed: an id the program drops in the same flip is removed.
    await raw().assignMembers(g, ["user_frank"]);
    const c = await memberAssignment.update(
      a.id,
      (await memberAssignment.read(a.id, b.outs)).props!,
      args(g, ["user_alice", "user_bob"], true),
    );
    expect(c.outs.members).toEqual({ user_alice: true, user_bob: true, user_erin: FOREIGN, user_frank: FOREIGN });
    await memberAssignment.update(a.id, c.outs, args(g, ["user_bob"], false));
    expect(await live(g)).toEqual(["user_bob", "user_erin", "user_frank"]);
  });

  it("finding 3, reverse: additive -> exclusive records the foreign ids it finds and removes none yet; the next update removes them", async () => {
    const g = await newGuardrail("add-to-ex");
    const a = await memberAssignment.create(args(g, ["user_alice", "user_bob"], false));
    await raw().assignMembers(g, ["user_erin"]);
    const b = await memberAssignment.update(a.id, a.outs, args(g, ["user_alice", "user_carol"], true));
    expect(await live(g)).toEqual(["user_alice", "user_carol", "user_erin"]);
    expect(b.outs.members).toEqual({ user_alice: true, user_carol: true, user_erin: FOREIGN });
    expect(await memberAssignment.diff(a.id, b.outs, args(g, ["user_alice", "user_carol"], true))).toMatchObject({
      changes: true,
    });
    const c = await memberAssignment.update(a.id, b.outs, args(g, ["user_alice", "user_carol"], true));
    expect(await live(g)).toEqual(["user_alice", "user_carol"]);
    expect(await memberAssignment.diff(a.id, c.outs, args(g, ["user_alice", "user_carol"], true))).toMatchObject({
      changes: false,
    });
  });

  it("a guardrailId that differs only in case is the same guardrail: no replacement, calls in lower case", async () => {
    const g = await newGuardrail("case");
    const a = await memberAssignment.create(args(g.toUpperCase(), ["user_alice"], false));
    expect(a.id).toBe(`${g}/members`);
    expect(await live(g)).toEqual(["user_alice"]);
    expect(await memberAssignment.diff(a.id, a.outs, args(g, ["user_alice"], false))).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await memberAssignment.diff(a.id, a.outs, args(g.toUpperCase(), ["user_alice"], false))).toMatchObject({
      changes: false,
      replaces: [],
    });
  });
});
