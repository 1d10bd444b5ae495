/**
 * Attack on issue 40's workspace policies (BudgetPolicy, ModelAccessPolicy, ModerationPolicy):
 * the core lifecycle (src/core/policies/) against a recording server that answers as badly as
 * each test asks, and `check` against bad program input. Each test states the product's bar; a
 * test that shows the bar broken is `it.fails` and named "BROKE".
 */
import { afterEach, describe, expect, it } from "vitest";
import { ProviderConfig } from "../../src/core/settings/config";
import { check } from "../../src/core/policies/inputs";
import { policyLifecycle } from "../../src/core/policies/lifecycle";
import { guardrailLifecycle } from "../../src/core/guardrail/lifecycle";
import { workspaceWideLifecycle } from "../../src/core/policies/workspace-wide-lifecycle";
import { workspaceDefaultLifecycle } from "../../src/core/guardrail/workspace-default-lifecycle";
import { GuardrailsClient } from "../../src/core/client";
import { collect } from "../../src/core/client/pagination";
import { PolicyClient } from "../../src/core/client/policies";
import { parseImportId } from "../../src/core/policies/import-id";
import type { PolicyTypeName } from "../../src/core/kinds";
import { isSecretEnvelope } from "../../src/core/markers";
import { type Answer, type Recorded, type RecordingServer, recordingServer } from "../helpers/recording-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const WS = "0df9e665-d932-4740-b2c7-b52af166bc11";
const PID = "550e8400-e29b-41d4-a716-446655440000";
const OTHER = "650e8400-e29b-41d4-a716-446655440000";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The core lifecycle of a kind against a recording server answering with `handler`. */
async function serve(handler: (r: Recorded) => Answer, type: PolicyTypeName = "BudgetPolicy") {
  server = await recordingServer(handler);
  const conn = new ProviderConfig();
  const url = server.url;
  conn.configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": url, "guardrails:maxAttempts": "2" })[k]);
  return policyLifecycle(type, conn);
}
const sent = () => (server?.requests ?? []).map((r) => `${r.method} ${r.url}`);
const all404 = () => ({ status: 404, body: { error: { code: 404, message: "Not Found" } } });

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

const budgetConfig = { limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: false };
const detail = (over: Record<string, unknown> = {}) => ({
  id: PID,
  name: "Eng budget",
  policy_type: "budget",
  config: budgetConfig,
  member_ids: ["user_alice"],
  api_key_hashes: [],
  opted_out_member_ids: [],
  opted_out_api_key_hashes: [],
  overridden_member_ids: [],
  overridden_api_key_hashes: [],
  is_workspace_default: false,
  reference: null,
  updated_at: null,
  ...over,
});
const news = {
  workspaceId: WS,
  name: "Eng budget",
  limitUsd: 50,
  resetInterval: "monthly",
  memberUserIds: ["user_alice"],
  keyHashes: [],
};

/** Outputs as the engine hands them back as olds: every secret envelope opened (the dynamic host takes no secrets). */
function unseal(v: unknown): unknown {
  if (isSecretEnvelope(v)) return unseal((v as { value: unknown }).value);
  if (Array.isArray(v)) return v.map(unseal);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unseal(x)]));
  return v;
}

/** The state after a clean create (the lifecycle's own outputs), from a server answering `detail()`. */
async function created(extraNews: Record<string, unknown> = {}) {
  const lc = await serve((r) =>
    r.method === "POST"
      ? { status: 201, body: { data: { ...detail(), name: (r.body as { name: string }).name } } }
      : { status: 200, body: { data: detail() } },
  );
  const c = await lc.create({ ...news, ...extraNews });
  await server?.close();
  return { ...c, sealed: c.properties, properties: unseal(c.properties) as Record<string, unknown> };
}

// ---------------------------------------------------------------- check: bad program input

describe("check: bad program input is caught before any call, naming field, value and what is expected", () => {
  const reasons = (type: PolicyTypeName, props: Record<string, unknown>) =>
    check(type, props).failures.map((f) => `${f.property}: ${f.reason}`);

  it("A01 wrong types: a string for an id list, a string for the default flag", () => {
    const r = reasons("ModerationPolicy", {
      workspaceId: WS,
      name: "m",
      memberUserIds: "user_alice",
      workspaceDefault: "true",
    });
    expect(r).toEqual([
      expect.stringMatching(/^memberUserIds: must be a list of strings/),
      expect.stringMatching(/^workspaceDefault: must be true or false/),
    ]);
  });

  it("A02 empty and blank ids, an id over 500 characters, each named by index", () => {
    const r = reasons("ModerationPolicy", {
      workspaceId: WS,
      name: "m",
      keyHashes: ["", "  ", "k".repeat(501)],
    });
    expect(r).toHaveLength(3);
    expect(r[0]).toMatch(/^keyHashes\[0\]: ids must be non-empty/);
    expect(r[2]).toMatch(/^keyHashes\[2\]: ids must be at most 500/);
    expect(r.join("\n")).not.toContain("k".repeat(100));
  });

  it("A03 workspaceId slug tricks (traversal, slash, query, space, 101 chars) are refused", () => {
    for (const ws of ["..", "../x", "a/b", "a?b=1", "a b", "-a", `a${"b".repeat(100)}`, "a%2Fb"]) {
      const r = reasons("BudgetPolicy", { ...news, workspaceId: ws });
      expect(r, ws).toEqual([expect.stringMatching(/^workspaceId: must be a workspace id \(UUID\) or slug/)]);
    }
  });

  it("A04 another kind's setting and an unknown prop are refused by name", () => {
    expect(reasons("ModelAccessPolicy", { workspaceId: WS, name: "m", limitUsd: 5, memberIds: ["x"] })).toEqual([
      "limitUsd: belongs to a BudgetPolicy, not a ModelAccessPolicy",
      expect.stringMatching(/^memberIds: unknown property/),
    ]);
    expect(reasons("BudgetPolicy", { ...news, contentFilterBuiltins: [] })).toEqual([
      "contentFilterBuiltins: belongs to a ModerationPolicy, not a BudgetPolicy",
    ]);
  });

  it("A05 a secret name that is too long: the failure never quotes it", () => {
    const secret = `s3cr3t-${"x".repeat(300)}`;
    const r = check("BudgetPolicy", { ...news, name: secret, __secretArgs: ["name"] });
    expect(r.failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(r.failures)).not.toContain("s3cr3t");
  });

  it("A06 a secret id list with a bad entry: the failure never quotes the other ids", () => {
    const r = check("BudgetPolicy", {
      ...news,
      memberUserIds: ["user_secret_one", ""],
      __secretArgs: ["memberUserIds"],
    });
    expect(r.failures.length).toBe(1);
    expect(JSON.stringify(r.failures)).not.toContain("user_secret_one");
  });

  it("A07 a million ids check in well under the time a preview may take", () => {
    const ids = Array.from({ length: 1_000_000 }, (_, i) => `user_${i}`);
    const t = Date.now();
    const r = check("ModerationPolicy", { workspaceId: WS, name: "m", memberUserIds: ids });
    expect(r.failures).toEqual([]);
    expect(Date.now() - t).toBeLessThan(10_000);
  });

  it("A08 a budget with a limit but no reset interval is refused (rule 14)", () => {
    const { resetInterval: _, ...rest } = news;
    expect(reasons("BudgetPolicy", rest).join("\n")).toMatch(/resetInterval/);
  });
});

// ---------------------------------------------------------------- import ids

describe("import id parsing: <workspaceId>/<policyId>", () => {
  it("A09 extra slashes, empty parts and a bare id are refused with the expected form", () => {
    for (const id of [`${WS}/${PID}/x`, `/${PID}`, `${WS}/`, PID, `${WS}//${PID}`])
      expect(() => parseImportId("BudgetPolicy", id), id).toThrow("<workspaceId>/<policyId>");
  });

  it("A10 traversal and query strings never leave their path segment (no request outside the policy path)", async () => {
    const lc = await serve(() => ({ status: 404, body: { error: { code: 404, message: "nope" } } }));
    for (const id of [`${WS}/..`, `${WS}/.`, `${WS}/${PID}?workspace_id=${OTHER}`, `${WS}/a%2F..%2Fb`]) {
      await failure(lc.read(id, undefined as never));
    }
    for (const r of server!.requests) {
      expect(r.url).toMatch(/^\/api\/v1\/guardrails\/policies\/budget\/[^/?]+\?workspace_id=0df9e665/);
      expect(r.url).not.toContain(`workspace_id=${OTHER}`);
    }
  });

  it("A11 a workspace slug of '..' in an import id never reaches the workspaces path raw", async () => {
    const lc = await serve(() => ({ status: 404, body: { error: { code: 404, message: "nope" } } }));
    await failure(lc.read(`../${PID}`, undefined as never));
    await failure(lc.read(`a b?x=1/${PID}`, undefined as never));
    for (const r of server!.requests) expect(r.url).not.toMatch(/\/\.\.(\/|$|\?)|\?x=1/);
  });
});

// ---------------------------------------------------------------- hostile answers to read and update

describe("hostile answers", () => {
  it("A12 a detail whose member_ids is null never reads as 'no members' on refresh", async () => {
    const c = await created();
    const lc = await serve(() => ({ status: 200, body: { data: detail({ member_ids: null }) } }));
    const err = await failure(lc.read(c.id, c.properties as never));
    expect(err.message).toMatch(/member_ids/);
  });

  it("A13 a GET of a budget policy answered with a moderation policy is taken as a budget with no limit", async () => {
    const c = await created();
    const lc = await serve(() => ({
      status: 200,
      body: { data: detail({ policy_type: "moderation", config: { content_filters: null } }) },
    }));
    // Bar: an answer of the wrong kind is refused, never read as "the limit was removed".
    const err = await lc.read(c.id, c.properties as never).then(
      (r) => r,
      (e: Error) => e,
    );
    expect(
      err,
      `read took it: limitUsd=${JSON.stringify((err as { properties?: { limitUsd?: unknown } }).properties?.limitUsd)}`,
    ).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/budget policy 550e8400\S* was answered with moderation policy/);
  });

  it("A14 a GET answering another policy's id is stored as this resource's policyId", async () => {
    const c = await created();
    const lc = await serve(() => ({ status: 200, body: { data: detail({ id: OTHER }) } }));
    const r = await lc.read(c.id, c.properties as never).then(
      (x) => x,
      (e: Error) => e,
    );
    // Bar: an answer about another id is refused (as the workspace-default reader refuses another workspace).
    expect(
      r instanceof Error || (r as unknown as { properties: { policyId: string } }).properties.policyId === c.id,
    ).toBe(true);
    expect((r as Error).message).toContain(`was answered with budget policy ${OTHER}`);
  });

  it("A15 duplicated ids in an answer read as a set (no spurious drift)", async () => {
    const c = await created();
    const lc = await serve(() => ({
      status: 200,
      body: { data: detail({ member_ids: ["user_alice", "user_alice", "user_alice"] }) },
    }));
    const r = await lc.read(c.id, c.properties as never);
    expect((r!.properties as { memberUserIds: string[] }).memberUserIds).toEqual(["user_alice"]);
    expect((await lc.diff(c.id, r!.properties as never, news)).changes).toEqual([]);
  });

  it("A16 the 'changed since last read' error quotes a server name raw (bidi override, C1 CSI, 4000 chars)", async () => {
    const c = await created();
    const evil = `Eng\u202Eevil\u009B31m${"A".repeat(4000)}`;
    const lc = await serve(() => ({ status: 200, body: { data: detail({ name: evil }) } }));
    const err = await failure(lc.update(c.id, c.properties as never, { ...news, limitUsd: 60 }));
    expect(err.message).toContain("changed on the service since the last refresh");
    expect(err.message).not.toContain("\u202E");
    expect(err.message).not.toContain("\u009B");
    expect(err.message.length).toBeLessThan(1500);
  });

  it("A17 the 'changed since last read' error lists every one of 5000 out-of-band ids (unbounded message)", async () => {
    const c = await created();
    const many = Array.from({ length: 5000 }, (_, i) => `user_${i}`);
    const lc = await serve(() => ({ status: 200, body: { data: detail({ member_ids: many }) } }));
    const err = await failure(lc.update(c.id, c.properties as never, { ...news, limitUsd: 60 }));
    expect(err.message).toContain("memberUserIds");
    expect(server!.requests.filter((r) => r.method === "PUT")).toHaveLength(0);
    expect(err.message.length, `message is ${err.message.length} characters`).toBeLessThan(5000);
    expect(err.message).toMatch(/added "user_0", "user_1", .* and 4990 more; removed "user_alice"/);
  });

  it("A18 a server id with a bidi override in the drift error is not shown raw", async () => {
    const c = await created();
    const lc = await serve(() => ({
      status: 200,
      body: { data: detail({ member_ids: ["user_alice", "user_\u202Eevil"] }) },
    }));
    const err = await failure(lc.update(c.id, c.properties as never, { ...news, limitUsd: 60 }));
    expect(err.message).toContain("memberUserIds");
    expect(err.message).not.toContain("\u202E");
    expect(err.message).toContain("user_<U+202E>evil");
  });
});

// ---------------------------------------------------------------- what an update writes

describe("the update's writes", () => {
  it("A19 an update wipes config keys this package does not manage (pii_filters, armor)", async () => {
    const c = await created();
    const live = detail({ config: { ...budgetConfig, pii_filters: [{ kind: "x" }], armor: { on: true } } });
    const lc = await serve((r) => ({ status: 200, body: { data: r.method === "PUT" ? r.body : live } }));
    await lc.update(c.id, c.properties as never, { ...news, limitUsd: 60 }).catch((e: Error) => e);
    const put = server!.requests.find((r) => r.method === "PUT");
    // Bar (design-40 "Late decisions"): carried back as they were, or the update refuses naming them.
    expect(put).toBeDefined();
    if (put)
      expect((put.body as { config: Record<string, unknown> }).config).toMatchObject({
        pii_filters: [{ kind: "x" }],
        armor: { on: true },
      });
  });

  it("A20 a name-only change keeps the stored assignments (no lists, no flag in the PUT)", async () => {
    const c = await created();
    const lc = await serve((r) => ({
      status: 200,
      body: { data: r.method === "PUT" ? { ...detail(), name: "New" } : detail() },
    }));
    await lc.update(c.id, c.properties as never, { ...news, name: "New" });
    const put = server!.requests.find((r) => r.method === "PUT")!.body as Record<string, unknown>;
    expect(Object.keys(put).sort()).toEqual(["config", "name", "workspace_id"]);
  });

  it("A21 a member change carries the unmanaged key list as the service holds it now (not wiped)", async () => {
    const c = await created({ keyHashes: undefined });
    const live = detail({ api_key_hashes: ["k-out-of-band"] });
    const lc = await serve((r) => ({ status: 200, body: { data: r.method === "PUT" ? detail() : live } }));
    const { keyHashes: _, ...n } = news;
    await lc.update(c.id, c.properties as never, { ...n, memberUserIds: ["user_alice", "user_bob"] });
    const put = server!.requests.find((r) => r.method === "PUT")!.body as Record<string, unknown>;
    expect(put.api_key_hashes).toEqual(["k-out-of-band"]);
    expect(put.member_ids).toEqual(["user_alice", "user_bob"]);
  });

  it("A22 a 503 on the PUT then success: retried, one resource, outputs as sent", async () => {
    const c = await created();
    let puts = 0;
    const lc = await serve((r) => {
      if (r.method !== "PUT") return { status: 200, body: { data: detail() } };
      puts += 1;
      return puts === 1
        ? { status: 503, body: { error: { code: 503, message: "busy" } } }
        : { status: 200, body: { data: { ...detail(), config: { ...budgetConfig, limit_usd: 60 } } } };
    });
    const u = await lc.update(c.id, c.properties as never, { ...news, limitUsd: 60 });
    expect((u.properties as { limitUsd: number }).limitUsd).toBe(60);
  });

  it("A23 a 409 on the PUT is a clear error and nothing is recorded as applied", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.method === "PUT"
        ? { status: 409, body: { error: { code: 409, message: "conflict \u001b[31mred" } } }
        : { status: 200, body: { data: detail() } },
    );
    const err = await failure(lc.update(c.id, c.properties as never, { ...news, limitUsd: 60 }));
    expect(err.message).toMatch(/409/);
    expect(err.message).not.toContain("\u001b");
  });

  it("A24 a 404 on the update's GET is an error, never a silent PUT or a 'gone'", async () => {
    const c = await created();
    const lc = await serve(() => ({ status: 404, body: { error: { code: 404, message: "nope" } } }));
    const err = await failure(lc.update(c.id, c.properties as never, { ...news, limitUsd: 60 }));
    expect(err.message).toMatch(/404/);
    expect(sent().filter((s) => s.startsWith("PUT"))).toEqual([]);
  });
});

// ---------------------------------------------------------------- 404 from a wrong base URL

describe("a 404 from a wrong base URL", () => {
  it("A25 refresh: not believed as gone; the state keeps the resource", async () => {
    const c = await created();
    const lc = await serve(all404);
    const err = await failure(lc.read(c.id, c.properties as never));
    expect(err.message).toContain("not reported as deleted");
  });

  it("A26 refresh: a 404 while the list still holds the id is not believed", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.url.includes(`/budget/${PID}`)
        ? all404()
        : { status: 200, body: { data: [{ ...detail(), member_count: 1, api_key_count: 0 }], total_count: 1 } },
    );
    const err = await failure(lc.read(c.id, c.properties as never));
    expect(err.message).toContain("yet the service lists");
  });

  it("A27 delete: a 404 from a wrong base URL is believed as gone without confirmation (the policy stays, state forgets it)", async () => {
    const c = await created();
    const lc = await serve(all404);
    // Bar: only a working service may say "already gone" (guardrail delete: confirmGuardrailGone).
    const err = await lc.delete(c.id, c.properties as never).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err, `requests: ${sent().join(", ")}`).toBeInstanceOf(Error);
  });
  it("A27w a workspace-wide policy's delete: a 404 from a wrong base URL is not believed", async () => {
    server = await recordingServer(all404);
    const conn = new ProviderConfig();
    const url = server.url;
    conn.configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": url, "guardrails:maxAttempts": "2" })[k]);
    const err = await failure(workspaceWideLifecycle(conn).delete(PID, { name: "Org budget" } as never));
    expect(err.message).toMatch(
      /not reported as deleted, because DELETE \S+ answered 404, and the workspace-wide policy list/,
    );
    expect(sent().map((x) => x.split("?")[0])).toEqual([
      `DELETE /api/v1/guardrails/policies/account/${PID}`,
      "GET /api/v1/guardrails/policies/account",
    ]);
  });

  it("A27b a 400 on a policy whose workspace still answers: refresh and delete fail naming the way out; the state keeps it", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.url.startsWith("/api/v1/workspaces/")
        ? { status: 200, body: { data: { id: WS, slug: "eng", name: "Eng", default_guardrail_id: OTHER } } }
        : { status: 400, body: { error: { code: 400, message: "unknown workspace" } } },
    );
    const read = await failure(lc.read(c.id, c.properties as never));
    expect(read.message).toMatch(/400.*unknown workspace.*still exists/s);
    expect(read.message).toContain("pulumi state delete");
    const del = await failure(lc.delete(c.id, c.properties as never));
    expect(del.message).toMatch(/still exists/);
  });

  it("A27c a 400 on a policy and a 404 for its workspace from a wrong base URL: not gone, a clear error", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.url.startsWith("/api/v1/guardrails/policies/")
        ? { status: 400, body: { error: { code: 400, message: "unknown workspace" } } }
        : all404(),
    );
    const read = await failure(lc.read(c.id, c.properties as never));
    expect(read.message).toMatch(/could not be confirmed/);
    expect(read.message).toContain("pulumi state delete");
  });
});

// ---------------------------------------------------------------- create faults

describe("create faults", () => {
  it("A28 a 503 on the POST is not repeated blindly (a repeat could duplicate)", async () => {
    const lc = await serve(() => ({ status: 503, body: { error: { code: 503, message: "busy" } } }));
    await failure(lc.create(news));
    expect(sent().filter((s) => s.startsWith("POST"))).toHaveLength(1);
  });

  it("A29 a create answered with a non-UUID id is refused, not recorded", async () => {
    const lc = await serve(() => ({ status: 201, body: { data: detail({ id: "../../evil" }) } }));
    const err = await failure(lc.create(news));
    expect(err.message).toMatch(/must be a UUID/);
    expect(err.message).not.toContain("../../evil\u001b");
  });
});

// ---------------------------------------------------------------- secrets

describe("secrets", () => {
  it("A30 a secret member list: state copies are secret, the diff names no id", async () => {
    const c = await created({ __secretArgs: ["memberUserIds"] });
    const p = c.properties as Record<string, unknown>;
    const sealed = c.sealed as Record<string, unknown>;
    expect(JSON.stringify(sealed.memberUserIds)).toContain("4dabf18193072939515e22adb298388d");
    expect(JSON.stringify((sealed.args as Record<string, unknown>).memberUserIds)).toContain(
      "4dabf18193072939515e22adb298388d",
    );
    const lc = await serve(() => ({ status: 200, body: { data: detail() } }));
    const d = await lc.diff(c.id, p as never, {
      ...news,
      memberUserIds: ["user_secret_bob"],
      __secretArgs: ["memberUserIds"],
    });
    expect(JSON.stringify(d)).not.toContain("user_secret_bob");
    expect(JSON.stringify(d)).not.toContain("user_alice");
  });

  it("A31 a secret name is quoted in every failure of the resource (the label uses it)", async () => {
    const c = await created({ name: "Project Nightingale", __secretArgs: ["name"] });
    const lc = await serve(() => ({ status: 500, body: { error: { code: 500, message: "boom" } } }));
    const err = await failure(
      lc.update(c.id, c.properties as never, {
        ...news,
        name: "Project Nightingale",
        limitUsd: 60,
        __secretArgs: ["name"],
      }),
    );
    expect(err.message).not.toContain("Nightingale");
  });

  it("A32 a secret name is quoted in a create failure", async () => {
    const lc = await serve(() => ({ status: 400, body: { error: { code: 400, message: "bad" } } }));
    const err = await failure(lc.create({ ...news, name: "Project Nightingale", __secretArgs: ["name"] }));
    expect(err.message).not.toContain("Nightingale");
    expect(err.message).toMatch(/^budget policy \[secret\]: POST .* 400/);
    const named = await failure(
      lc.create({ ...news, name: "Project Nightingale", __secretArgs: ["name"], __resource: "proj/dev/eng-budget" }),
    );
    expect(named.message).toMatch(/^budget policy \[secret\] \(resource "eng-budget"\): POST/);
  });

  it("A33 a secret member id echoed by the service's 400 reaches the error message", async () => {
    const lc = await serve(() => ({
      status: 400,
      body: { error: { code: 400, message: 'member_ids[0]: unknown member "user_secret_zed"' } },
    }));
    const err = await failure(
      lc.create({ ...news, memberUserIds: ["user_secret_zed"], __secretArgs: ["memberUserIds"] }),
    );
    expect(err.message).not.toContain("user_secret_zed");
    expect(err.message).toContain('unknown member "[secret]"');
    expect((err as { status?: number }).status).toBe(400);
    expect(JSON.stringify((err as { serverMessage?: string }).serverMessage)).not.toContain("user_secret_zed");
  });

  it("A32g a Guardrail's secret name is quoted in no failure: not in its label, not where the service's 400 echoes it", async () => {
    server = await recordingServer(() => ({
      status: 400,
      body: { error: { code: 400, message: 'name "Project Nightingale" is taken' } },
    }));
    const conn = new ProviderConfig();
    const url = server.url;
    conn.configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": url, "guardrails:maxAttempts": "2" })[k]);
    const err = await failure(
      guardrailLifecycle(conn).create({
        name: "Project Nightingale",
        limitUsd: 5,
        resetInterval: "daily",
        __secretArgs: ["name"],
      }),
    );
    expect(err.message).toMatch(/400/);
    expect(err.message).not.toContain("Nightingale");
    expect(err.message).toContain('guardrail "[secret]"');
  });

  it("A34 a secret key list's out-of-band change is reported by counts only", async () => {
    const c = await created({ keyHashes: ["hash-secret-1"], __secretArgs: ["keyHashes"] });
    const lc = await serve(() => ({ status: 200, body: { data: detail({ api_key_hashes: ["hash-secret-2"] }) } }));
    const err = await failure(
      lc.update(c.id, c.properties as never, {
        ...news,
        keyHashes: ["hash-secret-1"],
        limitUsd: 60,
        __secretArgs: ["keyHashes"],
      }),
    );
    expect(err.message).toContain("keyHashes (1 added, 1 removed)");
    expect(err.message).not.toMatch(/hash-secret/);
  });

  it("A35 a secret name changed out of band: the drift error says 'name' only", async () => {
    const c = await created({ name: "Project Nightingale", __secretArgs: ["name"] });
    const lc = await serve(() => ({ status: 200, body: { data: detail({ name: "Project Kestrel" }) } }));
    const err = await failure(
      lc.update(c.id, c.properties as never, {
        ...news,
        name: "Project Nightingale",
        limitUsd: 60,
        __secretArgs: ["name"],
      }),
    );
    expect(err.message).not.toContain("Kestrel");
  });
});

// ---------------------------------------------------------------- paging (the list confirmGone walks)

describe("hostile pages of a policy list", () => {
  const row = (id: string) => ({ ...detail({ id }), member_count: 0, api_key_count: 0 });
  const ids = Array.from({ length: 6 }, (_, i) => `550e8400-e29b-41d4-a716-44665544000${i}`);
  async function client(handler: (r: Recorded) => Answer) {
    server = await recordingServer(handler);
    const retry = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 };
    return new PolicyClient(new GuardrailsClient({ baseUrl: server.url, apiKey: KEY, retry, pageSize: 2 }));
  }
  const offsetOf = (r: Recorded) => Number(new URL(r.url, "http://x").searchParams.get("offset") ?? 0);

  it("A36 the same page answered for every offset is an error, never a list with duplicates", async () => {
    const c = await client(() => ({ status: 200, body: { data: [row(ids[0]!), row(ids[1]!)], total_count: 6 } }));
    const out = await collect(c.listPolicies("budget", WS)).then(
      (rows) => rows.map((r) => r.id),
      (e: Error) => e,
    );
    if (!(out instanceof Error)) expect(new Set(out).size).toBe(out.length);
  });

  it("A37 a total_count that lies upward ends in an error or the rows that exist, never an endless walk", async () => {
    const c = await client((r) => ({
      status: 200,
      body: { data: offsetOf(r) === 0 ? [row(ids[0]!)] : [], total_count: 50 },
    }));
    const out = await collect(c.listPolicies("budget", WS)).then(
      (rows) => rows.length,
      (e: Error) => e,
    );
    // Rule 16: pages are walked by total_count (25 pages of 2), bounded by it; never endless.
    expect(server!.requests.length).toBeLessThanOrEqual(30);
    if (!(out instanceof Error)) expect(out).toBe(1);
    else expect(out.message).not.toContain("\u001b");
  });

  it("A38 a list that moves under the walk (a row inserted before the cursor) loses no row silently", async () => {
    let calls = 0;
    const c = await client((r) => {
      calls += 1;
      const all = calls === 1 ? ids.slice(1) : ids; // a row lands at the front after page 1
      const o = offsetOf(r);
      return { status: 200, body: { data: all.slice(o, o + 2).map(row), total_count: all.length } };
    });
    const out = await collect(c.listPolicies("budget", WS)).then(
      (rows) => rows.map((x) => x.id),
      (e: Error) => e,
    );
    // Either an error, or every row that was there throughout (ids[1..5]).
    if (!(out instanceof Error)) for (const id of ids.slice(1)) expect(out).toContain(id);
  });
});

describe("the workspace a slug names", () => {
  it("A39 a slug answered with another workspace's record: the policy is created there", async () => {
    const lc = await serve((r) => {
      if (r.url.startsWith("/api/v1/workspaces/"))
        return {
          status: 200,
          body: { data: { id: OTHER, slug: "someone-else", name: "x", default_guardrail_id: PID } },
        };
      return { status: 201, body: { data: detail() } };
    });
    const err = await lc.create({ ...news, workspaceId: "eng" }).then(
      () => undefined,
      (e: Error) => e,
    );
    const post = server!.requests.find((r) => r.method === "POST");
    // Bar: as readWorkspaceDefault does, an answer naming neither the id nor the slug asked is refused.
    const where = (post?.body as { workspace_id?: string } | undefined)?.workspace_id;
    expect(err ?? where).toBeInstanceOf(Error);
    expect(err!.message).toMatch(/asked the service for workspace eng, it answered workspace 650e8400/);
    expect(post).toBeUndefined();
  });
});

describe("diff", () => {
  it("A40 a slug whose workspace GET answers 404 from a wrong base URL previews a replace (destroy of the old one)", async () => {
    const c = await created();
    const lc = await serve(() => ({ status: 404, body: { error: { code: 404, message: "Not Found" } } }));
    const d = await lc.diff(c.id, c.properties as never, { ...news, workspaceId: "eng" }).then(
      (x) => x.changes.map((ch) => `${ch.kind} ${ch.path}`),
      (e: Error) => e,
    );
    // Bar: an unconfirmed 404 is ambiguous; it must not become a previewed replacement.
    expect(d).toBeInstanceOf(Error);
    expect((d as Error).message).toMatch(/GET \S*\/workspaces\/eng answered 404/);
    expect((d as Error).message).toMatch(/workspace eng is not taken as missing, because .* the workspace list/);
  });

  it("A40w a WorkspaceDefaultGuardrail's slug: an unconfirmed 404 or another workspace's answer is an error, not a replace", async () => {
    const olds = { workspaceId: WS, workspaceSlug: "eng", args: { workspaceId: "eng" }, name: "d" };
    const conn = async (handler: (r: Recorded) => Answer) => {
      server = await recordingServer(handler);
      const c = new ProviderConfig();
      const url = server.url;
      c.configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": url, "guardrails:maxAttempts": "2" })[k]);
      return workspaceDefaultLifecycle(c);
    };
    const lost = await failure((await conn(all404)).diff(WS, olds as never, { workspaceId: "ops" }));
    expect(lost.message).toMatch(/workspace ops is not taken as missing/);
    await server?.close();
    const other = await failure(
      (
        await conn(() => ({
          status: 200,
          body: { data: { id: OTHER, slug: "someone-else", name: "x", default_guardrail_id: PID } },
        }))
      ).diff(WS, olds as never, { workspaceId: "ops" }),
    );
    expect(other.message).toMatch(/asked the service for workspace ops, it answered workspace 650e8400/);
  });

  it("A41 a preview with unknown member ids names the list, calls nothing, never crashes", async () => {
    const c = await created();
    const lc = await serve(() => ({ status: 500 }));
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const d = await lc.diff(c.id, c.properties as never, { ...news, memberUserIds: UNKNOWN });
    expect(d.changes.map((x) => x.path)).toEqual(["memberUserIds"]);
    expect(server!.requests).toHaveLength(0);
  });

  it("A42 a member list made secret with the same ids: no change, so the state keeps its plain-text copies", async () => {
    const c = await created();
    const lc = await serve(() => ({ status: 200, body: { data: detail() } }));
    const d = await lc.diff(c.id, c.properties as never, { ...news, __secretArgs: ["memberUserIds"] });
    // Bar: every copy of a secret is a secret; a Guardrail treats a secrecy change as a change (secrecyChanged).
    expect(d.changes.length).toBeGreaterThan(0);
    expect(d.changes).toEqual([{ path: "memberUserIds", kind: "update" }]);
    // The update that follows seals every copy from its GET alone: nothing to write, no PUT.
    const u = await lc.update(c.id, c.properties as never, { ...news, __secretArgs: ["memberUserIds"] });
    expect(sent().map((x) => x.split("?")[0])).toEqual([`GET /api/v1/guardrails/policies/budget/${PID}`]);
    const p = u.properties as Record<string, unknown>;
    expect(isSecretEnvelope(p.memberUserIds)).toBe(true);
    expect(isSecretEnvelope((p.args as Record<string, unknown>).memberUserIds)).toBe(true);
  });

  it("A43 an id list given with duplicates and a different order is no change (a set)", async () => {
    const c = await created({ memberUserIds: ["user_alice", "user_bob"] });
    const lc = await serve(() => ({ status: 500 }));
    const d = await lc.diff(c.id, c.properties as never, {
      ...news,
      memberUserIds: ["user_bob", "user_alice", "user_bob"],
    });
    expect(d.changes).toEqual([]);
  });
});
