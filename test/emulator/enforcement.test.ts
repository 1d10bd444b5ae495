/**
 * `GET /__emulator/enforcement` (docs/api-contract.md, "The emulator's enforcement answer"): what
 * the emulator enforces for a member or key, combining the workspace's default guardrail, each
 * guardrail through its policies, direct and default policies, and workspace-wide policies, the
 * stricter rule winning and every budget listed on its own.
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
const enforced = async (q: string) => {
  const res = await admin("GET", `/__emulator/enforcement?${q}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const policy = async (seg: string, body: Record<string, unknown>) => {
  const res = await api("POST", `${P}/${seg}`, { workspace_id: DEFAULT_WS, name: seg, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id as string;
};
const defaultGuardrail = async (ws = DEFAULT_WS) =>
  (await api("GET", `/workspaces/${ws}`)).body.data.default_guardrail_id as string;

describe("the enforcement answer", () => {
  it("stricter wins: allow lists and regions intersect, ignore lists join, ZDR on and training off win", async () => {
    const dg = await defaultGuardrail();
    await api("PATCH", `/guardrails/${dg}`, {
      allowed_providers: ["vendor-a", "vendor-b"],
      ignored_providers: ["vendor-x"],
      allowed_data_regions: ["europe", "us"],
      enable_free_model_training: true,
      limit_usd: 500,
      reset_interval: "monthly",
    });
    await policy("model-availability", {
      member_ids: ["user_alice"],
      config: {
        allowed_providers: ["vendor-b", "vendor-c"],
        ignored_providers: ["vendor-y"],
        allowed_data_regions: ["europe"],
        enforce_zdr_vendor_a: true,
        enable_free_model_training: false,
      },
    });
    const wide = await api("POST", `${P}/account`, {
      name: "org",
      policy_type: "budget",
      config: { limit_usd: 1000, reset_interval: "monthly", include_byok_in_budgets: true },
      is_default: true,
    });
    const answer = await enforced(`member=user_alice&workspace=${DEFAULT_WS}`);
    expect(answer.subject).toEqual({ member: "user_alice" });
    expect(answer.model_availability).toMatchObject({
      allowed_providers: ["vendor-b"],
      ignored_providers: ["vendor-x", "vendor-y"],
      allowed_data_regions: ["europe"],
      enforce_zdr_vendor_a: true,
      enforce_zdr_vendor_b: null,
      enable_free_model_training: false,
      allowed_models: null,
    });
    expect(answer.budgets).toEqual([
      {
        limit_usd: 500,
        reset_interval: "monthly",
        include_byok_in_budgets: false,
        source: { type: "guardrail", id: dg, via: "workspace_default" },
      },
      {
        limit_usd: 1000,
        reset_interval: "monthly",
        include_byok_in_budgets: true,
        source: { type: "workspace_wide_policy", id: wide.body.data.id, policy_type: "budget" },
      },
    ]);
  });

  it("a member's own guardrail replaces the default guardrail and is enforced through its policies", async () => {
    const dg = await defaultGuardrail();
    await api("PATCH", `/guardrails/${dg}`, { limit_usd: 5, reset_interval: "daily" });
    const g = await api("POST", "/guardrails", { name: "eng", limit_usd: 50, reset_interval: "weekly" });
    await api("POST", `/guardrails/${g.body.data.id}/assignments/members`, { member_user_ids: ["user_bob"] });
    const answer = await enforced(`member=user_bob&workspace=${DEFAULT_WS}`);
    expect(answer.budgets).toEqual([
      expect.objectContaining({
        limit_usd: 50,
        source: expect.objectContaining({ type: "policy", via: "direct", legacy_guardrail_ids: [g.body.data.id] }),
      }),
    ]);
    expect((await enforced(`member=user_carol&workspace=${DEFAULT_WS}`)).budgets).toEqual([
      expect.objectContaining({ limit_usd: 5 }),
    ]);
  });

  it("a key is under the default guardrail unless both it and its owner hold a guardrail (rule 18, issue 41)", async () => {
    const dg = await defaultGuardrail();
    await api("PATCH", `/guardrails/${dg}`, { limit_usd: 5, reset_interval: "daily" });
    const g = await api("POST", "/guardrails", { name: "eng", limit_usd: 50, reset_interval: "weekly" });
    const k = await api("POST", "/guardrails", { name: "key", limit_usd: 9, reset_interval: "weekly" });
    const [key, owner] = ["c3d4e5f60718293a", "user_erin"];
    await admin("POST", "/__emulator/key-info", { key_hashes: [key], member_user_id: owner });
    const limits = async () =>
      (await enforced(`key=${key}&workspace=${DEFAULT_WS}`)).budgets.map((b: { limit_usd: number }) => b.limit_usd);
    await api("POST", `/guardrails/${g.body.data.id}/assignments/members`, { member_user_ids: [owner] });
    expect(await limits()).toEqual([5, 50]);
    await api("POST", `/guardrails/${k.body.data.id}/assignments/keys`, { key_hashes: [key] });
    expect(await limits()).toEqual([9, 50]);
    await api("POST", `/guardrails/${g.body.data.id}/assignments/members/remove`, { member_user_ids: [owner] });
    expect(await limits()).toEqual([5, 9]);
  });

  it("workspace defaults apply unless opted out or overridden; moderation joins with the stricter action", async () => {
    const d = await policy("moderation", {
      is_workspace_default: true,
      opted_out_member_ids: ["user_carol"],
      config: { content_filter_builtins: [{ slug: "email", action: "flag" }] },
    });
    await policy("moderation", {
      member_ids: ["user_dave"],
      config: { content_filter_builtins: [{ slug: "ssn", action: "block" }] },
    });
    await api("POST", `${P}/account`, {
      name: "org",
      policy_type: "moderation",
      config: { content_filter_builtins: [{ slug: "email", action: "redact" }] },
      workspace_ids: [DEFAULT_WS],
    });
    const slugs = async (member: string) =>
      (await enforced(`member=${member}&workspace=${DEFAULT_WS}`)).moderation.content_filter_builtins;
    expect(await slugs("user_alice")).toEqual([{ slug: "email", action: "redact", label: "[EMAIL]" }]);
    expect(await slugs("user_carol")).toEqual([{ slug: "email", action: "redact", label: "[EMAIL]" }]);
    expect(await slugs("user_dave")).toEqual([
      { slug: "ssn", action: "block", label: "[SSN]" },
      { slug: "email", action: "redact", label: "[EMAIL]" },
    ]);
    const alice = await enforced(`member=user_alice&workspace=${DEFAULT_WS}`);
    expect(alice.sources).toContainEqual(expect.objectContaining({ id: d, via: "workspace_default" }));
    // The workspace-wide policy covers only DEFAULT_WS.
    expect((await enforced(`member=user_alice&workspace=${W2}`)).moderation.content_filter_builtins).toBeNull();
  });

  it("a key adds the member who owns it; bad queries are 400s and 404s", async () => {
    await policy("budget", { member_ids: ["user_erin"], config: { limit_usd: 3, reset_interval: "daily" } });
    await policy("budget", { api_key_hashes: ["c3d4e5f60718293a"], config: { limit_usd: 4, reset_interval: "daily" } });
    await admin("POST", "/__emulator/key-info", { key_hashes: ["c3d4e5f60718293a"], member_user_id: "user_erin" });
    const answer = await enforced(`key=c3d4e5f60718293a&workspace=${DEFAULT_WS}`);
    expect(answer.subject).toEqual({ key: "c3d4e5f60718293a", owner_member: "user_erin" });
    expect(answer.budgets.map((b: { limit_usd: number }) => b.limit_usd)).toEqual([4, 3]);
    expect((await admin("GET", `/__emulator/enforcement?workspace=${DEFAULT_WS}`)).status).toBe(400);
    expect((await admin("GET", `/__emulator/enforcement?member=user_zed&workspace=${DEFAULT_WS}`)).status).toBe(404);
  });
});
