/**
 * The workspace policies (issue 40; design-40.md "Writes") over the emulator, on both faces: the
 * dynamic face's `internal` methods and the native face's lifecycle (the same core, handed its
 * own connection). Create is one POST, refresh one GET, update a GET then one PUT, delete one
 * DELETE; a change made since the last read fails the update and writes nothing.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../src/core/policies/inputs";
import { policyLifecycle } from "../../src/core/policies/lifecycle";
import { isSecretEnvelope } from "../../src/core/markers";
import { ProviderConfig } from "../../src/core/settings/config";
import { budgetPolicy, moderationPolicy, modelAccessPolicy } from "../../src/dynamic/internal";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "2" });
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
const calls = async () =>
  (await emu.log()).entries.map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, "{id}")} ${e.status}`);

/** The native face's core lifecycle of a kind, over its own connection to the emulator. */
function native(type: "BudgetPolicy" | "ModelAccessPolicy" | "ModerationPolicy") {
  let made: ReturnType<typeof policyLifecycle> | undefined;
  // Made at the first call, when the emulator's address is known.
  const lc = () => {
    if (made) return made;
    const conn = new ProviderConfig();
    conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
    made = policyLifecycle(type, conn);
    return made;
  };
  const l = {
    create: (n: Record<string, unknown>) => lc().create(n),
    diff: (i: string, o: Record<string, unknown>, n: Record<string, unknown>) => lc().diff(i, o, n),
    read: (i: string, p: Record<string, unknown>) => lc().read(i, p),
    update: (i: string, o: Record<string, unknown>, n: Record<string, unknown>) => lc().update(i, o, n),
    delete: (i: string, p: Record<string, unknown>) => lc().delete(i, p),
  };
  // The dynamic face's method shapes, so one test body runs on both faces.
  return {
    create: async (news: Record<string, unknown>) => {
      const r = await l.create(news);
      return { id: r.id, outs: r.properties };
    },
    diff: async (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => {
      const d = await l.diff(id, olds, news);
      return { changes: d.changes.length > 0, paths: d.changes.map((c) => `${c.kind} ${c.path}`) };
    },
    read: async (id: string, props: Record<string, unknown>) => {
      const r = await l.read(id, props);
      return r ? { id: r.id, props: r.properties, inputs: r.inputs } : {};
    },
    update: async (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => ({
      outs: (await l.update(id, olds, news)).properties,
    }),
    delete: (id: string, props: Record<string, unknown>) => l.delete(id, props),
  };
}

const LISTS = ["memberUserIds", "keyHashes", "optedOutMemberUserIds", "optedOutKeyHashes"];
/** `bag` with each id list of it and of its `args` converted by `f` (a test's own, not id-maps.ts). */
function eachList(bag: Record<string, unknown> | undefined, f: (v: unknown) => unknown) {
  if (!bag) return bag;
  const out: Record<string, unknown> = { ...bag };
  for (const l of LISTS) if (out[l] != null) out[l] = f(out[l]);
  if (out.args && typeof out.args === "object") out.args = eachList(out.args as Record<string, unknown>, f);
  return out;
}
const toMap = (v: unknown) => (Array.isArray(v) ? Object.fromEntries(v.map((id) => [id, true])) : v);
const toList = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v).sort() : v);

/**
 * The dynamic face's methods as the class and the engine call them (each id list a map
 * `{id: true}`, in the inputs and in the state), with the answers' maps read back as lists, so
 * one test body runs on both faces.
 */
function dynamic(m: typeof budgetPolicy) {
  const ins = (b: Record<string, unknown>) => eachList(b, toMap)!;
  const outs = (b: Record<string, unknown> | undefined) => eachList(b, toList)!;
  return {
    create: async (news: Record<string, unknown>) => {
      const r = await m.create(ins(news));
      return { id: r.id, outs: outs(r.outs) };
    },
    diff: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) =>
      m.diff(id, ins(olds), ins(news)),
    read: async (id: string, props: Record<string, unknown>) => {
      const r = await m.read(id, ins(props));
      return { id: r.id, props: outs(r.props), inputs: outs(r.inputs) };
    },
    update: async (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => ({
      outs: outs((await m.update(id, ins(olds), ins(news))).outs),
    }),
    delete: (id: string, props: Record<string, unknown>) => m.delete(id, ins(props)),
  };
}

/** A value as the engine hands it back to a provider: every secret envelope opened. */
function plain<T>(v: T): T {
  if (isSecretEnvelope(v)) return plain((v as { value: T }).value);
  if (Array.isArray(v)) return v.map(plain) as T;
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)])) as T;
  return v;
}

const FACES = [
  ["dynamic", dynamic(budgetPolicy)],
  ["native", native("BudgetPolicy")],
] as const;

describe.each(FACES)("BudgetPolicy on the %s face", (face, bp) => {
  const news = {
    workspaceId: DEFAULT_WS,
    name: `Budget ${face}`,
    limitUsd: 50,
    resetInterval: "monthly",
    memberUserIds: ["user_alice"],
    keyHashes: [],
  };

  it("create is one POST; a no-op diff calls nothing; an update is a GET and one PUT", async () => {
    await emu.clearLog();
    const r = await bp.create(news);
    expect(await calls()).toEqual(["POST /api/v1/guardrails/policies/budget 201"]);
    expect(r.outs).toMatchObject({
      policyId: r.id,
      workspaceId: DEFAULT_WS,
      limitUsd: 50,
      memberUserIds: ["user_alice"],
    });
    await emu.clearLog();
    expect((await bp.diff(r.id, r.outs, news)).changes).toBe(false);
    expect(await calls()).toEqual([]);
    const next = { ...news, limitUsd: 75, memberUserIds: ["user_bob", "user_alice"] };
    expect((await bp.diff(r.id, r.outs, next)).changes).toBe(true);
    await emu.clearLog();
    const u = await bp.update(r.id, r.outs, next);
    expect(await calls()).toEqual([
      `GET /api/v1/guardrails/policies/budget/{id} 200`,
      `PUT /api/v1/guardrails/policies/budget/{id} 200`,
    ]);
    expect(u.outs).toMatchObject({ limitUsd: 75, memberUserIds: ["user_alice", "user_bob"] });
    const live = (await api()("GET", `/guardrails/policies/budget/${r.id}?workspace_id=${DEFAULT_WS}`)).body.data;
    expect(live).toMatchObject({ config: { limit_usd: 75 } });
    expect([...live.member_ids].sort()).toEqual(["user_alice", "user_bob"]);
    await emu.clearLog();
    await bp.delete(r.id, u.outs);
    expect(await calls()).toEqual([`DELETE /api/v1/guardrails/policies/budget/{id} 200`]);
  });

  it("an out-of-band change fails the update with a clear error and writes nothing; refresh shows it", async () => {
    const r = await bp.create({ ...news, name: `Oob ${face}` });
    const put = await api()("PUT", `/guardrails/policies/budget/${r.id}`, {
      name: `Oob ${face}`,
      workspace_id: DEFAULT_WS,
      config: { limit_usd: 5, reset_interval: "monthly", include_byok_in_budgets: false },
      member_ids: ["user_alice", "user_carol"],
      api_key_hashes: [],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await emu.clearLog();
    const err = await bp.update(r.id, r.outs, { ...news, name: `Oob ${face}`, limitUsd: 60 }).catch((e: Error) => e);
    expect((err as Error).message).toContain("changed on the service since the last refresh");
    expect((err as Error).message).toContain('memberUserIds (added "user_carol")');
    expect((err as Error).message).toContain("limitUsd");
    expect(await calls()).toEqual([`GET /api/v1/guardrails/policies/budget/{id} 200`]);
    await emu.clearLog();
    const read = await bp.read(r.id, r.outs);
    expect(await calls()).toEqual([`GET /api/v1/guardrails/policies/budget/{id} 200`]);
    expect(read.inputs).toMatchObject({ limitUsd: 5, memberUserIds: ["user_alice", "user_carol"] });
    // The refreshed state no longer conflicts: the program's values are a change again, and apply.
    const again = { ...news, name: `Oob ${face}` };
    expect((await bp.diff(r.id, read.props!, again)).changes).toBe(true);
    const u = await bp.update(r.id, read.props!, again);
    expect(u.outs).toMatchObject({ limitUsd: 50, memberUserIds: ["user_alice"] });
  });

  it("an update carries back the config keys this package does not manage, as the service holds them", async () => {
    const r = await bp.create({ ...news, name: `Keep ${face}` });
    // The dashboard adds settings of its own (no managed setting and no list changes, so no conflict).
    const own = { pii_filters: [{ type: "email", action: "redact" }], armor: { level: "strict" }, limit_tokens: 9 };
    const put = await api()("PUT", `/guardrails/policies/budget/${r.id}`, {
      name: `Keep ${face}`,
      workspace_id: DEFAULT_WS,
      config: { limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: false, ...own },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await bp.update(r.id, r.outs, { ...news, name: `Keep ${face}`, limitUsd: 70 });
    const live = (await api()("GET", `/guardrails/policies/budget/${r.id}?workspace_id=${DEFAULT_WS}`)).body.data;
    expect(live.config).toEqual({ limit_usd: 70, reset_interval: "monthly", include_byok_in_budgets: false, ...own });
    await bp.delete(r.id, r.outs);
  });

  it("an update of a policy deleted out of band says so, as refresh would, and writes nothing", async () => {
    const r = await bp.create({ ...news, name: `Gone ${face}` });
    const del = await api()("DELETE", `/guardrails/policies/budget/${r.id}?workspace_id=${DEFAULT_WS}`);
    expect(del.status).toBe(200);
    await emu.clearLog();
    const err = await bp.update(r.id, r.outs, { ...news, name: `Gone ${face}`, limitUsd: 60 }).catch((e: Error) => e);
    expect((err as Error).message).toBe(
      `budget policy "Gone ${face}": deleted on the service since the last refresh; nothing was written. Run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` to create it again`,
    );
    // The GET's 404, then the list that confirms it (a working service that does not list it); no write.
    expect(await calls()).toEqual([
      `GET /api/v1/guardrails/policies/budget/{id} 404`,
      `GET /api/v1/guardrails/policies/budget 200`,
    ]);
  });

  it("import by <workspaceId>/<policyId> answers inputs that diff clean; a bare id is refused", async () => {
    const r = await bp.create({
      ...news,
      name: `Imp ${face}`,
      workspaceDefault: true,
      optedOutMemberUserIds: ["user_dave"],
    });
    await emu.clearLog();
    const imp = await bp.read(`${DEFAULT_WS}/${r.id}`, {});
    expect(await calls()).toEqual([`GET /api/v1/guardrails/policies/budget/{id} 200`]);
    expect(imp.id).toBe(r.id);
    expect(imp.inputs).toMatchObject({ workspaceDefault: true, optedOutMemberUserIds: ["user_dave"], limitUsd: 50 });
    expect((await bp.diff(r.id, imp.props!, imp.inputs!)).changes).toBe(false);
    await expect(bp.read(r.id, {})).rejects.toThrow("<workspaceId>/<policyId>");
    await bp.delete(r.id, imp.props!);
  });
});

describe("the native face's diff names each member, opt-out and the default flag", () => {
  it("keyed paths for lists joining and leaving; workspaceId replaces", async () => {
    const mp = native("ModerationPolicy");
    const news = {
      workspaceId: DEFAULT_WS,
      name: "Mod keyed",
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
      memberUserIds: ["user_alice", "user_bob"],
      optedOutKeyHashes: [],
    };
    const r = await mp.create(news);
    const d = await mp.diff(r.id, r.outs, {
      ...news,
      memberUserIds: ["user_bob", "user_erin"],
      optedOutKeyHashes: ["a1b2c3d4e5f60718"],
      workspaceDefault: true,
    });
    expect(d.paths).toEqual([
      'add memberUserIds["user_erin"]',
      'delete memberUserIds["user_alice"]',
      'add optedOutKeyHashes["a1b2c3d4e5f60718"]',
      "update workspaceDefault",
    ]);
    expect(
      (await mp.diff(r.id, r.outs, { ...news, workspaceId: "00000000-0000-4000-8000-000000000002" })).paths,
    ).toEqual(["replace workspaceId"]);
    await mp.delete(r.id, r.outs);
  });

  it("an update sends the lists only when they change (a name change keeps the stored assignments)", async () => {
    const ma = native("ModelAccessPolicy");
    const news = {
      workspaceId: DEFAULT_WS,
      name: "Models",
      allowedProviders: ["acme"],
      keyHashes: ["a1b2c3d4e5f60718"],
    };
    const r = await ma.create(news);
    await emu.clearLog();
    await ma.update(r.id, r.outs, { ...news, name: "Models 2" });
    const log = (await emu.log()).entries;
    const put = log.find((e) => e.method === "PUT");
    expect(put).toBeDefined();
    const live = (await api()("GET", `/guardrails/policies/model-availability/${r.id}?workspace_id=${DEFAULT_WS}`)).body
      .data;
    expect(live).toMatchObject({ name: "Models 2", api_key_hashes: ["a1b2c3d4e5f60718"] });
    await ma.delete(r.id, r.outs);
  });
});

describe("check", () => {
  it("refuses a setting of another kind, a missing limit and a bad workspace, naming each", async () => {
    const r = check("BudgetPolicy", { workspaceId: "not a slug!", name: "x", allowedProviders: ["a"] });
    expect(r.failures.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      'workspaceId: must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters) (got "not a slug!")',
      "limitUsd: is required",
      "allowedProviders: belongs to a ModelAccessPolicy, not a BudgetPolicy",
    ]);
    const m = await moderationPolicy.check({}, { workspaceId: DEFAULT_WS, name: "m", limitUsd: 5 });
    expect(m.failures?.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      "limitUsd: belongs to a BudgetPolicy, not a ModerationPolicy",
    ]);
    // A name of no policy kind is still unknown, with its guess (`description` is a Guardrail's only).
    const n = check("ModerationPolicy", { workspaceId: "default", name: "m", worksapceId: "x", description: "y" });
    expect(n.failures.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      'worksapceId: unknown property; did you mean "workspaceId"?',
      "description: unknown property",
    ]);
    const ok = await modelAccessPolicy.check({}, { workspaceId: "default", name: "m", memberUserIds: [] });
    expect(ok.failures).toEqual([]);
  });
});

describe("the dynamic face holds each id list as a map {id: true}, so its preview names each id", () => {
  const m = (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));
  const news = {
    workspaceId: DEFAULT_WS,
    name: "Mapped",
    limitUsd: 5,
    resetInterval: "monthly",
    memberUserIds: m("user_alice"),
    keyHashes: m(),
    optedOutMemberUserIds: m("user_dave"),
  };

  it("in the state, its copy of the args and a refresh's inputs; a diff of maps is a change only when an id moves", async () => {
    expect((await budgetPolicy.check({}, news)).failures).toEqual([]);
    const r = await budgetPolicy.create(news);
    expect(r.outs).toMatchObject({
      memberUserIds: m("user_alice"),
      keyHashes: {},
      optedOutMemberUserIds: m("user_dave"),
    });
    expect(r.outs.args).toMatchObject({ memberUserIds: m("user_alice"), optedOutMemberUserIds: m("user_dave") });
    // Lists it does not manage are held as maps too (what the service holds).
    expect(r.outs.optedOutKeyHashes).toEqual({});
    const read = await budgetPolicy.read(r.id, r.outs);
    expect(read.props).toMatchObject({ memberUserIds: m("user_alice") });
    expect(read.inputs).toMatchObject({ memberUserIds: m("user_alice"), optedOutMemberUserIds: m("user_dave") });
    expect((await budgetPolicy.diff(r.id, read.props!, news)).changes).toBe(false);
    const next = { ...news, memberUserIds: m("user_alice", "user_bob") };
    expect((await budgetPolicy.diff(r.id, read.props!, next)).changes).toBe(true);
    const u = await budgetPolicy.update(r.id, read.props!, next);
    expect(u.outs).toMatchObject({ memberUserIds: m("user_alice", "user_bob") });
    await budgetPolicy.delete(r.id, u.outs);
  });

  it("check names a bad entry by its id, not by an index the program never saw", async () => {
    const c = await budgetPolicy.check({}, { ...news, memberUserIds: m("user_alice", " ") });
    expect(c.failures?.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      // The engine looks a property up among the top-level inputs, so the path leads the reason (check-failures.ts).
      ': memberUserIds[" "]: ids must be non-empty strings (got " ")',
    ]);
  });
});

describe.each([
  ["dynamic", budgetPolicy, (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]))],
  ["native", native("BudgetPolicy"), (...ids: string[]) => ids],
] as const)("a secret id list on the %s face", (face, bp, ids) => {
  const unsealed = (v: unknown) => {
    expect(isSecretEnvelope(v), JSON.stringify(v)).toBe(true);
    return (v as { value: unknown }).value;
  };
  const news = {
    workspaceId: DEFAULT_WS,
    name: `Secret ${face}`,
    limitUsd: 5,
    resetInterval: "monthly",
    memberUserIds: ids("user_alice"),
    optedOutKeyHashes: ids("a1b2c3d4e5f60718"),
    __secretArgs: ["memberUserIds", "optedOutKeyHashes"],
  };

  it("stays secret in the state, its args and a refresh; messages give counts, never ids", async () => {
    const r = await bp.create(news);
    const outs = r.outs as Record<string, unknown>;
    expect(unsealed(outs.memberUserIds)).toEqual(ids("user_alice"));
    expect(unsealed(outs.optedOutKeyHashes)).toEqual(ids("a1b2c3d4e5f60718"));
    const args = outs.args as Record<string, unknown>;
    expect(unsealed(args.memberUserIds)).toEqual(ids("user_alice"));
    expect(unsealed(args.optedOutKeyHashes)).toEqual(ids("a1b2c3d4e5f60718"));
    const read = await bp.read(r.id, plain(outs));
    const props = read.props as Record<string, unknown>;
    expect(unsealed(props.memberUserIds)).toEqual(ids("user_alice"));
    expect(unsealed((read.inputs as Record<string, unknown>).memberUserIds)).toEqual(ids("user_alice"));
    // The engine hands the state back without the marks (the dynamic host takes no secrets).
    const olds = plain(props);
    const next = { ...news, memberUserIds: ids("user_alice", "user_bob") };
    const d = await bp.diff(r.id, olds, next);
    expect(d.changes).toBe(true);
    if ("paths" in d) expect(d.paths).toEqual(["update memberUserIds"]);
    // Someone adds a member and removes the opted-out key out of band: the update names counts only.
    const put = await api()("PUT", `/guardrails/policies/budget/${r.id}`, {
      name: news.name,
      workspace_id: DEFAULT_WS,
      config: { limit_usd: 5, reset_interval: "monthly", include_byok_in_budgets: false },
      member_ids: ["user_alice", "user_carol"],
      api_key_hashes: [],
      opted_out_member_ids: [],
      opted_out_api_key_hashes: [],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const err = (await bp.update(r.id, olds, next).catch((e: Error) => e)) as Error;
    expect(err.message).toContain("memberUserIds (1 added, 0 removed)");
    expect(err.message).toContain("optedOutKeyHashes (0 added, 1 removed)");
    expect(err.message).not.toMatch(/user_carol|user_alice|a1b2c3d4e5f60718/);
    const again = await bp.read(r.id, olds);
    const u = await bp.update(r.id, plain(again.props as Record<string, unknown>), next);
    const after = u.outs as Record<string, unknown>;
    expect(unsealed(after.memberUserIds)).toEqual(ids("user_alice", "user_bob"));
    await bp.delete(r.id, plain(after));
  });
});
