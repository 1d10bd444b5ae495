/**
 * WorkspaceWidePolicy (issue 40; design-40.md "WorkspaceWidePolicy") over the emulator, on both
 * faces: the dynamic face's `internal` member and the native face's lifecycle (the same core,
 * handed its own connection). Create is one POST; a read is the workspace-wide list (no
 * get-by-id), shared by the reads of one refresh; an update a fresh list then one PUT that keeps
 * the config keys this package does not manage; a change made since the last read fails the
 * update and writes nothing; delete one DELETE.
 */
import { describe, expect, it } from "vitest";
import { check } from "../../src/core/policies/workspace-wide-inputs";
import { workspaceWideLifecycle } from "../../src/core/policies/workspace-wide-lifecycle";
import { ProviderConfig } from "../../src/core/settings/config";
import { workspaceWidePolicy } from "../../src/dynamic/internal";
import { fromStruct, toStruct } from "../../src/native/wire";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator, W2 } from "../helpers/emulator";
import { recordingServer } from "../helpers/recording-server";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "2" });
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
const calls = async () =>
  (await emu.log()).entries.map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, "{id}")} ${e.status}`);
const LIST = "GET /api/v1/guardrails/policies/account 200";
/** The service's record of a workspace-wide policy, from its list. */
const live = async (id: string) =>
  ((await api()("GET", "/guardrails/policies/account")).body.data as Array<Record<string, unknown>>).find(
    (p) => p.id === id,
  );

type Props = Record<string, unknown>;

/** State as the native face hands it back to the core: through the wire, secret envelopes unwrapped. */
const wire = (b: Props): Props => fromStruct(toStruct(b)).props;

/** The native face's core lifecycle over a connection of its own, in the dynamic face's method shapes. */
function native() {
  let made: ReturnType<typeof workspaceWideLifecycle> | undefined;
  const lc = () => {
    if (made) return made;
    const conn = new ProviderConfig();
    conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
    made = workspaceWideLifecycle(conn);
    return made;
  };
  return {
    create: async (news: Props) => {
      const r = await lc().create(news);
      return { id: r.id, outs: r.properties };
    },
    diff: async (id: string, olds: Props, news: Props) => {
      const d = await lc().diff(id, wire(olds), news);
      return {
        changes: d.changes.length > 0,
        replaces: d.changes.filter((c) => c.kind === "replace").map((c) => c.path),
        paths: d.changes.map((c) => `${c.kind} ${c.path}`),
      };
    },
    read: async (id: string, props: Props) => {
      const r = await lc().read(id, wire(props));
      return r ? { id: r.id, props: r.properties, inputs: r.inputs } : {};
    },
    update: async (id: string, olds: Props, news: Props) => ({
      outs: (await lc().update(id, wire(olds), news)).properties,
    }),
    delete: (id: string, props: Props) => lc().delete(id, wire(props)),
  };
}

interface Face {
  create(news: Props): Promise<{ id: string; outs?: Props }>;
  diff(id: string, olds: Props, news: Props): Promise<{ changes?: boolean; replaces?: string[] }>;
  read(id: string, props: Props): Promise<{ id?: string; props?: Props; inputs?: Props }>;
  update(id: string, olds: Props, news: Props): Promise<{ outs?: Props }>;
  delete(id: string, props: Props): Promise<void>;
}
const COVERAGE = ["workspaceIds", "optedOutWorkspaceIds"];
/** `bag` with each coverage list of it and of its `args` converted by `f` (a test's own, not id-maps.ts). */
function eachList(bag: Props | undefined, f: (v: unknown) => unknown): Props | undefined {
  if (!bag) return bag;
  const out: Props = { ...bag };
  for (const l of COVERAGE) if (out[l] != null) out[l] = f(out[l]);
  if (out.args && typeof out.args === "object") out.args = eachList(out.args as Props, f);
  return out;
}
const toMap = (v: unknown) => (Array.isArray(v) ? Object.fromEntries(v.map((id) => [id, true])) : v);
const toList = (v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v).sort() : v);

/**
 * The dynamic face's methods as the class and the engine call them (each coverage list a map
 * `{id: true}`, in the inputs and in the state: core/policies/id-maps.ts), with the answers'
 * maps read back as lists, so one test body runs on both faces.
 */
function dynamic(): Face {
  const m = workspaceWidePolicy;
  const ins = (b: Props) => eachList(b, toMap)!;
  const outs = (b: Props | undefined) => eachList(b, toList) as Props;
  return {
    create: async (news) => {
      const r = await m.create(ins(news));
      // The state holds maps, never the lists the engine would diff index by index.
      for (const l of COVERAGE) expect(Array.isArray(r.outs?.[l]), l).toBe(false);
      return { id: r.id, outs: outs(r.outs) };
    },
    diff: (id, olds, news) => m.diff(id, ins(olds), ins(news)),
    read: async (id, props) => {
      const r = await m.read(id, ins(props));
      return r.id === undefined ? {} : { id: r.id, props: outs(r.props), inputs: outs(r.inputs) };
    },
    update: async (id, olds, news) => ({ outs: outs((await m.update(id, ins(olds), ins(news))).outs) }),
    delete: (id, props) => m.delete(id, ins(props)),
  };
}

const FACES: [string, () => Face][] = [
  ["dynamic", dynamic],
  ["native", native],
];

describe.each(FACES)("WorkspaceWidePolicy on the %s face", (face, make) => {
  const budget = {
    name: `Org budget ${face}`,
    policyType: "budget",
    limitUsd: 1000,
    resetInterval: "monthly",
    workspaceIds: [DEFAULT_WS],
  };

  it("create is one POST; a no-op diff calls nothing; an update is the list and one PUT; delete one DELETE", async () => {
    const f = make();
    await emu.clearLog();
    const r = await f.create(budget);
    expect(await calls()).toEqual(["POST /api/v1/guardrails/policies/account 201"]);
    expect(r.outs).toMatchObject({
      policyId: r.id,
      policyType: "budget",
      limitUsd: 1000,
      workspaceIds: [DEFAULT_WS],
      allWorkspaces: false,
      optedOutWorkspaceIds: [],
      workspaceCount: 1,
    });
    expect(await live(r.id)).toMatchObject({ policy_type: "budget", is_default: false, workspace_ids: [DEFAULT_WS] });
    await emu.clearLog();
    expect((await f.diff(r.id, r.outs!, budget)).changes).toBe(false);
    expect(await calls()).toEqual([]);
    // Coverage grows by a workspace and the limit changes, in place.
    const next = { ...budget, limitUsd: 800, workspaceIds: [W2, DEFAULT_WS] };
    const d = await f.diff(r.id, r.outs!, next);
    expect(d.changes).toBe(true);
    expect(d.replaces ?? []).toEqual([]);
    await emu.clearLog();
    const u = await f.update(r.id, r.outs!, next);
    expect(await calls()).toEqual([LIST, "PUT /api/v1/guardrails/policies/account/{id} 200"]);
    expect(u.outs).toMatchObject({ limitUsd: 800, workspaceIds: [DEFAULT_WS, W2].sort(), workspaceCount: 2 });
    expect(await live(r.id)).toMatchObject({ config: { limit_usd: 800 }, workspace_count: 2 });
    expect((await f.diff(r.id, u.outs!, next)).changes).toBe(false);
    // Another kind replaces.
    expect(
      (await f.diff(r.id, u.outs!, { name: budget.name, policyType: "moderation", workspaceIds: [DEFAULT_WS] }))
        .replaces,
    ).toEqual(["policyType"]);
    await emu.clearLog();
    await f.delete(r.id, u.outs!);
    expect(await calls()).toEqual(["DELETE /api/v1/guardrails/policies/account/{id} 200"]);
    expect(await live(r.id)).toBeUndefined();
  });

  it("an out-of-band change fails the update with a clear error and writes nothing; refresh then shows it", async () => {
    const f = make();
    const r = await f.create({ ...budget, name: `Oob ${face}` });
    const put = await api()("PUT", `/guardrails/policies/account/${r.id}`, {
      name: `Oob ${face}`,
      policy_type: "budget",
      config: { limit_usd: 5000, reset_interval: "monthly", include_byok_in_budgets: false },
      workspace_ids: [DEFAULT_WS, W2],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await emu.clearLog();
    const err = await f.update(r.id, r.outs!, { ...budget, name: `Oob ${face} 2` }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      `workspace-wide policy "Oob ${face}": changed on the service since the last refresh: limitUsd; workspaceIds (added "${W2}"). Nothing was written, so that change is not overwritten. Run \`pulumi refresh\` to see it, then \`pulumi up\` (or change the program to keep it).`,
    );
    expect(await calls()).toEqual([LIST]);
    expect(await live(r.id)).toMatchObject({ name: `Oob ${face}`, config: { limit_usd: 5000 } });
    // The update's fresh list serves the refresh that follows it: no second call.
    await emu.clearLog();
    const read = await f.read(r.id, r.outs!);
    expect(await calls()).toEqual([]);
    expect(read.inputs).toMatchObject({ limitUsd: 5000, workspaceIds: [DEFAULT_WS, W2].sort() });
    // The refreshed state no longer conflicts: the program's values are a change again, and apply.
    expect((await f.diff(r.id, read.props!, budget)).changes).toBe(true);
    const u = await f.update(r.id, read.props!, { ...budget, name: `Oob ${face}` });
    expect(u.outs).toMatchObject({ limitUsd: 1000, workspaceIds: [DEFAULT_WS] });
    await f.delete(r.id, u.outs!);
  });

  it("allWorkspaces with an opt-out covers every other workspace; dropping the opt-out is an update", async () => {
    const f = make();
    const news = {
      name: `Everywhere ${face}`,
      policyType: "modelAccess",
      enablePaidModelTraining: false,
      allWorkspaces: true,
      optedOutWorkspaceIds: [W2],
    };
    const r = await f.create(news);
    expect(await live(r.id)).toMatchObject({
      policy_type: "model_availability",
      is_default: true,
      opted_out_workspace_ids: [W2],
      workspace_count: 1,
      config: { enable_paid_model_training: false },
    });
    expect(r.outs).toMatchObject({ allWorkspaces: true, optedOutWorkspaceIds: [W2], enablePaidModelTraining: false });
    const all = { ...news, optedOutWorkspaceIds: [] };
    expect((await f.diff(r.id, r.outs!, all)).changes).toBe(true);
    const u = await f.update(r.id, r.outs!, all);
    expect(u.outs).toMatchObject({ allWorkspaces: true, optedOutWorkspaceIds: [], workspaceCount: 2 });
    expect(await live(r.id)).toMatchObject({ is_default: true, opted_out_workspace_ids: [], workspace_count: 2 });
    await f.delete(r.id, u.outs!);
  });

  it("an update keeps the config keys this package does not manage (pii_filters, armor)", async () => {
    const f = make();
    const news = {
      name: `Mod ${face}`,
      policyType: "moderation",
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
      workspaceIds: [DEFAULT_WS],
    };
    const r = await f.create(news);
    const before = await live(r.id);
    // Someone sets a setting of the service's that this package does not manage, keeping the rest.
    const extras = { pii_filters: [{ entity: "ssn", action: "block" }], armor: { mode: "strict" } };
    const put = await api()("PUT", `/guardrails/policies/account/${r.id}`, {
      name: `Mod ${face}`,
      policy_type: "moderation",
      config: { ...(before!.config as object), ...extras },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const u = await f.update(r.id, r.outs!, { ...news, contentFilterBuiltins: [{ slug: "email", action: "block" }] });
    expect(u.outs).toMatchObject({ contentFilterBuiltins: [{ slug: "email", action: "block" }] });
    expect((await live(r.id))!.config).toMatchObject({
      ...extras,
      content_filter_builtins: [expect.objectContaining({ slug: "email", action: "block" })],
    });
    await f.delete(r.id, u.outs!);
  });

  it("import by the policy's id answers inputs that diff clean; an unknown id is refused", async () => {
    const f = make();
    const r = await f.create({
      ...budget,
      name: `Imp ${face}`,
      includeByokInBudgets: true,
      workspaceIds: [DEFAULT_WS, W2],
      optedOutWorkspaceIds: [W2],
    });
    await emu.clearLog();
    const imp = await f.read(r.id, {});
    expect(await calls()).toEqual([LIST]);
    expect(imp.id).toBe(r.id);
    expect(imp.inputs).toEqual({
      name: `Imp ${face}`,
      policyType: "budget",
      limitUsd: 1000,
      resetInterval: "monthly",
      includeByokInBudgets: true,
      workspaceIds: [DEFAULT_WS, W2].sort(),
      optedOutWorkspaceIds: [W2],
    });
    expect((await f.diff(r.id, imp.props!, imp.inputs!)).changes).toBe(false);
    await expect(f.read("00000000-0000-4000-8000-00000000dead", {})).rejects.toThrow(
      'cannot import workspace-wide policy "00000000-0000-4000-8000-00000000dead": the service lists no workspace-wide policy with that id',
    );
    await f.delete(r.id, imp.props!);
  });

  it("the reads of one refresh share one list; a policy deleted out of band is gone", async () => {
    const f = make();
    const a = await f.create({ ...budget, name: `A ${face}` });
    const b = await f.create({
      ...budget,
      name: `B ${face}`,
      policyType: "moderation",
      limitUsd: undefined,
      resetInterval: undefined,
    });
    await emu.clearLog();
    const [ra, rb] = await Promise.all([f.read(a.id, a.outs!), f.read(b.id, b.outs!)]);
    expect(await calls()).toEqual([LIST]);
    expect(ra.id).toBe(a.id);
    expect(rb.props).toMatchObject({ policyType: "moderation" });
    expect((await api()("DELETE", `/guardrails/policies/account/${b.id}`)).status).toBe(200);
    // A write through the provider forgets the shared list: the next read sees the deletion.
    await f.delete(a.id, a.outs!);
    await emu.clearLog();
    expect(await f.read(b.id, b.outs!)).toEqual({});
    expect(await calls()).toEqual([LIST]);
    // An update of a policy deleted out of band writes nothing.
    const err = await f.update(b.id, b.outs!, { ...budget, name: `B ${face}` }).catch((e: Error) => e);
    expect((err as Error).message).toContain(
      "the service no longer lists it (deleted out of band). Nothing was written.",
    );
  });
});

describe("a secret coverage list", () => {
  it("the diff and the changed-elsewhere error name no workspace id, only counts", async () => {
    const f = native();
    const news = {
      name: "Secret coverage",
      policyType: "moderation",
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
      workspaceIds: [DEFAULT_WS],
      __secretArgs: ["workspaceIds"],
    };
    const r = await f.create(news);
    expect((await f.diff(r.id, r.outs!, { ...news, workspaceIds: [DEFAULT_WS, W2] })).paths).toEqual([
      "update workspaceIds",
    ]);
    const put = await api()("PUT", `/guardrails/policies/account/${r.id}`, {
      name: "Secret coverage",
      policy_type: "moderation",
      config: (await live(r.id))!.config,
      workspace_ids: [DEFAULT_WS, W2],
    });
    expect(put.status).toBe(200);
    const err = await f.update(r.id, r.outs!, { ...news, name: "Secret 2" }).catch((e: Error) => e);
    expect((err as Error).message).toContain("workspaceIds (1 added, 0 removed)");
    expect((err as Error).message).not.toContain(W2);
    await f.delete(r.id, r.outs!);
  });
});

describe("a write's answer without the coverage (only id, name and policy_type are required)", () => {
  it("records the coverage it sent, so the next update's check sees no change", async () => {
    const id = "7d9c3a52-0000-4000-8000-00000000aaaa";
    const config = { limit_usd: 10, reset_interval: "daily", include_byok_in_budgets: false };
    const full = { id, name: "Terse", policy_type: "budget", config, workspace_ids: [DEFAULT_WS], is_default: false };
    const terse = { id, name: "Terse", policy_type: "budget", config };
    const server = await recordingServer((req) =>
      req.method === "GET"
        ? { status: 200, body: { data: [full], total_count: 1 } }
        : { status: 200, body: { data: terse } },
    );
    try {
      const conn = new ProviderConfig();
      conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": server.url })[k]);
      const lc = workspaceWideLifecycle(conn);
      const news = {
        name: "Terse",
        policyType: "budget",
        limitUsd: 10,
        resetInterval: "daily",
        workspaceIds: [DEFAULT_WS],
      };
      const r = await lc.create(news);
      expect(r.properties).toMatchObject({ workspaceIds: [DEFAULT_WS], allWorkspaces: false });
      const u = await lc.update(id, r.properties, { ...news, limitUsd: 20 });
      expect(u.properties).toMatchObject({ workspaceIds: [DEFAULT_WS] });
      expect(server.requests.map((q) => `${q.method} ${q.url.split("?")[0]}`)).toEqual([
        "POST /api/v1/guardrails/policies/account",
        "GET /api/v1/guardrails/policies/account",
        `PUT /api/v1/guardrails/policies/account/${id}`,
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("check", () => {
  it("refuses another kind's setting naming it and the type, a budget without a limit, bad workspace ids", () => {
    const r = check({
      name: "x",
      policyType: "budget",
      allowedProviders: ["acme"],
      contentFilters: [{ pattern: "a+", action: "block" }],
      workspaceIds: ["engineering"],
    });
    expect(r.failures.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      'workspaceIds[0]: workspace ids must be UUIDs (the getWorkspaces data source lists them; a slug is not taken here) (got "engineering")',
      'allowedProviders: is a setting of a "modelAccess" policy; a policyType "budget" policy takes limitUsd, resetInterval, includeByokInBudgets (got ["acme"])',
      'contentFilters: is a setting of a "moderation" policy; a policyType "budget" policy takes limitUsd, resetInterval, includeByokInBudgets (got [{"pattern":"a+","action":"block"}])',
      "limitUsd: is required",
    ]);
    const kinds = check({ name: "x", policyType: "budget", allowedProviders: ["acme"], resetInterval: "daily" });
    expect(kinds.failures.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      'allowedProviders: is a setting of a "modelAccess" policy; a policyType "budget" policy takes limitUsd, resetInterval, includeByokInBudgets (got ["acme"])',
      "limitUsd: is required",
      expect.stringContaining("resetInterval"),
    ]);
    const mod = check({
      name: "m",
      policyType: "moderation",
      limitUsd: 5,
      allWorkspaces: true,
      workspaceIds: [DEFAULT_WS],
    });
    expect(mod.failures.map((f) => `${f.property}: ${f.reason}`)).toEqual([
      'limitUsd: is a setting of a "budget" policy; a policyType "moderation" policy takes contentFilterBuiltins, contentFilters (got 5)',
      `workspaceIds: is not used when allWorkspaces is true (the policy covers every workspace); list exceptions in optedOutWorkspaceIds instead (got ["${DEFAULT_WS}"])`,
    ]);
    expect(check({ name: "m", policyType: "rateLimit" }).failures.map((f) => f.property)).toEqual(["policyType"]);
    expect(
      check({ name: "m", policyType: "modelAccess", allowedProviders: ["acme"], allWorkspaces: true }).failures,
    ).toEqual([]);
  });
});
