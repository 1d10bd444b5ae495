/**
 * Issue 40, third attack pass (policies-native-attack.test.ts has the secrets): the Guardrail
 * Policies through the native face's gRPC surface with the engine's unknown sentinels, values
 * of the wrong type, and import ids of odd forms, against the emulator over HTTP.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../src/core/markers";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator, W2 } from "../helpers/emulator";
import { nativeService, secret, urnOf } from "../helpers/native-service";
import { http } from "../helpers/spawn-emulator";

const MEMBERS = ["user_alice", "user_bob"];
const emu = useProviderEmulator({}, { options: { members: MEMBERS, keyHashes: ["hash_a"] } });
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
const BP = urnOf("BudgetPolicy");
const MP = urnOf("ModerationPolicy");
const WW = urnOf("WorkspaceWidePolicy");
const REPLACE = 5; // PropertyDiff.Kind.UPDATE_REPLACE

const budget = (name: string, extra: Record<string, unknown> = {}) => ({
  workspaceId: DEFAULT_WS,
  name,
  limitUsd: 5,
  resetInterval: "monthly",
  memberUserIds: ["user_alice"],
  ...extra,
});

async function made(urn: string, news: Record<string, unknown>) {
  const s = await nativeService(emu.url);
  const c = await s.check(urn, news);
  expect(c.failures).toEqual([]);
  return { s, checked: c.inputs, ...(await s.create(urn, c.inputs)) };
}

describe("unknowns through the native face", () => {
  it("B01 Check passes an unknown element in a list, an unknown workspaceId, an unknown setting", async () => {
    const s = await nativeService(emu.url);
    for (const news of [
      budget("B01a", { memberUserIds: ["user_alice", UNKNOWN] }),
      budget("B01b", { workspaceId: UNKNOWN }),
      budget("B01c", { limitUsd: UNKNOWN }),
      budget("B01d", { keyHashes: UNKNOWN, optedOutMemberUserIds: [UNKNOWN] }),
    ])
      expect((await s.check(BP, news)).failures, JSON.stringify(news)).toEqual([]);
  });

  it("B02 Check: an unknown partner of a cross-field rule is no false failure (resetInterval unknown)", async () => {
    const s = await nativeService(emu.url);
    expect((await s.check(BP, budget("B02", { resetInterval: UNKNOWN }))).failures).toEqual([]);
    const ww = { name: "B02", policyType: "budget", limitUsd: 3, resetInterval: UNKNOWN };
    expect((await s.check(WW, ww)).failures).toEqual([]);
  });

  it("B03 Check passes an unknown inside a nested setting (a content filter's pattern)", async () => {
    const s = await nativeService(emu.url);
    const news = {
      workspaceId: DEFAULT_WS,
      name: "B03",
      contentFilters: [{ pattern: UNKNOWN, action: "block" }],
    };
    expect((await s.check(MP, news)).failures).toEqual([]);
  });

  it("B04 Diff with an unknown member: a change, never a replace and never 'no changes'", async () => {
    const { s, id, outs, checked } = await made(BP, budget("B04"));
    const d = await s.diff(BP, id, outs, budget("B04", { memberUserIds: ["user_alice", UNKNOWN] }), checked);
    expect(d.changes).toBe("some");
    expect(d.replaces).toEqual([]);
    const whole = await s.diff(BP, id, outs, budget("B04", { memberUserIds: UNKNOWN }), checked);
    expect(whole.changes).toBe("some");
    expect(whole.replaces).toEqual([]);
    await s.delete(BP, id, outs);
  });

  it("B05 Diff with an unknown workspaceId may move the policy: a replace on workspaceId only", async () => {
    const { s, id, outs, checked } = await made(BP, budget("B05"));
    const d = await s.diff(BP, id, outs, budget("B05", { workspaceId: UNKNOWN, limitUsd: UNKNOWN }), checked);
    expect(d.changes).toBe("some");
    expect(d.replaces).toEqual(["workspaceId"]);
    expect(d.detailed.workspaceId).toBe(REPLACE);
    await s.delete(BP, id, outs);
  });

  it("B06 Diff with an unknown nested in a content filter: a change", async () => {
    const news = { workspaceId: DEFAULT_WS, name: "B06", contentFilters: [{ pattern: "secret-x", action: "block" }] };
    const { s, id, outs, checked } = await made(MP, news);
    const d = await s.diff(MP, id, outs, { ...news, contentFilters: [{ pattern: UNKNOWN, action: "block" }] }, checked);
    expect(d.changes).toBe("some");
    expect(d.replaces).toEqual([]);
    await s.delete(MP, id, outs);
  });

  it("B07 WorkspaceWidePolicy Diff: an unknown workspace in workspaceIds is a change, no replace", async () => {
    const news = { name: "B07", policyType: "budget", limitUsd: 3, resetInterval: "daily", workspaceIds: [W2] };
    const { s, id, outs, checked } = await made(WW, news);
    const d = await s.diff(WW, id, outs, { ...news, workspaceIds: [W2, UNKNOWN] }, checked);
    expect(d.changes).toBe("some");
    expect(d.replaces).toEqual([]);
    const t = await s.diff(WW, id, outs, { ...news, policyType: UNKNOWN }, checked);
    expect(t.changes).toBe("some");
    expect(t.replaces).toEqual(["policyType"]);
    await s.delete(WW, id, outs);
  });

  it("B08 Diff with only the name unknown: a change (never 'no changes')", async () => {
    const { s, id, outs, checked } = await made(BP, budget("B08"));
    const d = await s.diff(BP, id, outs, budget(UNKNOWN), checked);
    expect(d.changes).toBe("some");
    expect(d.replaces).toEqual([]);
    await s.delete(BP, id, outs);
  });

  it("B09 an unknown that is secret (a secret unknown list element) passes Check and Diff", async () => {
    const { s, id, outs, checked } = await made(BP, budget("B09"));
    const news = budget("B09", { memberUserIds: [secret(UNKNOWN)] });
    expect((await s.check(BP, news, checked)).failures).toEqual([]);
    const d = await s.diff(BP, id, outs, news, checked);
    expect(d.changes).toBe("some");
    expect(d.replaces).toEqual([]);
    await s.delete(BP, id, outs);
  });
});

/**
 * The field a native failure names: its property, or (for a name Python or Go writes apart, issue
 * 42) the reason's lead, "limitUsd (limit_usd in Python, LimitUsd in Go): ...".
 */
const named = (f: { property: string; reason: string }) => f.property || (f.reason.match(/^[\w.[\]]+/)?.[0] ?? "");

describe("wrong types from the engine", () => {
  it("B10 a number as a string: a failure naming limitUsd, never a crash", async () => {
    const s = await nativeService(emu.url);
    const c = await s.check(BP, budget("B10", { limitUsd: "5" }));
    expect(c.failures.map(named)).toEqual(["limitUsd"]);
  });

  it("B11 a null inside a list: a failure naming the entry", async () => {
    const s = await nativeService(emu.url);
    const c = await s.check(BP, budget("B11", { memberUserIds: ["user_alice", null] }));
    expect(c.failures.map((f) => `${f.property}${f.reason}`).join(" ")).toContain("memberUserIds");
  });

  it("B12 an empty object where a list goes, and an empty bag: failures naming fields", async () => {
    const s = await nativeService(emu.url);
    const c = await s.check(BP, budget("B12", { keyHashes: {} }));
    expect(c.failures.map(named)).toEqual(["keyHashes"]);
    // A failure at an arg not given goes with no property, its path leading the reason (resources.ts wireFailure).
    const e = await s.check(BP, {});
    expect(e.failures.map(named).sort()).toEqual(["limitUsd", "name", "workspaceId"]);
    const w = await s.check(WW, {});
    expect(w.failures.length).toBeGreaterThan(0);
  });

  it("B13 a string where a boolean goes: a failure naming workspaceDefault", async () => {
    const s = await nativeService(emu.url);
    const c = await s.check(BP, budget("B13", { workspaceDefault: "true" }));
    expect(c.failures.map(named)).toEqual(["workspaceDefault"]);
  });

  it("B14 10,000 members: Check and Diff answer, each failure or change bounded", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `user_${String(i).padStart(5, "0")}`);
    const s = await nativeService(emu.url);
    const c = await s.check(BP, budget("B14", { memberUserIds: many }));
    expect(c.failures.length).toBeLessThanOrEqual(1);
    const { id, outs, checked } = await made(BP, budget("B14"));
    const d = await s.diff(BP, id, outs, budget("B14", { memberUserIds: many }), checked);
    expect(d.changes).toBe("some");
    expect(d.replaces).toEqual([]);
    await s.delete(BP, id, outs);
  });

  it("B15 a policyType of the wrong type on a WorkspaceWidePolicy: a failure naming policyType", async () => {
    const s = await nativeService(emu.url);
    const c = await s.check(WW, { name: "B15", policyType: 7 });
    expect(c.failures.map(named)).toContain("policyType");
  });

  it("B16 a Diff whose recorded state is of an unexpected shape answers an error, not a crash", async () => {
    const { s, id, outs } = await made(BP, budget("B16"));
    const bad = { ...outs, memberUserIds: "user_alice", args: null };
    const r = await s.diff(BP, id, bad, budget("B16")).catch((e: Error) => e);
    if (r instanceof Error) expect(r.message).not.toMatch(/Cannot read|undefined is not|TypeError/);
    await s.delete(BP, id, outs);
  });
});

describe("import ids of odd forms through the native Read", () => {
  const policy = async (name: string) =>
    (
      (
        await api()("POST", "/guardrails/policies/budget", {
          name,
          workspace_id: DEFAULT_WS,
          config: { limit_usd: 3, reset_interval: "monthly" },
        })
      ).body as { data: { id: string } }
    ).data.id;

  it("B17 upper-case ids import, state in lower case, and diff clean", async () => {
    const pid = await policy("B17");
    const s = await nativeService(emu.url);
    const r = await s.read(BP, `${DEFAULT_WS.toUpperCase()}/${pid.toUpperCase()}`);
    expect(r.id).toBe(pid);
    expect(r.props.workspaceId).toBe(DEFAULT_WS);
    const c = await s.check(BP, r.inputs);
    expect(c.failures).toEqual([]);
    expect((await s.diff(BP, r.id, r.props, c.inputs, r.inputs)).changes).toBe("none");
  });

  it("B18 a slug for the workspace imports as the id", async () => {
    const pid = await policy("B18");
    const ws = ((await api()("GET", `/workspaces/${DEFAULT_WS}`)).body as { data: { slug: string } }).data.slug;
    const s = await nativeService(emu.url);
    const r = await s.read(BP, `${ws}/${pid}`);
    expect(r.id).toBe(pid);
    expect(r.props.workspaceId).toBe(DEFAULT_WS);
  });

  it("B19 a trailing slash, '..', a 2 KB id, a bare id: each a clear error, nothing sent outside the API", async () => {
    const pid = await policy("B19");
    const s = await nativeService(emu.url);
    for (const id of [
      `${DEFAULT_WS}/${pid}/`,
      `${DEFAULT_WS}/..`,
      `../${pid}`,
      `${DEFAULT_WS}/${"a".repeat(2048)}`,
      pid,
    ]) {
      const err = await s.read(BP, id).catch((e: Error) => e);
      expect(err, id).toBeInstanceOf(Error);
      const m = (err as Error).message;
      expect(m.length, id).toBeLessThan(1000);
      expect(m, id).toMatch(/import|policy id|no budget policy|path segment|UUID/);
    }
  });

  it("B20 a WorkspaceWidePolicy imports by its id; a <ws>/<id> form is a clear error", async () => {
    const made = await api()("POST", "/guardrails/policies/account", {
      name: "B20",
      policy_type: "moderation",
      config: {},
      workspace_ids: [W2],
    });
    const pid = (made.body as { data: { id: string } }).data.id;
    const s = await nativeService(emu.url);
    const r = await s.read(WW, pid);
    expect(r.id).toBe(pid);
    const c = await s.check(WW, r.inputs);
    expect(c.failures).toEqual([]);
    expect((await s.diff(WW, r.id, r.props, c.inputs, r.inputs)).changes).toBe("none");
    const up = await s.read(WW, pid.toUpperCase()).catch((e: Error) => e);
    expect(up instanceof Error ? up.message : (up as { id: string }).id).toMatch(new RegExp(`${pid}|import`, "i"));
    const err = await s.read(WW, `${DEFAULT_WS}/${pid}`).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message.length).toBeLessThan(600);
  });
});
