/**
 * Issue 43: imports and migrations record what later operations need, and a refresh reads each
 * guardrail once. After an import (native face) or a migration (the dynamic face's state turned
 * into import ids), a preview that changes nothing makes no call: the set's state holds its
 * per-id map, the guardrail's the default workspace's id. State written by earlier releases pays
 * the read once, in a refresh, which records it. A refresh after a member moved reads our
 * guardrail once, whether the Guardrail or the set asks first. Calls from the emulator's log.
 */
import { describe, expect, it } from "vitest";
import { MEMBER_KIND, KEY_KIND } from "../../src/core/assignments/kind";
import { guardrailLifecycle } from "../../src/core/guardrail/lifecycle";
import { processConfig } from "../../src/core/settings/config";
import { KEY_ASSIGNMENT_TYPE, GUARDRAIL_TYPE, MEMBER_ASSIGNMENT_TYPE } from "../../src/core/type-tokens";
import { guardrail as dynamicGuardrail, memberAssignment } from "../../src/dynamic/internal";
import { importIdOf } from "../../src/export/import-ids";
import { nativeSetLifecycle } from "../../src/native/sets";
import { DEMO_KEY_HASHES as HASH } from "../../emulator";
import { configureProvider, DEFAULT_WS, useProviderEmulator, W2 } from "../helpers/emulator";

const emu = useProviderEmulator();
const raw = () => emu.client();
const members = () => nativeSetLifecycle(MEMBER_KIND, processConfig);
const keys = () => nativeSetLifecycle(KEY_KIND, processConfig);
const guardrail = () => guardrailLifecycle(processConfig);
const calls = async () => (await emu.log()).entries.map((e) => `${e.method} ${e.path}${e.query ? `?${e.query}` : ""}`);
const urn = (type: string, name: string) => `urn:pulumi:dev::p::guardrails:index:${type}::${name}`;
const fail = (why: string): never => {
  throw new Error(why);
};

/** Check, then diff, as a preview runs them for a resource in state: what the engine would show. */
async function preview(
  l: ReturnType<typeof members>,
  id: string,
  recorded: { inputs: Record<string, unknown>; properties: Record<string, unknown> },
  news: Record<string, unknown>,
) {
  const checked = await l.check(recorded.inputs, news);
  expect(checked.failures).toEqual([]);
  return (await l.diff(id, recorded.properties, checked.inputs)).changes;
}

describe("after pulumi import, a no-op preview makes no call (native face)", () => {
  it("a member set by <id>/members and a key set by <id>/keys", async () => {
    const g = (await raw().createGuardrail({ name: "Legacy" })).id;
    await raw().assignMembers(g, ["user_alice", "user_bob"]);
    await raw().assignKeys(g, [HASH[0]!]);
    const m = (await members().read(`${g}/members`, undefined as never))!;
    const k = (await keys().read(`${g}/keys`, undefined as never))!;
    expect(m.inputs).toMatchObject({ members: { user_alice: true, user_bob: true } });
    // `pulumi import` checks what Read answered, as olds and as news: the map is the state's, no failure.
    expect(
      (await members().check(m.inputs, { ...m.inputs, __resource: urn("GuardrailMemberAssignment", "m") })).failures,
    ).toEqual([]);
    expect(
      (await members().check({}, { ...m.inputs, __resource: urn("GuardrailMemberAssignment", "m") })).failures,
    ).toEqual([
      { property: "members", reason: "is not an arg of GuardrailMemberAssignment: list the ids in memberUserIds" },
    ]);

    await emu.clearLog();
    const memberNews = {
      guardrailId: g,
      memberUserIds: ["user_alice", "user_bob"],
      __resource: urn("GuardrailMemberAssignment", "m"),
    };
    const keyNews = { guardrailId: g, keyHashes: [HASH[0]], __resource: urn("GuardrailKeyAssignment", "k") };
    expect(await preview(members(), m.id, m as never, memberNews)).toEqual([]);
    expect(await preview(keys(), k.id, k as never, keyNews)).toEqual([]);
    expect(await calls()).toEqual([]);
  });

  it("a guardrail by its id, in a program that leaves workspaceId out (the default workspace)", async () => {
    const g = (await raw().createGuardrail({ name: "Legacy" })).id;
    const imported = (await guardrail().read(g, undefined as never))!;
    expect(imported.properties.defaultWorkspaceId).toBe(DEFAULT_WS);

    await emu.clearLog();
    expect(await preview(guardrail() as never, g, imported as never, { name: "Legacy" })).toEqual([]);
    // In another workspace: leaving workspaceId out moves it (a replacement), still known without a call.
    const other = (await raw().createGuardrail({ name: "Other", workspace_id: W2 })).id;
    const there = (await guardrail().read(other, undefined as never))!;
    await emu.clearLog();
    const changes = await preview(guardrail() as never, other, there as never, { name: "Other" });
    expect(changes).toEqual([{ path: "workspaceId", kind: "replace" }]);
    expect(await calls()).toEqual([]);
  });
});

describe("a migration (dynamic face's state to native import ids) records what the native state needs", () => {
  it("a set and its guardrail: the first native preview makes no call", async () => {
    const g = await dynamicGuardrail.create({ __provider: "p", name: "Migrated" });
    const set = await memberAssignment.create({
      __provider: "p",
      guardrailId: g.id,
      members: { user_alice: true, user_carol: true },
      exclusive: false,
    });
    const gId = importIdOf({ urn: "u1", type: GUARDRAIL_TYPE, id: g.id, outputs: g.outs }, fail);
    const setId = importIdOf({ urn: "u2", type: MEMBER_ASSIGNMENT_TYPE, id: set.id, outputs: set.outs }, fail);
    const gImported = (await guardrail().read(gId, undefined as never))!;
    const setImported = (await members().read(setId, undefined as never))!;
    expect(gImported.properties.defaultWorkspaceId).toBe(DEFAULT_WS);

    await emu.clearLog();
    expect(await preview(guardrail() as never, g.id, gImported as never, { name: "Migrated" })).toEqual([]);
    const news = {
      guardrailId: g.id,
      memberUserIds: ["user_alice", "user_carol"],
      __resource: urn("GuardrailMemberAssignment", "m"),
    };
    expect(await preview(members(), setImported.id, setImported as never, news)).toEqual([]);
    expect(await calls()).toEqual([]);
    expect(KEY_ASSIGNMENT_TYPE).toMatch(/GuardrailKeyAssignment$/);
  });
});

describe("state written by earlier releases", () => {
  it("an imported guardrail with no default workspace recorded pays one list in a refresh, which records it", async () => {
    const g = (await raw().createGuardrail({ name: "Old" })).id;
    const imported = (await guardrail().read(g, undefined as never))!;
    const old = { ...imported.properties, defaultWorkspaceId: null };
    configureProvider(emu.url); // a later command: a new provider process, which knows nothing yet
    await emu.clearLog();
    const refreshed = (await guardrail().read(g, old))!;
    expect(refreshed.properties.defaultWorkspaceId).toBe(DEFAULT_WS);
    expect((await calls()).filter((c) => c.startsWith("GET /api/v1/guardrails?"))).toHaveLength(1);
    await emu.clearLog();
    expect(
      await preview(
        guardrail() as never,
        g,
        { inputs: refreshed.inputs, properties: refreshed.properties },
        {
          name: "Old",
        },
      ),
    ).toEqual([]);
    expect(await calls()).toEqual([]);
  });

  it("a set imported before its map was recorded searches once; the inputs of that check hold the map", async () => {
    const g = (await raw().createGuardrail({ name: "Old set" })).id;
    await raw().assignMembers(g, ["user_alice"]);
    const imported = (await members().read(`${g}/members`, undefined as never))!;
    const { members: _map, ...oldInputs } = imported.inputs;
    const news = { guardrailId: g, memberUserIds: ["user_alice"], __resource: urn("GuardrailMemberAssignment", "o") };
    const checked = await members().check(oldInputs, news);
    expect(checked.inputs).toMatchObject({ members: { user_alice: true } });
    await emu.clearLog();
    await members().check(checked.inputs, news);
    expect(await calls()).toEqual([]);
  });
});

describe("a refresh after a member moved reads each guardrail once", () => {
  const setUp = async () => {
    const eng = await dynamicGuardrail.create({ __provider: "p", name: "Engineering" });
    const legacy = (await raw().createGuardrail({ name: "Legacy" })).id;
    const set = await memberAssignment.create({
      __provider: "p",
      guardrailId: eng.id,
      members: { user_alice: true, user_bob: true },
      exclusive: false,
    });
    await raw().assignMembers(legacy, ["user_bob"]);
    await emu.clearLog();
    return { eng, legacy, set };
  };
  const gets = async (id: string) => (await calls()).filter((c) => c === `GET /api/v1/guardrails/${id}`).length;

  it("dynamic face: the Guardrail's refresh and the set's, at once", async () => {
    const { eng, legacy, set } = await setUp();
    const [, r] = await Promise.all([dynamicGuardrail.read(eng.id, eng.outs), memberAssignment.read(set.id, set.outs)]);
    expect(r.props.members).toEqual({ user_alice: true, user_bob: `on guardrail Legacy (${legacy.slice(0, 8)}…)` });
    expect(await gets(eng.id)).toBe(1);
    expect(await gets(legacy)).toBe(1);
  });

  it("native face: the set's refresh first, then the Guardrail's", async () => {
    const { eng, legacy, set } = await setUp();
    await members().read(set.id, set.outs);
    await guardrail().read(eng.id, eng.outs);
    expect(await gets(eng.id)).toBe(1);
    expect(await gets(legacy)).toBe(1);
  });

  it("native face: the Guardrail's refresh first, then the set's", async () => {
    const { eng, set } = await setUp();
    await guardrail().read(eng.id, eng.outs);
    await members().read(set.id, set.outs);
    expect(await gets(eng.id)).toBe(1);
  });
});
