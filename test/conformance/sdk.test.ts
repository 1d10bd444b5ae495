/**
 * The service's own TypeScript SDK (`@openrouter/sdk`, generated from the service's OpenAPI
 * document) against the emulator: every one of its 13 guardrail operations, each answer put
 * through the SDK's own response validation. Nobody here wrote the SDK, so it judges the emulator
 * without sharing our reading of the contract (docs/api-contract.md, "What the SDK showed").
 *
 * The spec's neutral vendor names are the SDK's first three named vendors (its docs list them
 * "anthropic, openai, google, xai"): a fetcher between the two renames them both ways.
 */
import { HTTPClient, OpenRouter } from "@openrouter/sdk";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { http } from "../helpers/spawn-emulator";
import { FILTERS } from "../helpers/wire-fields";

const KEY = "sdk-conformance-management-key";
const W1 = "11111111-1111-4111-8111-111111111111";
const W2 = "22222222-2222-4222-8222-222222222222";
const MEMBERS = ["user_a", "user_b", "user_c"];
const HASHES = ["hash_1", "hash_2", "hash_3"];

/** Spec name -> SDK name. `enforce_zdr_other` and `enforce_zdr` are the same on both sides. */
const VENDOR_NAMES = {
  enforce_zdr_vendor_a: "enforce_zdr_anthropic",
  enforce_zdr_vendor_b: "enforce_zdr_openai",
  enforce_zdr_vendor_c: "enforce_zdr_google",
} as const;

function renameKeys(value: unknown, names: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, names));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [names[k] ?? k, renameKeys(v, names)]));
}
const toSpec = Object.fromEntries(Object.entries(VENDOR_NAMES).map(([spec, sdk]) => [sdk, spec]));
const toSdk: Record<string, string> = { ...VENDOR_NAMES };

/** Renames JSON bodies: SDK names out to the emulator, spec names back to the SDK. */
async function mappingFetcher(input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  const req = input instanceof Request ? input : new Request(input, init);
  const sent = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
  const out = await fetch(req.url, {
    method: req.method,
    headers: req.headers,
    ...(sent ? { body: JSON.stringify(renameKeys(JSON.parse(sent), toSpec)) } : {}),
  });
  const text = await out.text();
  const body =
    text && /json/.test(out.headers.get("content-type") ?? "")
      ? JSON.stringify(renameKeys(JSON.parse(text), toSdk))
      : text;
  return new Response(body, { status: out.status, statusText: out.statusText, headers: out.headers });
}

let emu: RunningEmulator;
let sdk: OpenRouter;
let admin: ReturnType<typeof http>;

beforeAll(async () => {
  emu = await startEmulator({
    managementKeys: [KEY],
    defaultWorkspaceId: W1,
    workspaces: [W2],
    members: MEMBERS,
    keyHashes: HASHES,
  });
  admin = http(emu.url);
  sdk = new OpenRouter({
    apiKey: KEY,
    serverURL: `${emu.url}/api/v1`,
    httpClient: new HTTPClient({ fetcher: mappingFetcher }),
    retryConfig: { strategy: "none" },
  });
});
afterAll(() => emu.close());
beforeEach(async () => {
  await admin("POST", "/__emulator/reset");
});

interface LoggedRequest {
  method: string;
  operation: string | null;
  status: number;
  body?: unknown;
}
const logged = async (): Promise<LoggedRequest[]> => (await admin("GET", "/__emulator/log")).body.entries;

/** The SDK's name for a failure: ResponseValidationError is the one this suite exists to rule out. */
async function failure(call: Promise<unknown>): Promise<{ name: string; statusCode?: number; message: string }> {
  try {
    await call;
  } catch (err) {
    return err as { name: string; statusCode?: number; message: string };
  }
  throw new Error("expected the SDK call to fail");
}

/** The fields of docs/api-contract.md rule 13, which the emulator did not have before. */
const RULE_13_FIELDS = [
  "include_byok_in_budgets",
  "allowed_data_regions",
  "enable_free_model_publication",
  "enable_free_model_training",
  "enable_paid_model_training",
];

const full: Parameters<OpenRouter["guardrails"]["create"]>[0]["createGuardrailRequest"] = {
  name: "sdk-eng",
  description: "made by the SDK",
  workspaceId: W2,
  allowedModels: ["vendor-a/model-x", "vendor-b/model-m-20260201"],
  allowedProviders: ["provider-one"],
  ignoredModels: ["other-lab/open-model-8b"],
  ignoredProviders: ["provider-two"],
  limitUsd: 25.5,
  resetInterval: "weekly",
  enforceZdrAnthropic: true,
  enforceZdrOpenai: false,
  enforceZdrGoogle: true,
  enforceZdrOther: false,
  ...FILTERS,
  includeByokInBudgets: true,
  allowedDataRegions: ["europe", "us"],
  enableFreeModelPublication: false,
  enableFreeModelTraining: false,
  enablePaidModelTraining: true,
};

describe("the service's SDK drives all 13 guardrail operations against the emulator", () => {
  it("create, get, list, update, delete: every answer passes the SDK's validation, vendor names mapped both ways", async () => {
    const created = (await sdk.guardrails.create({ createGuardrailRequest: full })).data;
    // Every field comes back as sent, but the model slugs (canonical), the builtins (labelled) and the deprecated enforceZdr.
    expect(created).toEqual({
      ...full,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
      updatedAt: null,
      allowedModels: ["vendor-a/model-x-20260115", "vendor-b/model-m-20260201"],
      ignoredModels: ["other-lab/open-model-8b-20250901"],
      enforceZdr: null,
      contentFilterBuiltins: [
        { slug: "email", action: "redact", label: "[EMAIL]" },
        { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only", label: "[PROMPT_INJECTION]" },
      ],
    });
    // The emulator saw the spec's names, never the SDK's.
    const createBody = (await logged()).find((e) => e.operation === "createGuardrail")?.body as Record<string, unknown>;
    expect(createBody).toMatchObject({
      enforce_zdr_vendor_a: true,
      enforce_zdr_vendor_b: false,
      enforce_zdr_vendor_c: true,
      include_byok_in_budgets: true,
      allowed_data_regions: ["europe", "us"],
    });
    expect(Object.keys(createBody).filter((k) => /anthropic|openai|google/.test(k))).toEqual([]);

    expect((await sdk.guardrails.get({ id: created.id })).data).toEqual(created);

    const minimal = (await sdk.guardrails.create({ createGuardrailRequest: { name: "sdk-minimal" } })).data;
    expect(minimal).toMatchObject({
      workspaceId: W1,
      includeByokInBudgets: false,
      allowedDataRegions: null,
      enableFreeModelPublication: null,
      enableFreeModelTraining: null,
      enablePaidModelTraining: null,
      limitUsd: null,
      resetInterval: null,
    });
    await sdk.guardrails.create({ createGuardrailRequest: { name: "sdk-minimal-2" } });

    // Pages of 1 over the default workspace: the SDK's page iterator walks them.
    const names: string[] = [];
    for await (const page of await sdk.guardrails.list({ limit: 1 })) {
      expect(page.result.totalCount).toBe(2);
      names.push(...page.result.data.map((g) => g.name));
    }
    expect(names).toEqual(["sdk-minimal", "sdk-minimal-2"]);
    const inW2 = await sdk.guardrails.list({ workspaceId: W2 });
    expect(inW2.result).toEqual({ data: [created], totalCount: 1 });

    const patch = {
      description: null,
      enforceZdrOpenai: true,
      includeByokInBudgets: false,
      allowedDataRegions: ["global" as const],
      enablePaidModelTraining: null,
    };
    const updated = (await sdk.guardrails.update({ id: created.id, updateGuardrailRequest: patch })).data;
    expect(updated).toEqual({
      ...created,
      description: null,
      enforceZdrOpenai: true,
      includeByokInBudgets: false,
      allowedDataRegions: ["global"],
      enablePaidModelTraining: null,
      updatedAt: expect.any(String),
    });
    const patchBody = (await logged()).find((e) => e.operation === "updateGuardrail")?.body;
    expect(patchBody).toEqual({
      description: null,
      enforce_zdr_vendor_b: true,
      include_byok_in_budgets: false,
      allowed_data_regions: ["global"],
      enable_paid_model_training: null,
    });

    expect(await sdk.guardrails.delete({ id: minimal.id })).toEqual({ deleted: true });
    expect((await failure(sdk.guardrails.get({ id: minimal.id }))).statusCode).toBe(404);
  });

  it("assignments: bulk assign and unassign keys and members, list per guardrail and for all", async () => {
    const g1 = (await sdk.guardrails.create({ createGuardrailRequest: { name: "a1" } })).data;
    const g2 = (await sdk.guardrails.create({ createGuardrailRequest: { name: "a2", workspaceId: W2 } })).data;

    expect(
      await sdk.guardrails.bulkAssignMembers({
        id: g1.id,
        bulkAssignMembersRequest: { memberUserIds: ["user_a", "user_b", "user_a", "user_nobody"] },
      }),
    ).toEqual({ assignedCount: 2 });
    expect(
      await sdk.guardrails.bulkAssignMembers({ id: g2.id, bulkAssignMembersRequest: { memberUserIds: ["user_c"] } }),
    ).toEqual({ assignedCount: 1 });
    expect(
      await sdk.guardrails.bulkAssignKeys({ id: g1.id, bulkAssignKeysRequest: { keyHashes: ["hash_1", "hash_2"] } }),
    ).toEqual({ assignedCount: 2 });
    expect(
      await sdk.guardrails.bulkAssignKeys({ id: g2.id, bulkAssignKeysRequest: { keyHashes: ["hash_2", "hash_3"] } }),
    ).toEqual({ assignedCount: 2 });

    const members = await sdk.guardrails.listGuardrailMemberAssignments({ id: g1.id });
    expect(members.result.totalCount).toBe(2);
    expect(members.result.data.map((r) => r.userId).sort()).toEqual(["user_a", "user_b"]);
    expect(members.result.data[0]).toEqual({
      id: expect.any(String),
      userId: "user_a",
      organizationId: expect.any(String),
      guardrailId: g1.id,
      assignedBy: null,
      createdAt: expect.any(String),
    });

    const keys = await sdk.guardrails.listGuardrailKeyAssignments({ id: g1.id });
    expect(keys.result).toEqual({
      totalCount: 1,
      data: [
        {
          id: expect.any(String),
          keyHash: "hash_1",
          guardrailId: g1.id,
          keyName: expect.any(String),
          keyLabel: expect.any(String),
          assignedBy: null,
          createdAt: expect.any(String),
        },
      ],
    });

    const allMembers = await sdk.guardrails.listMemberAssignments({ limit: 100 });
    expect(allMembers.result.data.map((r) => `${r.userId}@${r.guardrailId === g1.id ? "g1" : "g2"}`).sort()).toEqual([
      "user_a@g1",
      "user_b@g1",
      "user_c@g2",
    ]);
    const allKeys = await sdk.guardrails.listKeyAssignments({ limit: 100 });
    expect(allKeys.result.data.map((r) => `${r.keyHash}@${r.guardrailId === g1.id ? "g1" : "g2"}`).sort()).toEqual([
      "hash_1@g1",
      "hash_2@g2",
      "hash_3@g2",
    ]);

    expect(
      await sdk.guardrails.bulkUnassignMembers({
        id: g1.id,
        bulkUnassignMembersRequest: { memberUserIds: ["user_a", "user_c"] },
      }),
    ).toEqual({ unassignedCount: 1 });
    expect(
      await sdk.guardrails.bulkUnassignKeys({
        id: g2.id,
        bulkUnassignKeysRequest: { keyHashes: ["hash_3", "hash_1"] },
      }),
    ).toEqual({ unassignedCount: 1 });
    expect(
      (await sdk.guardrails.listGuardrailMemberAssignments({ id: g1.id })).result.data.map((r) => r.userId),
    ).toEqual(["user_b"]);
    expect((await sdk.guardrails.listGuardrailKeyAssignments({ id: g2.id })).result.data.map((r) => r.keyHash)).toEqual(
      ["hash_2"],
    );
  });

  it("every one of the 13 operations answered 2xx to the SDK in this file's calls", async () => {
    const g = (await sdk.guardrails.create({ createGuardrailRequest: { name: "all13" } })).data;
    await sdk.guardrails.get({ id: g.id });
    await sdk.guardrails.list();
    await sdk.guardrails.update({ id: g.id, updateGuardrailRequest: { name: "all13-renamed" } });
    await sdk.guardrails.bulkAssignKeys({ id: g.id, bulkAssignKeysRequest: { keyHashes: ["hash_1"] } });
    await sdk.guardrails.listGuardrailKeyAssignments({ id: g.id });
    await sdk.guardrails.bulkUnassignKeys({ id: g.id, bulkUnassignKeysRequest: { keyHashes: ["hash_1"] } });
    await sdk.guardrails.bulkAssignMembers({ id: g.id, bulkAssignMembersRequest: { memberUserIds: ["user_a"] } });
    await sdk.guardrails.listGuardrailMemberAssignments({ id: g.id });
    await sdk.guardrails.bulkUnassignMembers({ id: g.id, bulkUnassignMembersRequest: { memberUserIds: ["user_a"] } });
    await sdk.guardrails.listKeyAssignments();
    await sdk.guardrails.listMemberAssignments();
    await sdk.guardrails.delete({ id: g.id });
    const ok = new Set((await logged()).filter((e) => e.status >= 200 && e.status < 300).map((e) => e.operation));
    expect([...ok].sort()).toEqual([
      "assignKeys",
      "assignMembers",
      "createGuardrail",
      "deleteGuardrail",
      "getGuardrail",
      "listAllKeyAssignments",
      "listAllMemberAssignments",
      "listGuardrailKeyAssignments",
      "listGuardrailMemberAssignments",
      "listGuardrails",
      "unassignKeys",
      "unassignMembers",
      "updateGuardrail",
    ]);
  });
});

describe("workspaces and their default guardrails (docs/api-contract.md rules 17 to 21)", () => {
  it("workspaces.list passes the SDK's own validation and lists every workspace, the default one first", async () => {
    const page = await sdk.workspaces.list({ limit: 100 });
    expect(page.result.totalCount).toBe(2);
    expect(page.result.data.map((w) => w.id)).toEqual([W1, W2]);
    expect(page.result.data.map((w) => w.slug)).toEqual(["default", "workspace-1"]);
    const defaults = page.result.data.map((w) => w.defaultGuardrailId);
    expect(new Set(defaults).size).toBe(2);
  });

  it("workspaces.get answers the same workspace by id and by slug; an unknown one is the SDK's 404", async () => {
    const made = await admin("POST", "/__emulator/workspaces", { name: "EU production", slug: "eu-prod" });
    const id = made.body.data.id as string;
    const byId = (await sdk.workspaces.get({ id })).data;
    expect(byId).toMatchObject({ id, name: "EU production", slug: "eu-prod", description: null, updatedAt: null });
    expect(byId.defaultGuardrailId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await sdk.workspaces.get({ id: "eu-prod" })).data).toEqual(byId);
    expect((await sdk.workspaces.get({ id: W2 })).data.slug).toBe("workspace-1");
    const err = await failure(sdk.workspaces.get({ id: "no-such-workspace" }));
    expect([err.name, err.statusCode]).toEqual(["NotFoundResponseError", 404]);
  });

  it("guardrails.get of a default is the SDK's 404 until guardrails.update materializes it; then get and list show it", async () => {
    const ws = (await sdk.workspaces.get({ id: W2 })).data;
    const id = ws.defaultGuardrailId;
    const before = await failure(sdk.guardrails.get({ id }));
    expect([before.name, before.statusCode]).toEqual(["NotFoundResponseError", 404]);
    expect((await sdk.guardrails.list({ workspaceId: W2 })).result.data).toEqual([]);
    const written = (await sdk.guardrails.update({ id, updateGuardrailRequest: { enforceZdrAnthropic: true } })).data;
    expect(written).toMatchObject({ id, name: `Workspace ${W2} Default`, workspaceId: W2, enforceZdrAnthropic: true });
    expect((await sdk.guardrails.get({ id })).data).toEqual(written);
    expect((await sdk.guardrails.list({ workspaceId: W2 })).result.data.map((g) => g.id)).toEqual([id]);
    const named = (await sdk.guardrails.update({ id, updateGuardrailRequest: { name: "EU rules", ...FILTERS } })).data;
    expect(named).toMatchObject({ name: "EU rules", enforceZdrAnthropic: true });
    const ops = (await logged()).map((e) => `${e.operation} ${e.status}`);
    expect(ops).toEqual([
      "getWorkspace 200",
      "getGuardrail 404",
      "listGuardrails 200",
      "updateGuardrail 200",
      "getGuardrail 200",
      "listGuardrails 200",
      "updateGuardrail 200",
    ]);
    expect((await logged()).some((e) => e.method === "POST")).toBe(false);
  });

  it("guardrails.delete of a default is refused (400, the usual body) and the SDK reads the error; it stays", async () => {
    const id = (await sdk.workspaces.get({ id: W1 })).data.defaultGuardrailId;
    await sdk.guardrails.update({ id, updateGuardrailRequest: { description: "kept" } });
    const err = await failure(sdk.guardrails.delete({ id }));
    expect(err.name).not.toBe("ResponseValidationError");
    expect(err.statusCode).toBe(400);
    expect(err.message + JSON.stringify(err)).toMatch(/cannot be deleted/);
    expect((await sdk.guardrails.get({ id })).data.description).toBe("kept");
  });
});

describe("the service's answers the SDK knows how to read: errors, rule 14, rule 15", () => {
  it("a 400 for a limit without an interval (rule 14) reaches the SDK as its BadRequestResponseError naming both", async () => {
    const err = await failure(sdk.guardrails.create({ createGuardrailRequest: { name: "half", limitUsd: 5 } }));
    expect([err.name, err.statusCode]).toEqual(["BadRequestResponseError", 400]);
    expect(err.message).toMatch(/limit_usd.*reset_interval|reset_interval.*limit_usd/);
  });

  it("a 409 on update (rule 15) reaches the SDK as its ConflictResponseError; the guardrail is unchanged", async () => {
    const g = (await sdk.guardrails.create({ createGuardrailRequest: { name: "busy" } })).data;
    await admin("PUT", "/__emulator/faults", { updateConflicts: 1 });
    const err = await failure(sdk.guardrails.update({ id: g.id, updateGuardrailRequest: { name: "lost" } }));
    expect([err.name, err.statusCode]).toEqual(["ConflictResponseError", 409]);
    expect((await sdk.guardrails.get({ id: g.id })).data.name).toBe("busy");
    expect((await sdk.guardrails.update({ id: g.id, updateGuardrailRequest: { name: "won" } })).data.name).toBe("won");
  });

  it("the service's newer builtin rules: flag on a PII slug and the secrets slug are accepted", async () => {
    const g = (
      await sdk.guardrails.create({
        createGuardrailRequest: {
          name: "newer",
          contentFilterBuiltins: [
            { slug: "phone", action: "flag" },
            { slug: "secrets", action: "redact" },
          ],
        },
      })
    ).data;
    expect(g.contentFilterBuiltins).toEqual([
      { slug: "phone", action: "flag", label: "[PHONE]" },
      { slug: "secrets", action: "redact", label: "[SECRETS]" },
    ]);
  });

  it("a guardrail shaped by hand into what the real service may hold still passes the SDK's validation on get and list", async () => {
    const g = (await sdk.guardrails.create({ createGuardrailRequest: { name: "odd" } })).data;
    const res = await admin("PATCH", `/__emulator/guardrails/${g.id}`, {
      set: {
        workspace_id: null,
        reset_interval: "hourly",
        limit_usd: 3,
        content_filter_builtins: [
          { slug: "secrets", action: "flag", label: "[SECRETS]" },
          { slug: "face", action: "mask", scan_scope: "tool_only" },
        ],
        brand_new_field: { any: "thing" },
      },
      remove: ["description", "allowed_models", "updated_at"],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const read = (await sdk.guardrails.get({ id: g.id })).data;
    expect(read).toMatchObject({ workspaceId: null, resetInterval: "hourly", limitUsd: 3 });
    expect(read.contentFilterBuiltins).toMatchObject([
      { slug: "secrets", action: "flag", label: "[SECRETS]" },
      { slug: "face", action: "mask", scanScope: "tool_only" },
    ]);
    expect("description" in read).toBe(false);
    expect((await sdk.guardrails.list()).result.data.map((x) => x.id)).toContain(g.id);
  });

  it("the SDK's validation is live: a guardrail without include_byok_in_budgets, as the emulator served before rule 13, is refused", async () => {
    const g = (await sdk.guardrails.create({ createGuardrailRequest: { name: "pre-rule-13" } })).data;
    await admin("PATCH", `/__emulator/guardrails/${g.id}`, { remove: RULE_13_FIELDS });
    const err = await failure(sdk.guardrails.get({ id: g.id }));
    expect(err.name).toBe("ResponseValidationError");
    expect(err.message + String((err as { cause?: unknown }).cause)).toMatch(/include_byok_in_budgets/);
    expect((await failure(sdk.guardrails.list())).name).toBe("ResponseValidationError");
  });
});
