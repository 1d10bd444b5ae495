/**
 * Issue 40 ("previews name each member and key that joins or leaves") on the native face: the
 * gRPC methods as the engine calls them (Check, then Diff with the recorded outputs, the recorded
 * inputs and the checked news) over the emulator. Each id joining is an add of that id and each
 * one leaving a delete of that id, at a path the engine finds in the new or the old inputs (the
 * id map beside the list, src/native/policy-lists.ts): never one index rewritten
 * (`~ [1]: "user_bob" => "user_carol"`). State recorded before the maps existed previews the same
 * program as no change.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { describe, expect, it } from "vitest";
import { SIG_KEY } from "../../src/core/markers";
import { ProviderConfig } from "../../src/core/settings/config";
import { check, create, diff, kindsOver, read } from "../../src/native/resources";
import { fromStruct, toStruct } from "../../src/native/wire";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator, W2 } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator();
type Bag = Record<string, unknown>;
const Kind = provproto.PropertyDiff.Kind;
const KIND_WORD: Record<number, string> = {
  [Kind.ADD]: "add",
  [Kind.DELETE]: "delete",
  [Kind.UPDATE]: "update",
  [Kind.UPDATE_REPLACE]: "replace",
};

function kinds() {
  const conn = new ProviderConfig();
  conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
  return kindsOver(conn);
}
const urn = (type: string, name: string) => `urn:pulumi:dev::p::guardrails:index:${type}::${name}`;

/** The engine's Check: the checked inputs as a Struct (the failures thrown). */
async function checked(k: ReturnType<typeof kinds>, u: string, news: Bag, olds: Bag = {}): Promise<Struct> {
  const req = new provproto.CheckRequest().setUrn(u).setNews(toStruct(news)).setOlds(toStruct(olds));
  const r = await check(k, req);
  const failures = r.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
  if (failures.length > 0) throw new Error(failures.join("; "));
  return r.getInputs()!;
}

/** The engine's Diff: each detailed-diff path as `<kind> <path>`, sorted, and whether anything changes. */
async function diffed(
  k: ReturnType<typeof kinds>,
  u: string,
  id: string,
  outs: Struct,
  oldInputs: Struct,
  news: Struct,
) {
  const req = new provproto.DiffRequest().setUrn(u).setId(id).setOlds(outs).setOldInputs(oldInputs).setNews(news);
  const r = await diff(k, req);
  const paths: string[] = [];
  r.getDetaileddiffMap().forEach((pd, path) => {
    paths.push(`${KIND_WORD[pd.getKind()]} ${path}`);
  });
  return { paths: paths.sort(), some: r.getChanges() === provproto.DiffResponse.DiffChanges.DIFF_SOME };
}

/** The value a detailed-diff path names in a bag, as the engine looks it up (`members["user_x"]`, `memberUserIds[1]`). */
function at(bag: Bag, path: string): unknown {
  const m = /^(\w+)(?:\[(\d+|".*")\])?$/.exec(path)!;
  const top = bag[m[1]!];
  if (m[2] === undefined) return top;
  const v = top as Record<string, unknown> | unknown[];
  return m[2].startsWith('"') ? (v as Bag)?.[JSON.parse(m[2])] : (v as unknown[])?.[Number(m[2])];
}

const BUDGET = {
  workspaceId: DEFAULT_WS,
  name: "Keyed budget",
  limitUsd: 50,
  resetInterval: "monthly",
  memberUserIds: ["user_alice", "user_bob"],
  keyHashes: ["a1b2c3d4e5f60718"],
  workspaceDefault: true,
  optedOutMemberUserIds: ["user_carol"],
};

describe("native face: a policy's id lists preview by id", () => {
  it("a member leaving and one joining are a delete and an add of those ids, each found in the inputs", async () => {
    const k = kinds();
    const u = urn("BudgetPolicy", "budget");
    const v1 = await checked(k, u, BUDGET);
    // The id map beside each list; the lists as the program wrote them.
    expect(fromStruct(v1).props).toMatchObject({
      memberUserIds: ["user_alice", "user_bob"],
      members: { user_alice: true, user_bob: true },
      keys: { a1b2c3d4e5f60718: true },
      optedOutMembers: { user_carol: true },
    });
    const made = await create(k, new provproto.CreateRequest().setUrn(u).setProperties(v1));
    const outs = made.getProperties()!;
    // The outputs hold the lists (the SDK's types) and the maps beside them (a refresh's diff is shown against them).
    expect(fromStruct(outs).props).toMatchObject({
      memberUserIds: ["user_alice", "user_bob"],
      members: { user_alice: true, user_bob: true },
    });

    const noop = await diffed(k, u, made.getId(), outs, v1, await checked(k, u, BUDGET, fromStruct(v1).props));
    expect(noop).toEqual({ paths: [], some: false });

    const v2 = await checked(
      k,
      u,
      { ...BUDGET, memberUserIds: ["user_alice", "user_carol"], optedOutMemberUserIds: ["user_carol", "user_erin"] },
      fromStruct(v1).props,
    );
    const d = await diffed(k, u, made.getId(), outs, v1, v2);
    expect(d.some).toBe(true);
    expect(d.paths).toEqual([
      'add members["user_carol"]',
      'add optedOutMembers["user_erin"]',
      'delete members["user_bob"]',
    ]);
    // The engine shows an add's new value and a delete's old one: each is the id's own entry.
    expect(at(fromStruct(v2).props, 'members["user_carol"]')).toBe(true);
    expect(at(fromStruct(v2).props, 'optedOutMembers["user_erin"]')).toBe(true);
    expect(at(fromStruct(v1).props, 'members["user_bob"]')).toBe(true);
  });

  it("state recorded before the id maps: the same program is no change; a change names each id, no index rewritten", async () => {
    const k = kinds();
    const u = urn("ModerationPolicy", "mod");
    const args = {
      workspaceId: DEFAULT_WS,
      name: "Keyed moderation",
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
      memberUserIds: ["user_alice", "user_bob"],
      keyHashes: [],
    };
    const made = await create(k, new provproto.CreateRequest().setUrn(u).setProperties(await checked(k, u, args)));
    const outs = made.getProperties()!;
    // What earlier code recorded as inputs: the program's args alone.
    const oldInputs = toStruct(args);
    const same = await diffed(k, u, made.getId(), outs, oldInputs, await checked(k, u, args, args));
    expect(same).toEqual({ paths: [], some: false });
    const news = await checked(k, u, { ...args, memberUserIds: ["user_alice", "user_carol"] }, args);
    const d = await diffed(k, u, made.getId(), outs, oldInputs, news);
    // Carol in the new map; bob at his old index (the old inputs have no map): two lines, two ids.
    expect(d.paths).toEqual(['add members["user_carol"]', "delete memberUserIds[1]"]);
    expect(at(args, "memberUserIds[1]")).toBe("user_bob");
    // A refresh records the maps beside the lists, so the next preview finds each leaving id by name.
    const r = await read(
      k,
      new provproto.ReadRequest().setUrn(u).setId(made.getId()).setProperties(outs).setInputs(oldInputs),
    );
    expect(fromStruct(r.getInputs()).props).toMatchObject({ members: { user_alice: true, user_bob: true } });
    expect((await diffed(k, u, made.getId(), outs, r.getInputs()!, news)).paths).toEqual([
      'add members["user_carol"]',
      'delete members["user_bob"]',
    ]);
  });

  it("a refresh's diff (the refreshed state against the recorded inputs) names the id added out of band", async () => {
    const k = kinds();
    const u = urn("BudgetPolicy", "drift");
    const args = { ...BUDGET, name: "Drift budget" };
    const inputs = await checked(k, u, args);
    const made = await create(k, new provproto.CreateRequest().setUrn(u).setProperties(inputs));
    const put = await http(`${emu.url}/api/v1`, TEST_KEY)("PUT", `/guardrails/policies/budget/${made.getId()}`, {
      name: "Drift budget",
      workspace_id: DEFAULT_WS,
      config: { limit_usd: 50, reset_interval: "monthly" },
      member_ids: ["user_alice", "user_bob", "user_frank"],
      api_key_hashes: ["a1b2c3d4e5f60718"],
    });
    expect(put.status).toBe(200);
    const r = await read(
      k,
      new provproto.ReadRequest().setUrn(u).setId(made.getId()).setProperties(made.getProperties()!).setInputs(inputs),
    );
    // The engine shows a refresh from the old inputs to the new outputs: both hold the map.
    expect(fromStruct(r.getProperties()).props.members).toEqual({ user_alice: true, user_bob: true, user_frank: true });
    // It asks Diff with the refreshed state as the olds and the recorded inputs as the news, then inverts it.
    const d = await diffed(k, u, made.getId(), r.getProperties()!, r.getInputs()!, inputs);
    expect(d.paths).toEqual(['delete members["user_frank"]']);
  });

  it("an import answers the program's args alone; a secret list's map is as secret", async () => {
    const k = kinds();
    const u = urn("BudgetPolicy", "secret");
    const news = toStruct({ ...BUDGET, name: "Secret budget" });
    // The engine's envelope around the member list.
    const sealed = toStruct({
      ...fromStruct(news).props,
      memberUserIds: { [SIG_KEY]: "1b47061264138c4ac30d75fd1eb44270", value: ["user_dave"] },
    });
    const inputs = (await checked(k, u, sealed.toJavaScript() as Bag)).toJavaScript() as Bag;
    expect(inputs.members).toEqual({ [SIG_KEY]: "1b47061264138c4ac30d75fd1eb44270", value: { user_dave: true } });
    const made = await create(k, new provproto.CreateRequest().setUrn(u).setProperties(toStruct(inputs)));
    const imported = await read(k, new provproto.ReadRequest().setUrn(u).setId(`${DEFAULT_WS}/${made.getId()}`));
    const props = fromStruct(imported.getInputs()).props;
    expect(props.memberUserIds).toEqual(["user_dave"]);
    for (const m of ["members", "keys", "optedOutMembers", "optedOutKeys"]) expect(props).not.toHaveProperty(m);
  });

  it("a workspace-wide policy's workspaces joining and leaving by id", async () => {
    const k = kinds();
    const u = urn("WorkspaceWidePolicy", "wide");
    const args = {
      name: "Keyed wide",
      policyType: "budget",
      limitUsd: 500,
      resetInterval: "monthly",
      workspaceIds: [DEFAULT_WS],
    };
    const v1 = await checked(k, u, args);
    const made = await create(k, new provproto.CreateRequest().setUrn(u).setProperties(v1));
    const v2 = await checked(k, u, { ...args, workspaceIds: [W2] }, fromStruct(v1).props);
    const d = await diffed(k, u, made.getId(), made.getProperties()!, v1, v2);
    expect(d.paths).toEqual([`add workspaces["${W2}"]`, `delete workspaces["${DEFAULT_WS}"]`]);
  });
});
