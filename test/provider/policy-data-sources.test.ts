/**
 * Issue 40: the Guardrail Policies data sources (`getPolicies`, `getPolicy`,
 * `getSubjectPolicies`) on both faces against the emulator over HTTP: the dynamic face's
 * functions as a program calls them (config from the environment), and the native face's
 * invokes through the bundled plugin over gRPC (needs `npm run build`). Each answer is pinned,
 * and so is the number of calls each lookup makes (the emulator's request log); bad args are
 * refused before any call, and a member id or key hash is never quoted, and stays secret.
 */
import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY_HASHES } from "../../emulator";
import { PolicyClient } from "../../src/core/client/policies";
import { policyConfig } from "../../src/core/fields/policy-kinds";
import { SECRET_SIG, SIG_KEY } from "../../src/core/markers";
import { getPolicies, getPolicy, getSubjectPolicies, getSubjectPoliciesOutput } from "../../src/dynamic/data-sources";
import { DEFAULT_WS, TEST_KEY, type TestEmulator, W2, withEmulator } from "../helpers/emulator";
import { call, configure, invoke, type RunningPlugin, startPlugin } from "../helpers/native-plugin";

let emu: TestEmulator;
let plugin: RunningPlugin;
const id: Record<string, string> = {};
const K0 = DEMO_KEY_HASHES[0]!;
const MISSING = "00000000-0000-4000-8000-0000000000ff";
const savedEnv = { key: process.env.GUARDRAILS_API_KEY, url: process.env.GUARDRAILS_BASE_URL };

beforeAll(async () => {
  emu = await withEmulator();
  const client = emu.client();
  const pc = new PolicyClient(client);
  const budget = (limitUsd: number, resetInterval: string) => policyConfig("budget", { limitUsd, resetInterval });
  const none = { member_ids: [], api_key_hashes: [] };
  id.team = (
    await pc.createPolicy("budget", {
      name: "team budget",
      config: budget(50, "monthly"),
      workspace_id: DEFAULT_WS,
      member_ids: ["user_alice"],
      api_key_hashes: [K0],
    })
  ).id;
  id.def = (
    await pc.createPolicy("budget", {
      name: "default budget",
      config: budget(100, "daily"),
      workspace_id: DEFAULT_WS,
      ...none,
      is_workspace_default: true,
      opted_out_member_ids: ["user_bob"],
    })
  ).id;
  id.pii = (
    await pc.createPolicy("moderation", {
      name: "pii",
      config: policyConfig("moderation", { contentFilterBuiltins: [{ slug: "email", action: "redact" }] }),
      workspace_id: DEFAULT_WS,
      member_ids: ["user_alice"],
      api_key_hashes: [],
    })
  ).id;
  id.w2 = (
    await pc.createPolicy("modelAvailability", {
      name: "w2 access",
      config: policyConfig("modelAvailability", { enforceZdr: true }),
      workspace_id: W2,
      ...none,
    })
  ).id;
  const moderation = policyConfig("moderation", { contentFilterBuiltins: [{ slug: "ssn", action: "block" }] });
  id.wideMod = (
    await pc.createWorkspaceWidePolicy("moderation", {
      name: "org pii",
      config: moderation,
      workspace_ids: [DEFAULT_WS],
    })
  ).id;
  id.wideW2 = (
    await pc.createWorkspaceWidePolicy("budget", { name: "w2 cap", config: budget(7, "daily"), workspace_ids: [W2] })
  ).id;
  id.wideAll = (
    await pc.createWorkspaceWidePolicy("budget", {
      name: "org cap",
      config: budget(1000, "monthly"),
      is_default: true,
      opted_out_workspace_ids: [W2],
    })
  ).id;
  // A guardrail with a budget appears as a mapped budget policy (rule 31).
  id.guardrail = (await client.createGuardrail({ name: "legacy eng", limit_usd: 5, reset_interval: "weekly" })).id;
  await client.close();

  process.env.GUARDRAILS_API_KEY = TEST_KEY;
  process.env.GUARDRAILS_BASE_URL = emu.url;
  plugin = await startPlugin();
  await configure(plugin.client, { apiKey: TEST_KEY, baseUrl: emu.url });
  // The provider proves its key once, before its first call (settings/credentials-check.ts): not a lookup's call.
  await invoke(plugin.client, "getWorkspaces", {});
}, 60_000);
afterAll(async () => {
  plugin?.stop();
  await emu.close();
  for (const [k, v] of [
    ["GUARDRAILS_API_KEY", savedEnv.key],
    ["GUARDRAILS_BASE_URL", savedEnv.url],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

const DYNAMIC = { getPolicies, getPolicy, getSubjectPolicies } as Record<string, (a: unknown) => Promise<unknown>>;
type Lookup = "getPolicies" | "getPolicy" | "getSubjectPolicies";
/** Each face's way in: the dynamic face's function, the native face's invoke over gRPC. */
const FACES: Record<"dynamic" | "native", (name: Lookup, args: Record<string, unknown>) => Promise<any>> = {
  dynamic: (name, args) => DYNAMIC[name]!(args),
  native: (name, args) => invoke(plugin.client, name, args),
};

/** The answer (or failure) of one lookup, and how many requests reached the service for it. */
async function counted(
  run: () => Promise<any>,
): Promise<{ answer?: any; error?: Error | undefined; calls: number; ops: string[] }> {
  await emu.clearLog();
  let answer: any;
  let error: Error | undefined;
  try {
    answer = await run();
  } catch (err) {
    error = err as Error;
  }
  const log = await emu.log();
  return { answer, error, calls: log.total, ops: log.entries.map((e) => e.operation ?? e.path).sort() };
}

describe.each(Object.keys(FACES) as (keyof typeof FACES)[])("the %s face", (face) => {
  const run = FACES[face];

  it("getPolicies reads the three lists (3 calls), or one kind's (1 call, +1 for a slug)", async () => {
    const all = await counted(() => run("getPolicies", { workspaceId: DEFAULT_WS }));
    expect(all.ops).toEqual(["listBudgetPolicies", "listModelAvailabilityPolicies", "listModerationPolicies"]);
    expect(all.calls).toBe(3);
    const rows = all.answer.policies as any[];
    expect(rows.map((p) => [p.policyType, p.name])).toEqual([
      ["budget", "default budget"],
      ["budget", "legacy eng"],
      ["budget", "team budget"],
      ["moderation", "pii"],
    ]);
    expect(all.answer.ids).toEqual(rows.map((p) => p.id));
    expect(all.answer.workspaceId).toBe(DEFAULT_WS);
    expect(rows[2]).toMatchObject({
      id: id.team,
      limitUsd: 50,
      resetInterval: "monthly",
      memberCount: 1,
      keyCount: 1,
      workspaceDefault: false,
    });
    expect(rows[0]).toMatchObject({ id: id.def, workspaceDefault: true, memberCount: 0 });
    expect(rows[1]).toMatchObject({ legacyMapped: true, legacyGuardrailIds: [id.guardrail], limitUsd: 5 });
    expect(rows[3].contentFilterBuiltins).toMatchObject([{ slug: "email", action: "redact" }]);
    expect(rows[3]).not.toHaveProperty("limit_usd");

    const one = await counted(() => run("getPolicies", { workspaceId: "default", policyType: "modelAccess" }));
    expect(one.ops).toEqual(["getWorkspace", "listModelAvailabilityPolicies"]);
    expect(one.calls).toBe(2);
    expect(one.answer).toEqual({ workspaceId: DEFAULT_WS, policies: [], ids: [] });
    const w2 = await counted(() => run("getPolicies", { workspaceId: W2, policyType: "modelAccess" }));
    expect(w2.calls).toBe(1);
    expect(w2.answer.policies).toMatchObject([{ id: id.w2, policyType: "modelAccess", enforceZdr: true }]);
  });

  it("getPolicy answers one policy with its assignments, opt-outs and legacy fields: 1 call", async () => {
    const team = await counted(() => run("getPolicy", { policyType: "budget", id: id.team, workspaceId: DEFAULT_WS }));
    expect(team.calls).toBe(1);
    expect(team.answer).toMatchObject({
      id: id.team,
      policyType: "budget",
      workspaceId: DEFAULT_WS,
      name: "team budget",
      limitUsd: 50,
      memberUserIds: ["user_alice"],
      keyHashes: [K0],
      workspaceDefault: false,
      optedOutKeyHashes: [],
    });
    const def = await counted(() => run("getPolicy", { policyType: "budget", id: id.def, workspaceId: DEFAULT_WS }));
    expect(def.answer).toMatchObject({
      workspaceDefault: true,
      optedOutMemberUserIds: ["user_bob"],
      memberUserIds: [],
    });
    const gone = await counted(() =>
      run("getPolicy", { policyType: "moderation", id: MISSING, workspaceId: DEFAULT_WS }),
    );
    expect(gone.calls).toBe(1);
    expect(gone.error?.message).toContain(
      `getPolicy: workspace ${DEFAULT_WS} has no moderation policy with id ${MISSING} (the service answered 404)`,
    );
  });

  it("getSubjectPolicies: per kind what is assigned, inherited or opted out, and the workspace-wide ones: 4 calls", async () => {
    const alice = await counted(() => run("getSubjectPolicies", { memberId: "user_alice", workspaceId: DEFAULT_WS }));
    expect(alice.calls).toBe(4);
    expect(alice.ops).toEqual(
      [
        "getMemberPolicyAssignment",
        "getMemberPolicyAssignment",
        "getMemberPolicyAssignment",
        "listAccountPolicies",
      ].sort(),
    );
    const empty = { policyIds: [], workspaceDefaultPolicyIds: [], optedOut: false };
    expect(alice.answer).toMatchObject({
      workspaceId: DEFAULT_WS,
      memberId: "user_alice",
      budget: { policyIds: [id.team], workspaceDefaultPolicyIds: [], optedOut: false },
      modelAccess: empty,
      moderation: { ...empty, policyIds: [id.pii] },
    });
    // Covering the default workspace: by name (org pii) and as a default for all but W2 (org cap); not w2 cap.
    expect(alice.answer.workspaceWidePolicies.map((p: any) => [p.policyType, p.name])).toEqual([
      ["budget", "org cap"],
      ["moderation", "org pii"],
    ]);
    expect(alice.answer.workspaceWidePolicies[0]).toMatchObject({
      id: id.wideAll,
      allWorkspaces: true,
      limitUsd: 1000,
    });

    const bob = await counted(() => run("getSubjectPolicies", { memberId: "user_bob", workspaceId: DEFAULT_WS }));
    expect(bob.answer.budget).toEqual({ policyIds: [], workspaceDefaultPolicyIds: [], optedOut: true });
    const carol = await counted(() =>
      run("getSubjectPolicies", { memberId: "user_carol", workspaceId: "default", workspaceWide: false }),
    );
    expect(carol.calls).toBe(4); // the slug, and one GET per kind; no workspace-wide list
    expect(carol.ops).not.toContain("listAccountPolicies");
    expect(carol.answer.budget).toEqual({ policyIds: [], workspaceDefaultPolicyIds: [id.def], optedOut: false });
    expect(carol.answer).not.toHaveProperty("workspaceWidePolicies");

    const key = await counted(() => run("getSubjectPolicies", { keyHash: K0, workspaceId: W2 }));
    expect(key.calls).toBe(4);
    expect(key.ops.filter((o) => o === "getApiKeyPolicyAssignment")).toHaveLength(3);
    expect(key.answer).toMatchObject({ keyHash: K0, workspaceId: W2, budget: empty });
    expect(key.answer).not.toHaveProperty("memberId");
    expect(key.answer.workspaceWidePolicies.map((p: any) => p.id)).toEqual([id.wideW2]);
  });

  it("an unknown member is said without quoting the id", async () => {
    const r = await counted(() => run("getSubjectPolicies", { memberId: "user_nobody_x", workspaceId: DEFAULT_WS }));
    expect(r.error?.message).toContain(
      `getSubjectPolicies: the service knows no such memberId in workspace ${DEFAULT_WS}`,
    );
    expect(r.error?.message).not.toContain("user_nobody_x");
    // Nor in what the error carries: the service's 404 message quotes the id, so it is no cause.
    expect(inspect(r.error)).not.toContain("user_nobody_x");
  });

  it("bad args are refused before any call, naming the property, never quoting a member id or key hash", async () => {
    const cases: Array<[Lookup, Record<string, unknown>, RegExp]> = [
      [
        "getSubjectPolicies",
        { workspaceId: DEFAULT_WS },
        /memberId(; \S+ in Python, \S+ in Go)?: give memberId \(a member's user id\) or keyHash/,
      ],
      [
        "getSubjectPolicies",
        { workspaceId: DEFAULT_WS, memberId: "user_alice", keyHash: K0 },
        /keyHash(; \S+ in Python, \S+ in Go)?: give memberId or keyHash, not both/,
      ],
      [
        "getSubjectPolicies",
        { workspaceId: "not a slug!", memberId: "user_alice" },
        /workspaceId(; \S+ in Python, \S+ in Go)?: must be a workspace id \(UUID\) or slug/,
      ],
      [
        "getSubjectPolicies",
        { workspaceId: DEFAULT_WS, keyHash: ` ${K0} `.repeat(200) },
        /keyHash(; \S+ in Python, \S+ in Go)?: must be at most 500 characters/,
      ],
      // A value of the wrong type is quoted back for other args ("got ..."), never for these.
      [
        "getSubjectPolicies",
        { workspaceId: DEFAULT_WS, memberId: ["user_alice"] },
        /^(getSubjectPolicies: )?memberId(; \S+ in Python, \S+ in Go)?: must be a string$/,
      ],
      ["getPolicies", {}, /workspaceId(; \S+ in Python, \S+ in Go)?: must be a workspace id \(UUID\) or slug/],
      [
        "getPolicies",
        { workspaceId: DEFAULT_WS, policyType: "modelAvailability" },
        /policyType(; \S+ in Python, \S+ in Go)?: must be one of "budget", "modelAccess", "moderation"/,
      ],
      ["getPolicy", { policyType: "budget", id: "pol_1", workspaceId: DEFAULT_WS }, /id: must be a policy id \(UUID\)/],
    ];
    for (const [name, args, message] of cases) {
      const r = await counted(() => run(name, args));
      expect(r.error?.message, `${name} ${JSON.stringify(args)}`).toMatch(message);
      expect(r.error?.message).not.toContain("user_alice");
      expect(r.error?.message).not.toContain(K0);
      expect(r.calls).toBe(0);
    }
  });
});

describe("a secret member id or key hash stays secret", () => {
  it("native face: the invoke answers the secret arg as a secret", async () => {
    const secret = { [SIG_KEY]: SECRET_SIG, value: "user_alice" };
    const req = new provproto.InvokeRequest()
      .setTok("guardrails:index:getSubjectPolicies")
      .setArgs(Struct.fromJavaScript({ memberId: secret, workspaceId: DEFAULT_WS } as never));
    const resp = await call<provproto.InvokeRequest, provproto.InvokeResponse>(plugin.client, "invoke", req);
    const answer = resp.getReturn()!.toJavaScript() as Record<string, unknown>;
    expect(answer.memberId).toEqual(secret);
    expect((answer.budget as { policyIds: string[] }).policyIds).toEqual([id.team]);
  });

  it("dynamic face: getSubjectPoliciesOutput answers a secret output for a secret input", async () => {
    const out = getSubjectPoliciesOutput({ keyHash: pulumi.secret(K0), workspaceId: DEFAULT_WS });
    expect(await (out as any).isSecret).toBe(true);
    const value = await new Promise((resolve) => out.apply(resolve));
    expect(value).toMatchObject({ keyHash: K0, budget: { policyIds: [id.team] } });
  });
});

describe("native face: an invoke's failure names the arg in every language (issue 42)", () => {
  it("the property every SDK prints after the reason carries the Python and Go names of a multi-word arg", async () => {
    const req = new provproto.InvokeRequest()
      .setTok("guardrails:index:getPolicies")
      .setArgs(Struct.fromJavaScript({ workspaceId: "not a slug!" } as never));
    const resp = await call<provproto.InvokeRequest, provproto.InvokeResponse>(plugin.client, "invoke", req);
    const [failure] = resp.getFailuresList();
    expect(failure?.getProperty()).toBe("workspaceId; workspace_id in Python, WorkspaceId in Go");
    expect(failure?.getReason()).toMatch(/^must be a workspace id \(UUID\) or slug/);
    // A one-word arg reads alike in every language: bare.
    const one = new provproto.InvokeRequest()
      .setTok("guardrails:index:getPolicy")
      .setArgs(Struct.fromJavaScript({ policyType: "budget", id: "pol_1", workspaceId: DEFAULT_WS } as never));
    const r1 = await call<provproto.InvokeRequest, provproto.InvokeResponse>(plugin.client, "invoke", one);
    expect(r1.getFailuresList().map((f) => f.getProperty())).toEqual(["id"]);
  });
});
