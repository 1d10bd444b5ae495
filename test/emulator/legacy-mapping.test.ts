/**
 * The legacy mapping in the emulator (docs/api-contract.md rules 29 to 31), over plain HTTP: a
 * guardrail appears as the policies of the kinds it sets, its writes and assignment changes flow
 * into them, an edit through the policy API unmaps that kind for good, and deleting the guardrail
 * deletes the policies still mapped.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_WS, TEST_KEY, withEmulator } from "../helpers/emulator";
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
const list = async (seg: string) =>
  (await api("GET", `${P}/${seg}?workspace_id=${DEFAULT_WS}`)).body.data as Array<Record<string, any>>;
const detail = async (seg: string, id: string) =>
  (await api("GET", `${P}/${seg}/${id}?workspace_id=${DEFAULT_WS}`)).body.data;

async function guardrail(body: Record<string, unknown>): Promise<string> {
  const res = await api("POST", "/guardrails", { name: "eng", ...body });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe("a guardrail appears as its policies (rule 31)", () => {
  it("only the kinds it sets, mapped, in its workspace, with its members and keys", async () => {
    const gid = await guardrail({ limit_usd: 50, reset_interval: "weekly", enforce_zdr_vendor_a: true });
    await api("POST", `/guardrails/${gid}/assignments/members`, { member_user_ids: ["user_alice"] });
    await api("POST", `/guardrails/${gid}/assignments/keys`, { key_hashes: ["a1b2c3d4e5f60718"] });
    expect(await list("moderation")).toEqual([]);
    const [b] = await list("budget");
    expect(b).toMatchObject({
      name: "eng",
      is_legacy_mapped: true,
      legacy_guardrail_ids: [gid],
      member_count: 1,
      api_key_count: 1,
      config: { limit_usd: 50, reset_interval: "weekly", include_byok_in_budgets: false },
    });
    expect(await detail("budget", b!.id)).toMatchObject({
      reference: "legacy_mapping",
      member_ids: ["user_alice"],
      api_key_hashes: ["a1b2c3d4e5f60718"],
    });
    const [m] = await list("model-availability");
    expect(m!.config).toMatchObject({ enforce_zdr_vendor_a: true, allowed_models: null });
  });

  it("guardrail writes flow in: settings, a kind set later, a kind cleared, members moved away", async () => {
    const gid = await guardrail({ limit_usd: 50, reset_interval: "weekly" });
    const other = await guardrail({ name: "other", limit_usd: 1, reset_interval: "daily" });
    await api("POST", `/guardrails/${gid}/assignments/members`, { member_user_ids: ["user_alice", "user_bob"] });
    await api("PATCH", `/guardrails/${gid}`, {
      limit_usd: 75,
      content_filter_builtins: [{ slug: "email", action: "block" }],
    });
    const mine = (rows: Array<Record<string, any>>) => rows.find((p) => p.legacy_guardrail_ids.includes(gid));
    expect(mine(await list("budget"))!.config.limit_usd).toBe(75);
    expect(mine(await list("moderation"))).toMatchObject({ member_count: 2, is_legacy_mapped: true });
    // Rule 5: assigning alice to `other` moves her off `gid`; both mapped budgets follow.
    await api("POST", `/guardrails/${other}/assignments/members`, { member_user_ids: ["user_alice"] });
    const budgets = await list("budget");
    expect(mine(budgets)!.member_count).toBe(1);
    expect(budgets.find((p) => p.legacy_guardrail_ids.includes(other))!.member_count).toBe(1);
    await api("PATCH", `/guardrails/${gid}`, { content_filter_builtins: null });
    expect(mine(await list("moderation"))).toBeUndefined();
  });
});

describe("an edit through the policy API unmaps that kind (rule 31)", () => {
  it("PUT flips is_legacy_mapped and reference, keeps legacy_guardrail_ids, and stops the flow", async () => {
    const gid = await guardrail({
      limit_usd: 50,
      reset_interval: "weekly",
      content_filters: [{ pattern: "x+", action: "flag" }],
    });
    const [mod] = await list("moderation");
    const put = await api("PUT", `${P}/moderation/${mod!.id}`, {
      workspace_id: DEFAULT_WS,
      name: "edited",
      config: { content_filters: [{ pattern: "y+", action: "block" }] },
    });
    expect(put.status).toBe(200);
    expect(await detail("moderation", mod!.id)).toMatchObject({
      reference: null,
      is_legacy_mapped: false,
      legacy_guardrail_ids: [gid],
    });
    await api("PATCH", `/guardrails/${gid}`, { limit_usd: 9, content_filters: [{ pattern: "z+", action: "redact" }] });
    expect((await detail("moderation", mod!.id)).config.content_filters).toEqual([{ pattern: "y+", action: "block" }]);
    const [b] = await list("budget");
    expect(b).toMatchObject({ is_legacy_mapped: true, config: { limit_usd: 9 } });
    await api("DELETE", `/guardrails/${gid}`);
    expect(await list("budget")).toEqual([]);
    expect((await list("moderation")).map((p) => p.id)).toEqual([mod!.id]);
  });

  it("a per-subject assignment change unmaps too, and a deleted mapped policy is not recreated", async () => {
    const gid = await guardrail({ limit_usd: 50, reset_interval: "weekly", allowed_providers: ["vendor-a"] });
    const [b] = await list("budget");
    const [m] = await list("model-availability");
    await api("PUT", `${P}/assignments/members/user_bob`, {
      workspace_id: DEFAULT_WS,
      policy_id: b!.id,
      policy_type: "budget",
      assigned: true,
      expected_assignment: { opted_out: false, policy_ids: [], workspace_default_policy_ids: [] },
    });
    expect((await detail("budget", b!.id)).reference).toBeNull();
    expect((await api("DELETE", `${P}/model-availability/${m!.id}?workspace_id=${DEFAULT_WS}`)).status).toBe(200);
    await api("PATCH", `/guardrails/${gid}`, { allowed_providers: ["vendor-b"], limit_usd: 1 });
    expect(await list("model-availability")).toEqual([]);
    expect((await detail("budget", b!.id)).config.limit_usd).toBe(50);
  });
});
