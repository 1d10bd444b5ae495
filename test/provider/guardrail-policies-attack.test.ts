/**
 * Attack on issue 40 over the emulator (real HTTP): the workspace policies' lifecycle under
 * faults (a write that lands and loses its answer, a 503, a default moved elsewhere), the
 * emulator's rules against docs/api-contract.md rules 22 to 33 (the 400 of one list alone, kept
 * opt-outs, the 409 and 403, workspace scoping), and the legacy mapping (a guardrail write never
 * clobbers a policy edited through the policy API). A test showing the bar broken is `it.fails`
 * and named "BROKE".
 */
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createBody } from "../../src/core/policies/bodies";
import { policyCreateKey } from "../../src/core/policies/create-once";
import { parseInputs } from "../../src/core/policies/inputs";
import { killedEntry } from "../helpers/journal";
import { policyLifecycle } from "../../src/core/policies/lifecycle";
import { ProviderConfig } from "../../src/core/settings/config";
import type { PolicyTypeName } from "../../src/core/kinds";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator, W2 } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "2" }, { resetFaults: true });
const api = (key = TEST_KEY) => http(`${emu.url}/api/v1`, key);
const admin = () => http(emu.url);
const calls = async () =>
  (await emu.log()).entries.map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, "{id}")} ${e.status}`);

function lc(type: PolicyTypeName = "BudgetPolicy") {
  const conn = new ProviderConfig();
  conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
  return policyLifecycle(type, conn);
}
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}
const budget = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  workspaceId: DEFAULT_WS,
  name,
  limitUsd: 50,
  resetInterval: "monthly",
  memberUserIds: ["user_alice"],
  keyHashes: [],
  ...extra,
});
const get = async (seg: string, id: string, ws = DEFAULT_WS) =>
  (await api()("GET", `/guardrails/policies/${seg}/${id}?workspace_id=${ws}`)).body?.data;
const listAll = async (seg: string, ws = DEFAULT_WS) =>
  (await api()("GET", `/guardrails/policies/${seg}?workspace_id=${ws}&offset=0&limit=100`)).body.data as {
    id: string;
    name: string;
    is_legacy_mapped?: boolean;
    legacy_guardrail_ids?: string[];
  }[];
const cfg = { limit_usd: 5, reset_interval: "daily", include_byok_in_budgets: false };

// ---------------------------------------------------------------- lifecycle under faults

describe("the lifecycle under faults", () => {
  it("B01 a create that lands and loses its answer adopts what it made: one policy, its id in state", async () => {
    const l = lc();
    await emu.setFaults({ script: [{ operation: "createBudgetPolicy", fault: "drop" }] });
    await emu.clearLog();
    const first = await l.create(budget("Dup B01"));
    // The POST's answer was dropped (status 0), the list and the one candidate's detail settle it.
    expect(await calls()).toEqual([
      "POST /api/v1/guardrails/policies/budget 0",
      "GET /api/v1/guardrails/policies/budget 200",
      "GET /api/v1/guardrails/policies/budget/{id} 200",
    ]);
    const named = (await listAll("budget")).filter((p) => p.name === "Dup B01");
    // Bar: no fault duplicates anything (a guardrail create adopts or journals; create-once.ts).
    expect(named).toHaveLength(1);
    expect(first.id).toBe(named[0]!.id);
    expect((first.properties as { limitUsd: number; memberUserIds: string[] }).memberUserIds).toEqual(["user_alice"]);
  });

  it("B01b an ambiguous create that finds two such policies adopts neither and names both, sending no second POST", async () => {
    const before = (
      await api()("POST", "/guardrails/policies/budget", {
        name: "Dup B01b",
        workspace_id: DEFAULT_WS,
        policy_type: "budget",
        config: { limit_usd: 50, reset_interval: "monthly" },
        member_ids: ["user_alice"],
        api_key_hashes: [],
      })
    ).body.data.id as string;
    await emu.setFaults({ script: [{ operation: "createBudgetPolicy", fault: "drop" }] });
    const err = await failure(lc().create(budget("Dup B01b")));
    const named = (await listAll("budget")).filter((p) => p.name === "Dup B01b");
    expect(named).toHaveLength(2);
    expect(err.message).toMatch(/outcome is unknown/);
    expect(err.message).toMatch(/none was adopted/);
    for (const p of named) expect(err.message).toContain(p.id);
    expect(err.message).toContain(before);
  });

  it("B01c a run killed mid-create: the next create of the same resource recovers its policy from the journal, no POST", async () => {
    const dir = mkdtempSync(join(tmpdir(), "policy-journal-"));
    const was = process.env.GUARDRAILS_JOURNAL_DIR;
    process.env.GUARDRAILS_JOURNAL_DIR = dir;
    try {
      const made = async (name: string) =>
        (
          await api()("POST", "/guardrails/policies/budget", {
            name,
            workspace_id: DEFAULT_WS,
            policy_type: "budget",
            config: { limit_usd: 50, reset_interval: "monthly" },
            member_ids: ["user_alice"],
            api_key_hashes: [],
          })
        ).body.data.id as string;
      const plant = (resource: string, name: string, extra: Record<string, unknown>) => {
        const body = createBody("BudgetPolicy", parseInputs("BudgetPolicy", budget(name)), DEFAULT_WS);
        const key = policyCreateKey(resource, emu.url, "BudgetPolicy", body);
        writeFileSync(join(dir, `${key.slice(0, 16)}-1-1.json`), JSON.stringify(killedEntry(resource, key, extra)));
      };
      // The killed run's POST answered (the entry holds the id), and the process died before the engine recorded it.
      const withId = await made("Journal B01c");
      plant("proj/dev/b01c", "Journal B01c", { id: withId });
      // Another killed run died before the answer: its entry has no id, the list finds its policy.
      const noId = await made("Journal B01d");
      plant("proj/dev/b01d", "Journal B01d", {});
      await emu.clearLog();
      const r1 = await lc().create({ ...budget("Journal B01c"), __resource: "proj/dev/b01c" });
      expect(r1.id).toBe(withId);
      const r2 = await lc().create({ ...budget("Journal B01d"), __resource: "proj/dev/b01d" });
      expect(r2.id).toBe(noId);
      expect((await calls()).filter((c) => c.startsWith("POST"))).toEqual([]);
      expect((await listAll("budget")).filter((p) => p.name.startsWith("Journal B01"))).toHaveLength(2);
      // The engine recorded the ids (diff): their entries are dropped.
      await lc().diff(r1.id, r1.properties as never, budget("Journal B01c"));
      await lc().diff(r2.id, r2.properties as never, budget("Journal B01d"));
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.env.GUARDRAILS_JOURNAL_DIR = was;
      if (was === undefined) delete process.env.GUARDRAILS_JOURNAL_DIR;
    }
  });

  it("B02 a PUT that lands and loses its answer: retried or a clear error; the next update never overwrites silently", async () => {
    const l = lc();
    const c = await l.create(budget("Put B02"));
    await emu.setFaults({ script: [{ operation: "updateBudgetPolicy", fault: "drop" }] });
    const r = await l.update(c.id, c.properties as never, budget("Put B02", { limitUsd: 70 })).then(
      (x) => x,
      (e: Error) => e,
    );
    expect((await get("budget", c.id)).config.limit_usd).toBe(70);
    if (r instanceof Error) {
      // State still holds the olds: the next update must not pass as "nothing changed" nor overwrite.
      const again = await failure(l.update(c.id, c.properties as never, budget("Put B02", { limitUsd: 80 })));
      expect(again.message).toContain("changed on the service since the last refresh");
    } else expect((r.properties as { limitUsd: number }).limitUsd).toBe(70);
  });

  it("B03 a 503 on the update's GET then success: retried, one GET answered, one PUT", async () => {
    const l = lc();
    const c = await l.create(budget("Get B03"));
    await emu.setFaults({ script: [{ operation: "getBudgetPolicy", fault: 503 }] });
    await emu.clearLog();
    const u = await l.update(c.id, c.properties as never, budget("Get B03", { limitUsd: 55 }));
    expect((u.properties as { limitUsd: number }).limitUsd).toBe(55);
    expect((await calls()).filter((x) => x.startsWith("PUT"))).toHaveLength(1);
  });

  it("B04 a 503 on the DELETE: an error, the state keeps the resource (not 'already gone')", async () => {
    const l = lc();
    const c = await l.create(budget("Del B04"));
    await emu.setFaults({ script: [{ operation: "deleteBudgetPolicy", fault: 503, times: 5 }] });
    await failure(l.delete(c.id, c.properties as never));
    expect(await get("budget", c.id)).toBeDefined();
  });

  it("B05 an out-of-band per-subject assignment (rule 25) fails the next update, naming the member; nothing written", async () => {
    const l = lc();
    const c = await l.create(budget("Oob B05"));
    const state = (
      await api()(
        "GET",
        `/guardrails/policies/assignments/members/user_bob?workspace_id=${DEFAULT_WS}&policy_type=budget`,
      )
    ).body.data;
    const ch = await api()("PUT", "/guardrails/policies/assignments/members/user_bob", {
      assigned: true,
      expected_assignment: state,
      policy_id: c.id,
      policy_type: "budget",
      workspace_id: DEFAULT_WS,
    });
    expect(ch.status).toBe(200);
    await emu.clearLog();
    const err = await failure(l.update(c.id, c.properties as never, budget("Oob B05", { limitUsd: 9 })));
    expect(err.message).toContain('memberUserIds (added "user_bob")');
    expect((await calls()).filter((x) => x.startsWith("PUT"))).toEqual([]);
    expect((await get("budget", c.id)).config.limit_usd).toBe(50);
  });

  it("B06 another policy made the workspace default behind our back: the update errors rather than silently taking it back", async () => {
    const l = lc("ModerationPolicy");
    const news = {
      workspaceId: DEFAULT_WS,
      name: "Def B06 a",
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
      workspaceDefault: true,
    };
    const a = await l.create(news);
    const b = await api()("POST", "/guardrails/policies/moderation", {
      name: "Def B06 b",
      workspace_id: DEFAULT_WS,
      config: { content_filter_builtins: [{ slug: "ssn", action: "block" }] },
      is_workspace_default: true,
    });
    expect(b.status).toBe(201);
    expect((await get("moderation", a.id)).is_workspace_default).toBe(false);
    const err = await failure(l.update(a.id, a.properties as never, { ...news, name: "Def B06 a2" }));
    expect(err.message).toContain("workspaceDefault");
    expect((await get("moderation", b.body.data.id)).is_workspace_default).toBe(true);
  });

  it("B07 a key list this resource does not manage, changed out of band, survives a member change", async () => {
    const l = lc();
    const { keyHashes: _, ...news } = budget("Keys B07");
    const c = await l.create(news);
    await api()("PUT", `/guardrails/policies/budget/${c.id}`, {
      name: "Keys B07",
      workspace_id: DEFAULT_WS,
      config: { limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: false },
      member_ids: ["user_alice"],
      api_key_hashes: ["a1b2c3d4e5f60718"],
    });
    const fresh = await l.read(c.id, c.properties as never);
    await l.update(c.id, fresh!.properties as never, { ...news, memberUserIds: ["user_alice", "user_carol"] });
    expect((await get("budget", c.id)).api_key_hashes).toEqual(["a1b2c3d4e5f60718"]);
  });

  it("B08 opt-outs not managed by the program survive a change of the default flag", async () => {
    const l = lc();
    const c = await l.create(budget("Opt B08", { workspaceDefault: true, optedOutMemberUserIds: ["user_dave"] }));
    const { optedOutMemberUserIds: _, ...news } = budget("Opt B08", { workspaceDefault: false });
    await l.update(c.id, c.properties as never, news);
    const live = await get("budget", c.id);
    expect(live.is_workspace_default).toBe(false);
    expect(live.opted_out_member_ids).toEqual(["user_dave"]);
  });

  it("B09 an import of a policy of another kind, or of another workspace, is a clear error (never an empty import)", async () => {
    const c = await lc().create(budget("Kind B09"));
    const e1 = await failure(lc("ModerationPolicy").read(`${DEFAULT_WS}/${c.id}`, undefined as never));
    expect(e1.message).toMatch(/has no moderation policy/);
    const e2 = await failure(lc().read(`${W2}/${c.id}`, undefined as never));
    expect(e2.message).toMatch(/has no budget policy/);
  });

  it("B10 a refresh after the policy was deleted out of band: gone only after the list confirms it", async () => {
    const l = lc();
    const c = await l.create(budget("Gone B10"));
    await api()("DELETE", `/guardrails/policies/budget/${c.id}?workspace_id=${DEFAULT_WS}`);
    await emu.clearLog();
    expect(await l.read(c.id, c.properties as never)).toBeUndefined();
    expect(await calls()).toEqual([
      "GET /api/v1/guardrails/policies/budget/{id} 404",
      "GET /api/v1/guardrails/policies/budget 200",
    ]);
  });

  it("B12 the policy's workspace deleted with it: refresh reports it gone or a clear error, and destroy is not stuck forever", async () => {
    const ws = (await admin()("POST", "/__emulator/workspaces", { name: "Temp B12", slug: "temp-b12" })).body.data
      .id as string;
    const l = lc();
    const c = await l.create(budget("Ws B12", { workspaceId: "temp-b12" }));
    expect((c.properties as { workspaceId: string }).workspaceId).toBe(ws);
    await admin()("DELETE", `/__emulator/workspaces/${ws}`);
    const read = await l.read(c.id, c.properties as never).then(
      (x) => x ?? "gone",
      (e: Error) => e,
    );
    const del = await l.delete(c.id, c.properties as never).then(
      () => "deleted",
      (e: Error) => e,
    );
    // Bar: a workspace gone takes its policies (rule 21 for guardrails); destroy must be able to finish.
    expect({
      read: read instanceof Error ? read.message : read,
      del: del instanceof Error ? del.message : del,
    }).toEqual({ read: "gone", del: "deleted" });
  });

  it("B11 a member id carrying a terminal escape: the service's 400 reaches the message neutralised", async () => {
    const err = await failure(lc().create(budget("Esc B11", { memberUserIds: ["user_\u001b[31mred\u202e"] })));
    expect(err.message).toMatch(/400/);
    expect(err.message).not.toContain("\u001b");
    expect(err.message).not.toContain("\u202e");
  });
});

// ---------------------------------------------------------------- the emulator against the contract

describe("the emulator against rules 22 to 33", () => {
  const create = async (body: Record<string, unknown>, seg = "budget", key = TEST_KEY) =>
    api(key)("POST", `/guardrails/policies/${seg}`, { name: "E", workspace_id: DEFAULT_WS, config: cfg, ...body });

  it("C01 rule 24: one assignment list without the other is a 400 and changes nothing", async () => {
    const p = (await create({ member_ids: ["user_alice"], api_key_hashes: [] })).body.data;
    const r = await api()("PUT", `/guardrails/policies/budget/${p.id}`, {
      name: "E2",
      workspace_id: DEFAULT_WS,
      config: cfg,
      member_ids: [],
    });
    expect(r.status).toBe(400);
    const live = await get("budget", p.id);
    expect(live.name).toBe("E");
    expect(live.member_ids).toEqual(["user_alice"]);
  });

  it("C02 rule 24: omitting both lists keeps them; omitting the opt-outs keeps them; omitting the flag keeps it", async () => {
    const p = (
      await create({
        member_ids: ["user_alice"],
        api_key_hashes: ["a1b2c3d4e5f60718"],
        opted_out_member_ids: ["user_bob"],
        is_workspace_default: true,
      })
    ).body.data;
    const r = await api()("PUT", `/guardrails/policies/budget/${p.id}`, {
      name: "E3",
      workspace_id: DEFAULT_WS,
      config: cfg,
    });
    expect(r.status).toBe(200);
    expect(await get("budget", p.id)).toMatchObject({
      member_ids: ["user_alice"],
      api_key_hashes: ["a1b2c3d4e5f60718"],
      opted_out_member_ids: ["user_bob"],
      is_workspace_default: true,
    });
    await api()("DELETE", `/guardrails/policies/budget/${p.id}?workspace_id=${DEFAULT_WS}`);
  });

  it("C03 rule 25: a stale expected_assignment is a 409 that changes nothing; sets compare regardless of order and duplicates", async () => {
    const p = (await create({})).body.data;
    const path = "/guardrails/policies/assignments/members/user_erin";
    const stale = { opted_out: false, policy_ids: [p.id], workspace_default_policy_ids: [] };
    const r = await api()("PUT", path, {
      assigned: false,
      expected_assignment: stale,
      policy_id: p.id,
      policy_type: "budget",
      workspace_id: DEFAULT_WS,
    });
    expect(r.status).toBe(409);
    expect(r.body.error.metadata.current_assignment.policy_ids).toEqual([]);
    const before = (await api()("GET", `${path}?workspace_id=${DEFAULT_WS}&policy_type=budget`)).body.data;
    const ok = await api()("PUT", path, {
      assigned: true,
      expected_assignment: { ...before, policy_ids: [...before.policy_ids, ...before.policy_ids].reverse() },
      policy_id: p.id,
      policy_type: "budget",
      workspace_id: DEFAULT_WS,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toBe(true);
  });

  it("C04 rule 26: a workspace-scoped key gets 403 on another workspace and on every workspace-wide call, and defaults to its own", async () => {
    const key = "ws-scoped-key-C04-abcdef";
    await admin()("POST", "/__emulator/workspace-keys", { key, workspace_id: W2 });
    expect((await create({ workspace_id: DEFAULT_WS }, "budget", key)).status).toBe(403);
    expect((await api(key)("GET", `/guardrails/policies/budget?workspace_id=${DEFAULT_WS}`)).status).toBe(403);
    expect((await api(key)("GET", "/guardrails/policies/account")).status).toBe(403);
    const own = await api(key)("POST", "/guardrails/policies/budget", { name: "own", config: cfg });
    expect(own.status).toBe(201);
    expect((await get("budget", own.body.data.id, W2)).name).toBe("own");
    // And it cannot reach a default-workspace policy by id through its own workspace.
    const other = (await create({})).body.data;
    expect((await api(key)("GET", `/guardrails/policies/budget/${other.id}`)).status).toBe(404);
  });

  it("C05 rule 26: a key bound to another workspace cannot be assigned here (400 naming it), nor changed per subject (404)", async () => {
    await admin()("POST", "/__emulator/key-info", { key_hashes: ["c3d4e5f60718293a"], workspace_id: W2 });
    const r = await create({ member_ids: [], api_key_hashes: ["c3d4e5f60718293a"] });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain("api_key_hashes[0]");
    const p = (await create({})).body.data;
    const ch = await api()("PUT", "/guardrails/policies/assignments/api-keys/c3d4e5f60718293a", {
      assigned: true,
      expected_assignment: { opted_out: false, policy_ids: [], workspace_default_policy_ids: [] },
      policy_id: p.id,
      policy_type: "budget",
      workspace_id: DEFAULT_WS,
    });
    expect(ch.status).toBe(404);
  });

  it("C06 rule 33: an update naming another workspace in its body does not move or touch the policy (404)", async () => {
    const p = (await create({})).body.data;
    const r = await api()("PUT", `/guardrails/policies/budget/${p.id}`, {
      name: "moved",
      workspace_id: W2,
      config: cfg,
    });
    expect(r.status).toBe(404);
    expect((await get("budget", p.id)).name).toBe("E");
  });

  it("C07 rule 23: a body whose policy_type names another kind is a 400; a setting of another kind is a 400 naming config.<field>", async () => {
    const r = await create({ policy_type: "moderation" });
    expect(r.status).toBe(400);
    const s = await create({ config: { ...cfg, allowed_providers: ["x"] } });
    expect(s.status).toBe(400);
    // The README says "400 naming config.<field>"; the emulator words it "config: unknown field(s): allowed_providers".
    expect(s.body.error.message).toMatch(/config.*allowed_providers/);
  });

  it("C08 rule 23: limit over 100 is a 400; no offset and limit answers the full list", async () => {
    expect(
      (await api()("GET", `/guardrails/policies/budget?workspace_id=${DEFAULT_WS}&offset=0&limit=101`)).status,
    ).toBe(400);
    const full = await api()("GET", `/guardrails/policies/budget?workspace_id=${DEFAULT_WS}`);
    expect(full.status).toBe(200);
    expect(full.body.data.length).toBe(full.body.total_count);
  });

  it("C09 rule 28: a workspace-wide update cannot change policy_type, and an unknown workspace in its coverage is a 400", async () => {
    const w = await api()("POST", "/guardrails/policies/account", {
      name: "ww",
      policy_type: "budget",
      config: cfg,
      workspace_ids: [DEFAULT_WS],
    });
    expect(w.status).toBe(201);
    const t = await api()("PUT", `/guardrails/policies/account/${w.body.data.id}`, {
      name: "ww",
      policy_type: "moderation",
      config: {},
    });
    expect(t.status).toBe(400);
    const u = await api()("PUT", `/guardrails/policies/account/${w.body.data.id}`, {
      name: "ww",
      policy_type: "budget",
      config: cfg,
      workspace_ids: ["00000000-0000-4000-8000-0000000000ff"],
    });
    expect(u.status).toBe(400);
    await api()("DELETE", `/guardrails/policies/account/${w.body.data.id}`);
  });

  it("C10 enforcement: an opt-out from the workspace default never escapes a workspace-wide policy", async () => {
    const p = (await create({ is_workspace_default: true, opted_out_member_ids: ["user_frank"] })).body.data;
    const w = await api()("POST", "/guardrails/policies/account", {
      name: "ww C10",
      policy_type: "budget",
      config: { limit_usd: 1, reset_interval: "daily", include_byok_in_budgets: false },
      workspace_ids: [DEFAULT_WS],
    });
    const e = (await admin()("GET", `/__emulator/enforcement?member=user_frank&workspace=${DEFAULT_WS}`)).body;
    expect(e.budgets.map((b: { limit_usd: number }) => b.limit_usd)).toContain(1);
    expect(e.sources.some((s: { id: string }) => s.id === p.id)).toBe(false);
    await api()("DELETE", `/guardrails/policies/account/${w.body.data.id}`);
    await api()("DELETE", `/guardrails/policies/budget/${p.id}?workspace_id=${DEFAULT_WS}`);
  });
});

// ---------------------------------------------------------------- the legacy mapping

describe("the legacy mapping (rules 29 to 31)", () => {
  async function guardrail(name: string) {
    const g = await api()("POST", "/guardrails", {
      name,
      workspace_id: DEFAULT_WS,
      content_filter_builtins: [{ slug: "email", action: "redact" }],
      limit_usd: 10,
      reset_interval: "weekly",
    });
    expect(g.status, JSON.stringify(g.body)).toBe(201);
    await api()("POST", `/guardrails/${g.body.data.id}/assignments/members`, { member_user_ids: ["user_alice"] });
    return g.body.data.id as string;
  }
  const mapped = async (gid: string, seg: string) =>
    (await listAll(seg)).find((p) => p.legacy_guardrail_ids?.includes(gid));

  it("D01 a guardrail write never clobbers a policy edited through the policy API; the untouched kind still follows", async () => {
    const gid = await guardrail("Legacy D01");
    const mod = (await mapped(gid, "moderation"))!;
    const bud = (await mapped(gid, "budget"))!;
    expect(mod.is_legacy_mapped).toBe(true);
    expect((await get("moderation", mod.id)).reference).toBe("legacy_mapping");
    await api()("PUT", `/guardrails/policies/moderation/${mod.id}`, {
      name: "edited",
      workspace_id: DEFAULT_WS,
      config: { content_filter_builtins: [{ slug: "ssn", action: "block" }] },
    });
    const after = await get("moderation", mod.id);
    expect(after).toMatchObject({ is_legacy_mapped: false, reference: null, legacy_guardrail_ids: [gid] });
    await api()("PATCH", `/guardrails/${gid}`, {
      name: "Legacy D01 v2",
      content_filter_builtins: [{ slug: "phone", action: "flag" }],
      limit_usd: 20,
    });
    await api()("POST", `/guardrails/${gid}/assignments/members`, { member_user_ids: ["user_bob"] });
    const mod2 = await get("moderation", mod.id);
    expect(mod2.name).toBe("edited");
    expect(mod2.config.content_filter_builtins.map((b: { slug: string }) => b.slug)).toEqual(["ssn"]);
    expect(mod2.member_ids).toEqual(["user_alice"]);
    const bud2 = await get("budget", bud.id);
    expect(bud2.config.limit_usd).toBe(20);
    expect([...bud2.member_ids].sort()).toEqual(["user_alice", "user_bob"]);
    // One moderation policy for the guardrail: the write did not make a second mapped one.
    expect((await listAll("moderation")).filter((p) => p.legacy_guardrail_ids?.includes(gid))).toHaveLength(1);
  });

  it("D02 a per-subject change on a mapped policy detaches it; deleting the guardrail keeps it and removes the still-mapped ones", async () => {
    const gid = await guardrail("Legacy D02");
    const mod = (await mapped(gid, "moderation"))!;
    const bud = (await mapped(gid, "budget"))!;
    const path = "/guardrails/policies/assignments/members/user_carol";
    const st = (await api()("GET", `${path}?workspace_id=${DEFAULT_WS}&policy_type=moderation`)).body.data;
    const ch = await api()("PUT", path, {
      assigned: true,
      expected_assignment: st,
      policy_id: mod.id,
      policy_type: "moderation",
      workspace_id: DEFAULT_WS,
    });
    expect(ch.status).toBe(200);
    expect((await get("moderation", mod.id)).is_legacy_mapped).toBe(false);
    await api()("DELETE", `/guardrails/${gid}`);
    expect(await get("moderation", mod.id)).toBeDefined();
    expect(await get("budget", bud.id)).toBeUndefined();
  });

  it("D03 a mapped policy deleted through the policy API is never recreated by a later guardrail write", async () => {
    const gid = await guardrail("Legacy D03");
    const mod = (await mapped(gid, "moderation"))!;
    await api()("DELETE", `/guardrails/policies/moderation/${mod.id}?workspace_id=${DEFAULT_WS}`);
    await api()("PATCH", `/guardrails/${gid}`, { content_filter_builtins: [{ slug: "ssn", action: "block" }] });
    expect(await mapped(gid, "moderation")).toBeUndefined();
  });

  it("D04 the provider's update of an imported mapped policy is an edit (detaches it); a guardrail write then leaves it alone", async () => {
    const gid = await guardrail("Legacy D04");
    const bud = (await mapped(gid, "budget"))!;
    const l = lc();
    const imp = await l.read(`${DEFAULT_WS}/${bud.id}`, undefined as never);
    expect(imp!.inputs).toMatchObject({ limitUsd: 10, resetInterval: "weekly", memberUserIds: ["user_alice"] });
    await l.update(bud.id, imp!.properties as never, { ...imp!.inputs, limitUsd: 30 });
    expect((await get("budget", bud.id)).reference).toBeNull();
    await api()("PATCH", `/guardrails/${gid}`, { limit_usd: 99 });
    expect((await get("budget", bud.id)).config.limit_usd).toBe(30);
  });

  it("D06 after an update unmaps a mapped policy, the outputs still say reference: legacy_mapping", async () => {
    const gid = await guardrail("Legacy D06");
    const bud = (await mapped(gid, "budget"))!;
    const l = lc();
    const imp = await l.read(`${DEFAULT_WS}/${bud.id}`, undefined as never);
    await emu.clearLog();
    const u = await l.update(bud.id, imp!.properties as never, { ...imp!.inputs, limitUsd: 30 });
    // No extra call: the GET (the concurrency check) and the PUT.
    expect(await calls()).toEqual([
      "GET /api/v1/guardrails/policies/budget/{id} 200",
      "PUT /api/v1/guardrails/policies/budget/{id} 200",
    ]);
    const live = await get("budget", bud.id);
    expect(live.reference).toBeNull();
    // Bar: state holds what is known: the service now says null; the outputs carry the GET's stale value.
    expect((u.properties as { reference: unknown }).reference).toBe(live.reference);
  });

  it("D05 a guardrail write into a still-mapped policy is seen at refresh (drift shown, never silent)", async () => {
    const gid = await guardrail("Legacy D05");
    const bud = (await mapped(gid, "budget"))!;
    const l = lc();
    const imp = await l.read(`${DEFAULT_WS}/${bud.id}`, undefined as never);
    await api()("PATCH", `/guardrails/${gid}`, { limit_usd: 77 });
    const r = await l.read(bud.id, imp!.properties as never);
    expect(r!.inputs).toMatchObject({ limitUsd: 77 });
    const d = await l.diff(bud.id, r!.properties as never, imp!.inputs!);
    expect(d.changes.map((c) => c.path)).toContain("limitUsd");
  });
});
