/**
 * Guardrail Policies in the emulator (docs/api-contract.md rules 22 to 28), over plain HTTP:
 * every operation of the three kinds and of workspace-wide policies, rule 24's replace semantics,
 * one workspace default per kind with opt-outs and overrides, the per-subject assignment with its
 * 409, the 403 of a workspace-scoped key, and faults and the request log on the new routes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_WS, TEST_KEY, W2, withEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

let emu: Awaited<ReturnType<typeof withEmulator>>;
let api: ReturnType<typeof http>;
let admin: ReturnType<typeof http>;
beforeAll(async () => {
  emu = await withEmulator();
  api = http(`${emu.url}/api/v1`, TEST_KEY);
  admin = http(emu.url);
});
beforeEach(async () => void (await admin("POST", "/__emulator/reset")));
afterAll(() => emu.close());

const P = "/guardrails/policies";
const budget = { limit_usd: 100, reset_interval: "monthly" };
const create = async (seg: string, body: Record<string, unknown>) => {
  const res = await api("POST", `${P}/${seg}`, { workspace_id: DEFAULT_WS, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; config: Record<string, unknown> };
};
const get = async (seg: string, id: string, ws = DEFAULT_WS) =>
  (await api("GET", `${P}/${seg}/${id}?workspace_id=${ws}`)).body.data;
const state = async (path: string, type: string, ws = DEFAULT_WS) =>
  (await api("GET", `${P}/assignments/${path}?workspace_id=${ws}&policy_type=${type}`)).body.data;

describe("the three kinds: list, create, get, update, delete (rules 22 to 24)", () => {
  it.each([
    ["budget", "budget", budget],
    ["model-availability", "model_availability", { allowed_models: ["vendor-a/model-x"], enforce_zdr: true }],
    ["moderation", "moderation", { content_filter_builtins: [{ slug: "email", action: "redact" }] }],
  ])("%s: each operation answers as the contract says", async (seg, type, config) => {
    const made = await create(seg, { name: "p1", config, member_ids: ["user_alice"], api_key_hashes: [] });
    expect(made).toEqual({ id: expect.any(String), name: "p1", policy_type: type, config: expect.any(Object) });
    const detail = await get(seg, made.id);
    expect(detail).toMatchObject({
      id: made.id,
      member_ids: ["user_alice"],
      api_key_hashes: [],
      opted_out_member_ids: [],
      is_workspace_default: false,
      reference: null,
    });
    const list = await api("GET", `${P}/${seg}?workspace_id=${DEFAULT_WS}`);
    expect(list.body).toEqual({
      data: [expect.objectContaining({ id: made.id, member_count: 1, api_key_count: 0, updated_at: null })],
      total_count: 1,
    });
    expect((await api("GET", `${P}/${seg}?workspace_id=${W2}`)).body).toEqual({ data: [], total_count: 0 });
    const put = await api("PUT", `${P}/${seg}/${made.id}`, { workspace_id: DEFAULT_WS, name: "p2", config });
    expect(put.status).toBe(200);
    expect(put.body.data.name).toBe("p2");
    expect((await get(seg, made.id)).member_ids).toEqual(["user_alice"]);
    expect((await api("DELETE", `${P}/${seg}/${made.id}?workspace_id=${DEFAULT_WS}`)).body).toEqual({ data: true });
    expect((await api("GET", `${P}/${seg}/${made.id}?workspace_id=${DEFAULT_WS}`)).status).toBe(404);
  });

  it("config takes the guardrail's names and rules: canonical models, ZDR fallback, builtin labels", async () => {
    const ma = await create("model-availability", {
      name: "m",
      config: { allowed_models: ["vendor-a/model-x"], enforce_zdr: true, enforce_zdr_vendor_b: false },
    });
    expect(ma.config).toMatchObject({
      allowed_models: ["vendor-a/model-x-20260115"],
      enforce_zdr_vendor_a: true,
      enforce_zdr_vendor_b: false,
      allowed_providers: null,
    });
    const mod = await create("moderation", {
      name: "m",
      config: { content_filter_builtins: [{ slug: "ssn", action: "block" }] },
    });
    expect(mod.config.content_filter_builtins).toEqual([{ slug: "ssn", action: "block", label: "[SSN]" }]);
  });

  it("a bad config is a 400 naming the field: another kind's setting, rule 14, an unknown model", async () => {
    const post = (seg: string, config: unknown) =>
      api("POST", `${P}/${seg}`, { workspace_id: DEFAULT_WS, name: "x", config });
    const wrongKind = await post("budget", { limit_usd: 5, reset_interval: "daily", allowed_models: ["a/b"] });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.message).toContain("config: not a budget setting: allowed_models");
    expect((await post("budget", { limit_usd: 5 })).body.error.message).toContain("config.limit_usd");
    expect((await post("model-availability", { allowed_models: ["nope/none"] })).body.error.message).toContain(
      'config.allowed_models[0]: unknown model "nope/none"',
    );
    expect((await post("moderation", { content_filters: [] })).body.error.message).toContain("config.content_filters");
  });

  it("config keys that are no guardrail setting (the service's own) are kept, and an update replaces them", async () => {
    const own = { pii_filters: [{ type: "email" }], armor: { level: "strict" }, platform_banned_models: ["x/y"] };
    const made = await create("moderation", { name: "m", config: { content_filters: null, ...own } });
    expect(made.config).toMatchObject(own);
    expect((await get("moderation", made.id)).config).toMatchObject({ ...own, content_filter_builtins: null });
    const put = await api("PUT", `${P}/moderation/${made.id}`, {
      name: "m",
      workspace_id: DEFAULT_WS,
      config: { armor: { level: "off" } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const after = (await get("moderation", made.id)).config;
    expect(after.armor).toEqual({ level: "off" });
    expect(after).not.toHaveProperty("pii_filters");
    // `name` and `description` are a guardrail's, not a setting: still refused.
    const bad = await api("POST", `${P}/moderation`, {
      workspace_id: DEFAULT_WS,
      name: "x",
      config: { description: "d" },
    });
    expect(bad.body.error.message).toContain("config: not a moderation setting: description");
  });

  it("lists page like guardrail lists; no offset and no limit is the full list", async () => {
    for (let i = 0; i < 3; i++) await create("budget", { name: `b${i}`, config: budget });
    const page = await api("GET", `${P}/budget?workspace_id=${DEFAULT_WS}&offset=1&limit=1`);
    expect(page.body.data.map((p: { name: string }) => p.name)).toEqual(["b1"]);
    expect(page.body.total_count).toBe(3);
    expect((await api("GET", `${P}/budget?workspace_id=${DEFAULT_WS}`)).body.data).toHaveLength(3);
    expect((await api("GET", `${P}/budget?workspace_id=${DEFAULT_WS}&limit=101`)).status).toBe(400);
  });

  it("ids: not a UUID is 400, another kind's or another workspace's policy is 404", async () => {
    const b = await create("budget", { name: "b", config: budget });
    expect((await api("GET", `${P}/budget/nope?workspace_id=${DEFAULT_WS}`)).status).toBe(400);
    expect((await api("GET", `${P}/moderation/${b.id}?workspace_id=${DEFAULT_WS}`)).status).toBe(404);
    expect((await api("GET", `${P}/budget/${b.id}?workspace_id=${W2}`)).status).toBe(404);
    expect((await api("GET", `${P}/budget/${b.id}`)).body.error.message).toContain("workspace_id: required");
  });
});

describe("PUT replaces (rule 24)", () => {
  it("both assignment lists replace; one alone is a 400; omitted opt-outs and default are kept", async () => {
    const b = await create("budget", {
      name: "b",
      config: budget,
      member_ids: ["user_alice", "user_bob"],
      opted_out_member_ids: ["user_carol"],
      is_workspace_default: true,
    });
    const put = (body: Record<string, unknown>) =>
      api("PUT", `${P}/budget/${b.id}`, { workspace_id: DEFAULT_WS, name: "b", config: budget, ...body });
    const alone = await put({ member_ids: ["user_dave"] });
    expect(alone.status).toBe(400);
    expect(alone.body.error.message).toContain("api_key_hashes: member_ids and api_key_hashes are sent together");
    expect((await put({ member_ids: ["user_dave"], api_key_hashes: ["a1b2c3d4e5f60718"] })).status).toBe(200);
    expect(await get("budget", b.id)).toMatchObject({
      member_ids: ["user_dave"],
      api_key_hashes: ["a1b2c3d4e5f60718"],
      opted_out_member_ids: ["user_carol"],
      is_workspace_default: true,
    });
    await put({ is_workspace_default: false, config: { limit_usd: 7, reset_interval: "daily" } });
    expect(await get("budget", b.id)).toMatchObject({ is_workspace_default: false, config: { limit_usd: 7 } });
  });

  it("members and keys must exist and belong to the policy's workspace (rule 26)", async () => {
    await admin("POST", "/__emulator/key-info", { key_hashes: ["b2c3d4e5f6071829"], workspace_id: W2 });
    const res = await api("POST", `${P}/budget`, {
      workspace_id: DEFAULT_WS,
      name: "b",
      config: budget,
      member_ids: ["user_nobody"],
      api_key_hashes: ["b2c3d4e5f6071829"],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(
      `member_ids[0]: unknown member "user_nobody"; api_key_hashes[0]: API key b2c3d4e5f6071829 belongs to workspace ${W2}, not ${DEFAULT_WS}`,
    );
  });
});

describe("workspace defaults, opt-outs and overrides (rules 25 and 27)", () => {
  it("one default per workspace and kind; opted-out and overridden subjects do not inherit it", async () => {
    const first = await create("moderation", { name: "d1", config: {}, is_workspace_default: true });
    const second = await create("moderation", {
      name: "d2",
      config: {},
      is_workspace_default: true,
      opted_out_member_ids: ["user_bob"],
    });
    expect((await get("moderation", first.id)).is_workspace_default).toBe(false);
    const direct = await create("moderation", { name: "own", config: {}, member_ids: ["user_carol"] });
    expect(await get("moderation", second.id)).toMatchObject({ overridden_member_ids: ["user_carol"] });
    expect(await state("members/user_alice", "moderation")).toEqual({
      opted_out: false,
      policy_ids: [],
      workspace_default_policy_ids: [second.id],
    });
    expect(await state("members/user_bob", "moderation")).toEqual({
      opted_out: true,
      policy_ids: [],
      workspace_default_policy_ids: [],
    });
    expect(await state("members/user_carol", "moderation")).toEqual({
      opted_out: false,
      policy_ids: [direct.id],
      workspace_default_policy_ids: [],
    });
    expect(await state("members/user_alice", "budget")).toEqual({
      opted_out: false,
      policy_ids: [],
      workspace_default_policy_ids: [],
    });
  });
});

describe("the per-subject assignment and its 409 (rule 25)", () => {
  it("assigns and removes with expected_assignment; a stale one is a 409 that changes nothing", async () => {
    const b = await create("budget", { name: "b", config: budget });
    const empty = { opted_out: false, policy_ids: [], workspace_default_policy_ids: [] };
    const change = (assigned: boolean, expected: unknown) =>
      api("PUT", `${P}/assignments/api-keys/a1b2c3d4e5f60718`, {
        workspace_id: DEFAULT_WS,
        policy_id: b.id,
        policy_type: "budget",
        assigned,
        expected_assignment: expected,
      });
    expect((await change(true, empty)).body).toEqual({ data: true });
    expect((await get("budget", b.id)).api_key_hashes).toEqual(["a1b2c3d4e5f60718"]);
    const stale = await change(false, empty);
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: 409, metadata: { current_assignment: { policy_ids: [b.id] } } });
    expect((await get("budget", b.id)).api_key_hashes).toEqual(["a1b2c3d4e5f60718"]);
    expect((await change(true, { ...empty, policy_ids: [b.id, b.id] })).body).toEqual({ data: false });
    expect((await change(false, { ...empty, policy_ids: [b.id] })).body).toEqual({ data: true });
    expect(await state("api-keys/a1b2c3d4e5f60718", "budget")).toEqual(empty);
  });

  it("members too; an unknown member is a 404", async () => {
    const b = await create("budget", { name: "b", config: budget });
    const res = await api("PUT", `${P}/assignments/members/user_erin`, {
      workspace_id: DEFAULT_WS,
      policy_id: b.id,
      policy_type: "budget",
      assigned: true,
      expected_assignment: { opted_out: false, policy_ids: [], workspace_default_policy_ids: [] },
    });
    expect(res.body).toEqual({ data: true });
    expect((await get("budget", b.id)).member_ids).toEqual(["user_erin"]);
    expect(
      (await api("GET", `${P}/assignments/members/user_zed?workspace_id=${DEFAULT_WS}&policy_type=budget`)).status,
    ).toBe(404);
  });
});

describe("a workspace-scoped key (rule 26)", () => {
  it("defaults to its workspace, gets 403 for another, and 403 on workspace-wide policies", async () => {
    const key = "scoped-key-for-w2-123";
    expect((await admin("POST", "/__emulator/workspace-keys", { key, workspace_id: W2 })).status).toBe(200);
    const scoped = http(`${emu.url}/api/v1`, key);
    const made = await scoped("POST", `${P}/budget`, { name: "w2", config: budget });
    expect(made.status).toBe(201);
    expect((await scoped("GET", `${P}/budget`)).body.total_count).toBe(1);
    expect((await scoped("GET", `${P}/budget/${made.body.data.id}?workspace_id=${W2}`)).status).toBe(200);
    const other = await scoped("GET", `${P}/budget?workspace_id=${DEFAULT_WS}`);
    expect(other.status).toBe(403);
    expect(other.body.error.message).toContain(`scoped to workspace ${W2}`);
    expect((await scoped("POST", `${P}/budget`, { workspace_id: DEFAULT_WS, name: "x", config: budget })).status).toBe(
      403,
    );
    expect((await scoped("GET", `${P}/account`)).status).toBe(403);
    const log = await emu.log();
    expect(JSON.stringify(log)).not.toContain(key);
  });
});

describe("workspace-wide policies (rule 28)", () => {
  it("list, create, update and delete, with their workspace coverage", async () => {
    const made = await api("POST", `${P}/account`, {
      name: "org budget",
      policy_type: "budget",
      config: budget,
      workspace_ids: [DEFAULT_WS],
    });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ workspace_ids: [DEFAULT_WS], workspace_count: 1, is_default: false });
    const id = made.body.data.id;
    const put = await api("PUT", `${P}/account/${id}`, {
      name: "org budget",
      policy_type: "budget",
      config: budget,
      is_default: true,
      opted_out_workspace_ids: [W2],
    });
    expect(put.body.data).toMatchObject({ is_default: true, workspace_count: 1, opted_out_workspace_ids: [W2] });
    expect((await api("GET", `${P}/account`)).body).toMatchObject({ total_count: 1 });
    const bad = await api("PUT", `${P}/account/${id}`, { name: "x", policy_type: "moderation", config: {} });
    expect(bad.body.error.message).toContain("policy_type: cannot change");
    expect((await api("DELETE", `${P}/account/${id}`)).body).toEqual({ data: true });
    expect((await api("DELETE", `${P}/account/${id}`)).status).toBe(404);
  });
});

describe("faults and the request log (as on every route)", () => {
  it("a scripted fault hits a policy operation by its contract name, and the log records it", async () => {
    await emu.setFaults({ script: [{ operation: "createBudgetPolicy", fault: 503 }] });
    const body = { workspace_id: DEFAULT_WS, name: "b", config: budget };
    expect((await api("POST", `${P}/budget`, body)).status).toBe(503);
    expect((await api("POST", `${P}/budget`, body)).status).toBe(201);
    const log = await emu.log();
    expect(log.counts.createBudgetPolicy).toBe(2);
    expect(log.entries.map((e) => [e.operation, e.status, e.fault])).toEqual([
      ["createBudgetPolicy", 503, "server-error"],
      ["createBudgetPolicy", 201, undefined],
    ]);
  });
});
