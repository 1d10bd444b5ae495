/**
 * Conformance of `guardrails-emulator` to docs/api-contract.md (the spec's rules and the
 * contract's), from the outside: the binary on a free port, plain HTTP, no project code. One
 * block per rule.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { http, spawnEmulator, type SpawnedEmulator } from "../helpers/spawn-emulator";
import { RULE3_LISTS } from "../helpers/wire-fields";

const MGMT = "conformance-management-key";
const PLAIN = "conformance-plain-key";
const W1 = "11111111-1111-4111-8111-111111111111";
const W2 = "22222222-2222-4222-8222-222222222222";
const MISSING = "99999999-9999-4999-8999-999999999999";
const MEMBERS = ["user_a", "user_b", "user_c", "user_d", "user_e", "user_f", "user_g"];
const HASHES = ["hash_1", "hash_2", "hash_3", "hash_4"];

let emu: SpawnedEmulator;
let api: ReturnType<typeof http>;
let plain: ReturnType<typeof http>;
let anon: ReturnType<typeof http>;
let admin: ReturnType<typeof http>;

beforeAll(async () => {
  emu = await spawnEmulator([
    "--management-key",
    MGMT,
    "--key",
    PLAIN,
    "--default-workspace",
    W1,
    "--workspaces",
    W2,
    "--members",
    MEMBERS.join(","),
    "--key-hashes",
    HASHES.join(","),
    "--max-bulk",
    "5",
  ]);
  api = http(emu.api, MGMT);
  plain = http(emu.api, PLAIN);
  anon = http(emu.api);
  admin = http(emu.url);
});
afterAll(() => emu.stop());
beforeEach(async () => {
  await admin("POST", "/__emulator/reset");
});

const create = async (body: Record<string, unknown>) => {
  const res = await api("POST", "/guardrails", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

function expectError(res: { status: number; body: any }, status: number, mentions?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Object.keys(res.body)).toEqual(["error"]);
  expect(Object.keys(res.body.error).sort()).toEqual(["code", "message", "metadata"]);
  expect(res.body.error.code).toBe(status);
  expect(typeof res.body.error.message).toBe("string");
  expect(res.body.error.metadata === null || typeof res.body.error.metadata === "object").toBe(true);
  if (mentions) expect(res.body.error.message).toMatch(mentions);
}

describe("transport and authentication", () => {
  it("401 for a missing, malformed or unknown key, with the error body", async () => {
    expectError(await anon("GET", "/guardrails"), 401);
    expectError(await http(emu.api)("GET", "/guardrails", undefined, { authorization: `Token ${MGMT}` }), 401);
    expectError(await http(emu.api)("GET", "/guardrails", undefined, { authorization: "Bearer" }), 401);
    expectError(await http(emu.api, "nope")("POST", "/guardrails", { name: "x" }), 401);
    const g = await create({ name: "auth" });
    expectError(await anon("POST", `/guardrails/${g.id}/assignments/members`, { member_user_ids: ["user_a"] }), 401);
    expectError(
      await http(emu.api, "nope")("POST", `/guardrails/${g.id}/assignments/members/remove`, {
        member_user_ids: ["user_a"],
      }),
      401,
    );
  });

  it("403 for a valid non-management key on every one of the 13 operations", async () => {
    const g = await create({ name: "g" });
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/guardrails"],
      ["POST", "/guardrails", { name: "x" }],
      ["GET", `/guardrails/${g.id}`],
      ["PATCH", `/guardrails/${g.id}`, { name: "y" }],
      ["DELETE", `/guardrails/${g.id}`],
      ["GET", `/guardrails/${g.id}/assignments/keys`],
      ["POST", `/guardrails/${g.id}/assignments/keys`, { key_hashes: ["hash_1"] }],
      ["POST", `/guardrails/${g.id}/assignments/keys/remove`, { key_hashes: ["hash_1"] }],
      ["GET", `/guardrails/${g.id}/assignments/members`],
      ["POST", `/guardrails/${g.id}/assignments/members`, { member_user_ids: ["user_a"] }],
      ["POST", `/guardrails/${g.id}/assignments/members/remove`, { member_user_ids: ["user_a"] }],
      ["GET", "/guardrails/assignments/keys"],
      ["GET", "/guardrails/assignments/members"],
    ];
    for (const [method, path, body] of calls) expectError(await plain(method, path, body), 403);
    expect((await api("GET", `/guardrails/${g.id}`)).body.data.name).toBe("g");
  });

  it("400 for an id that is not a UUID, 404 for one that names no guardrail", async () => {
    for (const [m, p, b] of [
      ["GET", ""],
      ["PATCH", "", { name: "x" }],
      ["DELETE", ""],
      ["GET", "/assignments/members"],
      ["POST", "/assignments/members", { member_user_ids: ["user_a"] }],
      ["POST", "/assignments/keys/remove", { key_hashes: ["hash_1"] }],
    ] as const) {
      expectError(await api(m, `/guardrails/not-a-uuid${p}`, b), 400, /id/);
      expectError(await api(m, `/guardrails/${MISSING}${p}`, b), 404);
    }
  });

  it("JSON bodies: malformed JSON and a wrong content type are 400", async () => {
    expectError(await api("POST", "/guardrails", "{not json"), 400, /JSON/);
    expectError(
      await api("POST", "/guardrails", JSON.stringify({ name: "x" }), { "content-type": "text/plain" }),
      400,
      /Content-Type/,
    );
  });
});

describe("create (docs/api-contract.md, spec rules 1-3, rule 1)", () => {
  it("201 {data} with every field; updated_at and enforce_zdr null; the default workspace", async () => {
    const g = await create({ name: "minimal" });
    expect(g).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: "minimal",
      workspace_id: W1,
      created_at: expect.any(String),
      updated_at: null,
      description: null,
      allowed_models: null,
      allowed_providers: null,
      ignored_models: null,
      ignored_providers: null,
      limit_usd: null,
      reset_interval: null,
      enforce_zdr_vendor_a: null,
      enforce_zdr_vendor_b: null,
      enforce_zdr_vendor_c: null,
      enforce_zdr_other: null,
      enforce_zdr: null,
      content_filter_builtins: null,
      content_filters: null,
      // Rule 13: the real service's fields, include_byok_in_budgets always a boolean.
      include_byok_in_budgets: false,
      allowed_data_regions: null,
      enable_free_model_publication: null,
      enable_free_model_training: null,
      enable_paid_model_training: null,
    });
    expect(Number.isNaN(Date.parse(g.created_at))).toBe(false);
  });

  it("an explicit workspace is used; an unknown one is 400; a non-UUID one is 400", async () => {
    expect((await create({ name: "w2", workspace_id: W2 })).workspace_id).toBe(W2);
    expectError(await api("POST", "/guardrails", { name: "x", workspace_id: MISSING }), 400, /workspace_id/);
    expectError(await api("POST", "/guardrails", { name: "x", workspace_id: "ws-1" }), 400, /workspace_id/);
  });

  it("ZDR: enforce_zdr falls back into every per-vendor field not given; an explicit one wins", async () => {
    const all = await create({ name: "zdr", enforce_zdr: true });
    expect([
      all.enforce_zdr_vendor_a,
      all.enforce_zdr_vendor_b,
      all.enforce_zdr_vendor_c,
      all.enforce_zdr_other,
      all.enforce_zdr,
    ]).toEqual([true, true, true, true, true]);
    const mixed = await create({
      name: "zdr2",
      enforce_zdr: false,
      enforce_zdr_vendor_b: true,
      enforce_zdr_other: null,
    });
    expect([
      mixed.enforce_zdr_vendor_a,
      mixed.enforce_zdr_vendor_b,
      mixed.enforce_zdr_vendor_c,
      mixed.enforce_zdr_other,
    ]).toEqual([false, true, false, null]);
    const explicit = await create({ name: "zdr3", enforce_zdr_vendor_c: true });
    expect([explicit.enforce_zdr_vendor_a, explicit.enforce_zdr_vendor_c, explicit.enforce_zdr]).toEqual([
      null,
      true,
      null,
    ]);
  });

  it("name is 1 to 200 characters; description at most 1000", async () => {
    expectError(await api("POST", "/guardrails", {}), 400, /name/);
    expectError(await api("POST", "/guardrails", { name: "" }), 400, /name: must be 1 to 200 characters/);
    expectError(await api("POST", "/guardrails", { name: "n".repeat(201) }), 400, /name/);
    expect((await create({ name: "n".repeat(200), description: "d".repeat(1000) })).name).toHaveLength(200);
    expectError(await api("POST", "/guardrails", { name: "x", description: "d".repeat(1001) }), 400, /description/);
  });

  it("limit_usd is a double; reset_interval one of daily, weekly, monthly", async () => {
    const g = await create({ name: "spend", limit_usd: 12.75, reset_interval: "weekly" });
    expect([g.limit_usd, g.reset_interval]).toEqual([12.75, "weekly"]);
    expectError(await api("POST", "/guardrails", { name: "x", limit_usd: "10" }), 400, /limit_usd/);
    expectError(await api("POST", "/guardrails", { name: "x", reset_interval: "hourly" }), 400, /reset_interval/);
  });

  it("rule 3: every array field is null or non-empty; [] is 400", async () => {
    for (const field of RULE3_LISTS) {
      expectError(await api("POST", "/guardrails", { name: "x", [field]: [] }), 400, new RegExp(field));
      expect((await create({ name: "x", [field]: null }))[field]).toBeNull();
    }
  });

  it("rule 4: slug or canonical in, canonical out, request order, duplicates removed; unknown 400", async () => {
    const g = await create({
      name: "m",
      allowed_models: ["vendor-b/model-m", "vendor-a/model-x", "vendor-a/model-x-20260115", "vendor-b/model-m"],
      ignored_models: ["other-lab/open-model-8b"],
    });
    expect(g.allowed_models).toEqual(["vendor-b/model-m-20260201", "vendor-a/model-x-20260115"]);
    expect(g.ignored_models).toEqual(["other-lab/open-model-8b-20250901"]);
    expectError(
      await api("POST", "/guardrails", { name: "x", allowed_models: ["vendor-a/model-x", "nobody/none"] }),
      400,
      /allowed_models\[1\].*nobody\/none/,
    );
  });

  it("content_filter_builtins: labels set by the server, scan_scope defaults, and the slug/action rules", async () => {
    const g = await create({
      name: "cf",
      content_filter_builtins: [
        { slug: "email", action: "redact", label: "mine" },
        { slug: "regex-prompt-injection", action: "flag" },
        { slug: "ssn", action: "block" },
      ],
      content_filters: [
        { pattern: "secret-\\d+", action: "redact", label: "[SECRET]" },
        { pattern: "forbidden", action: "block" },
      ],
    });
    expect(g.content_filter_builtins).toEqual([
      { slug: "email", action: "redact", label: "[EMAIL]" },
      { slug: "regex-prompt-injection", action: "flag", scan_scope: "all_messages", label: "[PROMPT_INJECTION]" },
      { slug: "ssn", action: "block", label: "[SSN]" },
    ]);
    expect(g.content_filters).toEqual([
      { pattern: "secret-\\d+", action: "redact", label: "[SECRET]" },
      { pattern: "forbidden", action: "block" },
    ]);
    const scoped = await create({
      name: "pi",
      content_filter_builtins: [{ slug: "regex-prompt-injection", action: "block", scan_scope: "user_only" }],
    });
    expect(scoped.content_filter_builtins[0].scan_scope).toBe("user_only");
    const bad = async (builtins: unknown, re: RegExp) =>
      expectError(await api("POST", "/guardrails", { name: "x", content_filter_builtins: builtins }), 400, re);
    await bad([{ slug: "phone", action: "mask" }], /content_filter_builtins\[0\]\.action/);
    await bad([{ slug: "email", action: "block", scan_scope: "user_only" }], /scan_scope/);
    await bad(
      [
        { slug: "email", action: "block" },
        { slug: "email", action: "redact" },
      ],
      /duplicate slug/,
    );
    await bad([{ slug: "passport", action: "block" }], /slug/);
    await bad([{ slug: "regex-prompt-injection", action: "block", scan_scope: "everything" }], /scan_scope/);
  });

  it("content_filters: a pattern that compiles, a valid action, a label of at most 100", async () => {
    const bad = async (filters: unknown, re: RegExp) =>
      expectError(await api("POST", "/guardrails", { name: "x", content_filters: filters }), 400, re);
    await bad([{ pattern: "(unclosed", action: "block" }], /pattern/);
    await bad([{ pattern: "", action: "block" }], /pattern/);
    await bad([{ pattern: "ok", action: "delete" }], /action/);
    await bad([{ pattern: "ok", action: "flag", label: "l".repeat(101) }], /label/);
    expect(
      (await create({ name: "x", content_filters: [{ pattern: "ok", action: "flag", label: "l".repeat(100) }] }))
        .content_filters[0].label,
    ).toHaveLength(100);
  });

  it("every failure of one body is reported at once, each naming its field", async () => {
    const res = await api("POST", "/guardrails", {
      name: "",
      description: 5,
      allowed_models: [],
      reset_interval: "yearly",
      bogus: 1,
    });
    expectError(res, 400);
    const paths = res.body.error.metadata.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["name", "description", "allowed_models", "reset_interval"]));
    expect(res.body.error.message).toMatch(/bogus/);
  });
});

describe("get, list and pagination", () => {
  it("get answers {data}; list answers {data, total_count} for the default workspace, or workspace_id", async () => {
    const a = await create({ name: "a" });
    await create({ name: "b", workspace_id: W2 });
    expect((await api("GET", `/guardrails/${a.id}`)).body).toEqual({ data: a });
    const list = await api("GET", "/guardrails");
    expect(list.body).toEqual({ data: [a], total_count: 1 });
    const w2 = await api("GET", `/guardrails?workspace_id=${W2}`);
    expect(w2.body.data.map((g: { name: string }) => g.name)).toEqual(["b"]);
    expectError(await api("GET", `/guardrails?workspace_id=${MISSING}`), 400, /workspace_id/);
  });

  it("offset >= 0 and limit 1..100 (default 50); out of range is 400", async () => {
    for (let i = 0; i < 55; i++) await create({ name: `g${i}` });
    expect((await api("GET", "/guardrails")).body.data).toHaveLength(50);
    const second = await api("GET", "/guardrails?offset=50&limit=100");
    expect([second.body.data.length, second.body.total_count]).toEqual([5, 55]);
    for (const q of ["offset=-1", "limit=0", "limit=101", "limit=abc", "offset=1.5"])
      expectError(await api("GET", `/guardrails?${q}`), 400, /offset|limit/);
  });

  it("short pages before the end: stepping offset by limit still reaches every row", async () => {
    await admin("PUT", "/__emulator/faults", { shortPages: true });
    const g = await create({ name: "short" });
    await api("POST", `/guardrails/${g.id}/assignments/members`, {
      member_user_ids: ["user_a", "user_b", "user_c", "user_d", "user_e"],
    });
    await api("POST", `/guardrails/${g.id}/assignments/members/remove`, { member_user_ids: ["user_b", "user_c"] });
    await api("POST", `/guardrails/${g.id}/assignments/members`, { member_user_ids: ["user_f", "user_g"] });
    const first = await api("GET", `/guardrails/${g.id}/assignments/members?offset=0&limit=3`);
    expect(first.body.data.length).toBeLessThan(3);
    const seen: string[] = [];
    for (let offset = 0, total = Infinity; offset < total; offset += 3) {
      const page = await api("GET", `/guardrails/${g.id}/assignments/members?offset=${offset}&limit=3`);
      total = page.body.total_count;
      seen.push(...page.body.data.map((r: { user_id: string }) => r.user_id));
    }
    expect(seen.sort()).toEqual(["user_a", "user_d", "user_e", "user_f", "user_g"]);
  });
});

describe("update (docs/api-contract.md rule 2)", () => {
  it("only fields present change; a collection is replaced whole; null clears; updated_at is set", async () => {
    const g = await create({
      name: "u",
      description: "keep",
      allowed_providers: ["p1", "p2"],
      limit_usd: 5,
      reset_interval: "daily",
    });
    const res = await api("PATCH", `/guardrails/${g.id}`, { allowed_providers: ["p3"], limit_usd: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: "u",
      description: "keep",
      allowed_providers: ["p3"],
      limit_usd: null,
      created_at: g.created_at,
    });
    expect(res.body.data.updated_at).toEqual(expect.any(String));
    const empty = await api("PATCH", `/guardrails/${g.id}`, {});
    expect(empty.status).toBe(200);
    expect(empty.body.data.updated_at).toEqual(expect.any(String));
  });

  it("workspace_id cannot change; [] is 400; a 400 changes nothing", async () => {
    const g = await create({ name: "u" });
    expectError(await api("PATCH", `/guardrails/${g.id}`, { workspace_id: W2 }), 400, /workspace_id/);
    expectError(
      await api("PATCH", `/guardrails/${g.id}`, { name: "changed", ignored_providers: [] }),
      400,
      /ignored_providers/,
    );
    expectError(
      await api("PATCH", `/guardrails/${g.id}`, { name: "changed", allowed_models: ["ghost/model"] }),
      400,
      /allowed_models/,
    );
    expect((await api("GET", `/guardrails/${g.id}`)).body.data.name).toBe("u");
  });

  it("enforce_zdr in a PATCH falls back into the per-vendor fields not given in the same request", async () => {
    const g = await create({ name: "z", enforce_zdr_vendor_a: false, enforce_zdr_vendor_b: false });
    const res = await api("PATCH", `/guardrails/${g.id}`, { enforce_zdr: true, enforce_zdr_vendor_b: false });
    expect(res.body.data).toMatchObject({
      enforce_zdr: true,
      enforce_zdr_vendor_a: true,
      enforce_zdr_vendor_b: false,
      enforce_zdr_vendor_c: true,
      enforce_zdr_other: true,
    });
    const only = await api("PATCH", `/guardrails/${g.id}`, { enforce_zdr_other: false });
    expect(only.body.data).toMatchObject({ enforce_zdr: true, enforce_zdr_vendor_a: true, enforce_zdr_other: false });
  });
});

describe("assignments (docs/api-contract.md rules 5-9)", () => {
  const assign = (id: string, kind: "members" | "keys", ids: unknown) =>
    api(
      "POST",
      `/guardrails/${id}/assignments/${kind}`,
      kind === "members" ? { member_user_ids: ids } : { key_hashes: ids },
    );
  const unassign = (id: string, kind: "members" | "keys", ids: unknown) =>
    api(
      "POST",
      `/guardrails/${id}/assignments/${kind}/remove`,
      kind === "members" ? { member_user_ids: ids } : { key_hashes: ids },
    );
  const listed = async (id: string, kind: "members" | "keys") =>
    (await api("GET", `/guardrails/${id}/assignments/${kind}?limit=100`)).body.data
      .map((r: any) => r.user_id ?? r.key_hash)
      .sort();

  it("rule 5: counts new placements; skips repeats, ids already here and non-members; records have the contract's fields", async () => {
    const g = await create({ name: "m" });
    const res = await assign(g.id, "members", ["user_a", "user_b", "user_a", "user_nobody"]);
    expect(res).toMatchObject({ status: 200, body: { assigned_count: 2 } });
    expect((await assign(g.id, "members", ["user_a", "user_c"])).body.assigned_count).toBe(1);
    const rows = (await api("GET", `/guardrails/${g.id}/assignments/members`)).body;
    expect(rows.total_count).toBe(3);
    expect(rows.data[0]).toEqual({
      id: expect.any(String),
      user_id: "user_a",
      organization_id: expect.any(String),
      guardrail_id: g.id,
      assigned_by: null,
      created_at: expect.any(String),
    });
  });

  it("rule 5: a member holds one guardrail per workspace; a move counts and leaves the old guardrail", async () => {
    const g1 = await create({ name: "g1" });
    const g2 = await create({ name: "g2" });
    const other = await create({ name: "g3", workspace_id: W2 });
    await assign(g1.id, "members", ["user_a", "user_b"]);
    expect((await assign(g2.id, "members", ["user_a"])).body.assigned_count).toBe(1);
    expect(await listed(g1.id, "members")).toEqual(["user_b"]);
    expect(await listed(g2.id, "members")).toEqual(["user_a"]);
    expect((await assign(other.id, "members", ["user_a"])).body.assigned_count).toBe(1);
    expect(await listed(g2.id, "members")).toEqual(["user_a"]);
    const all = (await api("GET", "/guardrails/assignments/members")).body;
    expect(all.total_count).toBe(3);
  });

  it("rule 6: a key holds one guardrail at all, across workspaces", async () => {
    const g1 = await create({ name: "k1" });
    const g2 = await create({ name: "k2", workspace_id: W2 });
    expect((await assign(g1.id, "keys", ["hash_1", "hash_2", "hash_unknown"])).body.assigned_count).toBe(2);
    expect((await assign(g2.id, "keys", ["hash_1"])).body.assigned_count).toBe(1);
    expect(await listed(g1.id, "keys")).toEqual(["hash_2"]);
    const row = (await api("GET", `/guardrails/${g2.id}/assignments/keys`)).body.data[0];
    expect(row).toEqual({
      id: expect.any(String),
      key_hash: "hash_1",
      guardrail_id: g2.id,
      key_name: expect.any(String),
      key_label: expect.any(String),
      assigned_by: null,
      created_at: expect.any(String),
    });
    expect((await api("GET", "/guardrails/assignments/keys")).body.total_count).toBe(2);
  });

  it("rule 7: unassign removes only this guardrail's assignments and is idempotent", async () => {
    const g1 = await create({ name: "u1" });
    const g2 = await create({ name: "u2", workspace_id: W2 });
    await assign(g1.id, "members", ["user_a", "user_b"]);
    await assign(g2.id, "members", ["user_c"]);
    expect((await unassign(g1.id, "members", ["user_a", "user_c", "user_a"])).body).toEqual({ unassigned_count: 1 });
    expect((await unassign(g1.id, "members", ["user_a"])).body).toEqual({ unassigned_count: 0 });
    expect(await listed(g2.id, "members")).toEqual(["user_c"]);
    expect((await unassign(g2.id, "keys", ["hash_1"])).body).toEqual({ unassigned_count: 0 });
  });

  it("rule 8: the array is required, non-empty, of non-empty strings, at most the maximum (named)", async () => {
    const g = await create({ name: "b" });
    for (const kind of ["members", "keys"] as const) {
      expectError(
        await api("POST", `/guardrails/${g.id}/assignments/${kind}`, {}),
        400,
        kind === "members" ? /member_user_ids/ : /key_hashes/,
      );
      expectError(await assign(g.id, kind, []), 400);
      expectError(await assign(g.id, kind, [""]), 400);
      expectError(await assign(g.id, kind, [1]), 400);
      expectError(await unassign(g.id, kind, "user_a"), 400);
      expectError(await assign(g.id, kind, ["a", "b", "c", "d", "e", "f"]), 400, /maximum of 5/);
      expectError(await unassign(g.id, kind, ["a", "b", "c", "d", "e", "f"]), 400, /maximum of 5/);
    }
  });

  it("rule 9: deleting a guardrail deletes its assignments; delete answers {deleted: true} then 404", async () => {
    const g = await create({ name: "d" });
    await assign(g.id, "members", ["user_a"]);
    await assign(g.id, "keys", ["hash_1"]);
    expect((await api("DELETE", `/guardrails/${g.id}`)).body).toEqual({ deleted: true });
    expectError(await api("DELETE", `/guardrails/${g.id}`), 404);
    expect((await api("GET", "/guardrails/assignments/members")).body.total_count).toBe(0);
    expect((await api("GET", "/guardrails/assignments/keys")).body.total_count).toBe(0);
    const g2 = await create({ name: "d2" });
    expect((await assign(g2.id, "keys", ["hash_1"])).body.assigned_count).toBe(1);
  });
});

describe("what the real service sends (docs/api-contract.md rules 10-15)", () => {
  const RULE_13 = [
    "include_byok_in_budgets",
    "allowed_data_regions",
    "enable_free_model_publication",
    "enable_free_model_training",
    "enable_paid_model_training",
  ];

  it("rule 10: every guardrail answer (create, get, list, update) carries include_byok_in_budgets, a boolean", async () => {
    const g = await create({ name: "byok" });
    const answers = [
      g,
      (await api("GET", `/guardrails/${g.id}`)).body.data,
      ...(await api("GET", "/guardrails")).body.data,
      ...(await api("GET", `/guardrails?workspace_id=${W1}`)).body.data,
      (await api("PATCH", `/guardrails/${g.id}`, { name: "byok2" })).body.data,
    ];
    expect(answers).toHaveLength(5);
    for (const a of answers) {
      expect(a.include_byok_in_budgets).toBe(false);
      for (const key of RULE_13) expect(Object.keys(a)).toContain(key);
    }
  });

  it("rule 11: the service takes flag on every builtin and has the secrets slug; unknown slugs and actions are still 400", async () => {
    const pii = ["email", "phone", "ssn", "credit-card", "ip-address", "person-name", "address", "secrets"];
    const g = await create({ name: "flags", content_filter_builtins: pii.map((slug) => ({ slug, action: "flag" })) });
    expect(
      g.content_filter_builtins.map(
        (b: { slug: string; action: string; label: string }) => `${b.slug}:${b.action}:${b.label}`,
      ),
    ).toEqual([
      "email:flag:[EMAIL]",
      "phone:flag:[PHONE]",
      "ssn:flag:[SSN]",
      "credit-card:flag:[CREDIT_CARD]",
      "ip-address:flag:[IP_ADDRESS]",
      "person-name:flag:[PERSON_NAME]",
      "address:flag:[ADDRESS]",
      "secrets:flag:[SECRETS]",
    ]);
    expect(g.content_filter_builtins.every((b: object) => !("scan_scope" in b))).toBe(true);
    expectError(
      await api("POST", "/guardrails", {
        name: "x",
        content_filter_builtins: [{ slug: "secrets", action: "block", scan_scope: "user_only" }],
      }),
      400,
      /scan_scope/,
    );
    expectError(
      await api("POST", "/guardrails", { name: "x", content_filter_builtins: [{ slug: "passport", action: "block" }] }),
      400,
      /content_filter_builtins\[0\]\.slug/,
    );
    expectError(
      await api("POST", "/guardrails", { name: "x", content_filter_builtins: [{ slug: "email", action: "mask" }] }),
      400,
      /content_filter_builtins\[0\]\.action/,
    );
  });

  it("rule 13: the five fields are taken on create and PATCH, only fields present change, null clears", async () => {
    const g = await create({
      name: "r13",
      include_byok_in_budgets: true,
      allowed_data_regions: ["europe", "us"],
      enable_free_model_publication: false,
      enable_free_model_training: true,
      enable_paid_model_training: false,
    });
    expect(g).toMatchObject({
      include_byok_in_budgets: true,
      allowed_data_regions: ["europe", "us"],
      enable_free_model_publication: false,
      enable_free_model_training: true,
      enable_paid_model_training: false,
    });
    expect((await api("GET", `/guardrails/${g.id}`)).body.data).toEqual(g);
    const one = (await api("PATCH", `/guardrails/${g.id}`, { allowed_data_regions: ["global"] })).body.data;
    expect(one).toMatchObject({
      include_byok_in_budgets: true,
      allowed_data_regions: ["global"],
      enable_free_model_publication: false,
      enable_free_model_training: true,
      enable_paid_model_training: false,
    });
    const cleared = (
      await api("PATCH", `/guardrails/${g.id}`, {
        include_byok_in_budgets: false,
        allowed_data_regions: null,
        enable_free_model_publication: null,
        enable_free_model_training: null,
        enable_paid_model_training: true,
      })
    ).body.data;
    expect(cleared).toMatchObject({
      include_byok_in_budgets: false,
      allowed_data_regions: null,
      enable_free_model_publication: null,
      enable_free_model_training: null,
      enable_paid_model_training: true,
    });
  });

  it("rule 13: allowed_data_regions [] or an unknown region is 400; include_byok_in_budgets takes no null; a 400 changes nothing", async () => {
    const g = await create({ name: "r13bad", include_byok_in_budgets: true });
    expectError(
      await api("POST", "/guardrails", { name: "x", allowed_data_regions: [] }),
      400,
      /allowed_data_regions: must be null or a non-empty array/,
    );
    expectError(
      await api("POST", "/guardrails", { name: "x", allowed_data_regions: ["mars"] }),
      400,
      /allowed_data_regions\[0\]: must be one of global, europe, us/,
    );
    expectError(
      await api("POST", "/guardrails", { name: "x", include_byok_in_budgets: null }),
      400,
      /include_byok_in_budgets/,
    );
    for (const field of ["enable_free_model_publication", "enable_free_model_training", "enable_paid_model_training"]) {
      expectError(await api("POST", "/guardrails", { name: "x", [field]: "yes" }), 400, new RegExp(field));
    }
    expectError(
      await api("PATCH", `/guardrails/${g.id}`, { name: "changed", include_byok_in_budgets: null }),
      400,
      /include_byok_in_budgets/,
    );
    expectError(
      await api("PATCH", `/guardrails/${g.id}`, { name: "changed", allowed_data_regions: [] }),
      400,
      /allowed_data_regions/,
    );
    expect((await api("GET", `/guardrails/${g.id}`)).body.data).toMatchObject({
      name: "r13bad",
      include_byok_in_budgets: true,
    });
  });

  it("rule 14: create with only one of limit_usd and reset_interval is 400 naming both; both or neither is fine", async () => {
    for (const body of [
      { limit_usd: 10 },
      { reset_interval: "monthly" },
      { limit_usd: 10, reset_interval: null },
      { limit_usd: null, reset_interval: "daily" },
    ]) {
      const res = await api("POST", "/guardrails", { name: "half", ...body });
      expectError(res, 400, /limit_usd and reset_interval must be given together/);
    }
    expect((await api("GET", "/guardrails")).body.total_count).toBe(0);
    expect(await create({ name: "both", limit_usd: 10, reset_interval: "monthly" })).toMatchObject({
      limit_usd: 10,
      reset_interval: "monthly",
    });
    expect(await create({ name: "neither", limit_usd: null, reset_interval: null })).toMatchObject({
      limit_usd: null,
      reset_interval: null,
    });
  });

  it("rule 15: an update can answer 409 with the usual error body and change nothing; 400 and 404 come first", async () => {
    const g = await create({ name: "c" });
    expect((await admin("PUT", "/__emulator/faults", { updateConflicts: 2 })).body.updateConflicts).toBe(2);
    expectError(await api("PATCH", `/guardrails/${g.id}`, { name: "" }), 400, /name/);
    expectError(await api("PATCH", `/guardrails/${MISSING}`, { name: "x" }), 404);
    expectError(await api("PATCH", `/guardrails/${g.id}`, { name: "first" }), 409, new RegExp(g.id));
    expectError(await api("PATCH", `/guardrails/${g.id}`, { name: "second" }), 409);
    expect((await api("GET", `/guardrails/${g.id}`)).body.data).toEqual(g);
    expect((await admin("GET", "/__emulator/faults")).body.updateConflicts).toBe(0);
    expect((await api("PATCH", `/guardrails/${g.id}`, { name: "third" })).body.data.name).toBe("third");
    const log = (await admin("GET", "/__emulator/log")).body.entries.filter(
      (e: { operation: string }) => e.operation === "updateGuardrail",
    );
    expect(log.map((e: { status: number; fault?: string }) => `${e.status}${e.fault ? `:${e.fault}` : ""}`)).toEqual([
      "400",
      "404",
      "409:conflict",
      "409:conflict",
      "200",
    ]);
  });
});

describe("guardrails reshaped by hand (PATCH /__emulator/guardrails/{id}) are served as stored", () => {
  const reshape = (id: string, change: unknown) => admin("PATCH", `/__emulator/guardrails/${id}`, change);

  it("any optional key absent: get and list serve the guardrail without it", async () => {
    const g = await create({ name: "absent" });
    const optional = Object.keys(g).filter((k) => !["id", "name", "created_at"].includes(k));
    expect(optional).toHaveLength(21);
    for (const key of optional) {
      const fresh = await create({ name: `absent-${key}` });
      expect((await reshape(fresh.id, { remove: [key] })).status).toBe(200);
      const got = (await api("GET", `/guardrails/${fresh.id}`)).body.data;
      expect(Object.keys(got)).not.toContain(key);
      expect(Object.keys(got)).toHaveLength(23);
    }
  });

  it("null workspace, secrets and an unknown slug, flag on a PII slug, new reset_interval and scan_scope, extra fields", async () => {
    const g = await create({ name: "odd", limit_usd: 1, reset_interval: "daily" });
    const builtins = [
      { slug: "secrets", action: "redact", label: "[SECRETS]" },
      { slug: "face-detector", action: "blur", label: "[FACE]" },
      { slug: "email", action: "flag", label: "[EMAIL]" },
      { slug: "regex-prompt-injection", action: "block", scan_scope: "tool_calls_only", label: "[PROMPT_INJECTION]" },
    ];
    const res = await reshape(g.id, {
      set: {
        workspace_id: null,
        content_filter_builtins: builtins,
        reset_interval: "hourly",
        enforce_zdr_vendor_d: true,
        audit: { by: "someone" },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const expected = {
      ...g,
      workspace_id: null,
      content_filter_builtins: builtins,
      reset_interval: "hourly",
      enforce_zdr_vendor_d: true,
      audit: { by: "someone" },
    };
    expect(res.body.data).toEqual(expected);
    expect((await api("GET", `/guardrails/${g.id}`)).body.data).toEqual(expected);
    // A guardrail without a workspace is listed with the default workspace's (it has none of its own).
    expect((await api("GET", "/guardrails")).body).toEqual({ data: [expected], total_count: 1 });
    expect((await api("GET", `/guardrails?workspace_id=${W2}`)).body.total_count).toBe(0);
    // An API PATCH changes only what it names and keeps what it does not know.
    const patched = (await api("PATCH", `/guardrails/${g.id}`, { description: "after" })).body.data;
    expect(patched).toEqual({ ...expected, description: "after", updated_at: expect.any(String) });
  });

  it("refuses what rule 10 forbids, needs the admin header, and names no guardrail it cannot find", async () => {
    const g = await create({ name: "keep" });
    expectError(await reshape(g.id, { remove: ["id"] }), 400, /id/);
    expectError(await reshape(g.id, { remove: ["name", "created_at"] }), 400, /name[\s\S]*created_at/);
    expectError(await reshape(g.id, { set: { id: "x" } }), 400, /id cannot change/);
    expectError(await reshape(g.id, { set: { name: 5 } }), 400, /set\.name/);
    expectError(await reshape(g.id, { sett: {} }), 400, /sett/);
    expectError(await reshape(MISSING, { set: { x: 1 } }), 404);
    expectError(await reshape("not-a-uuid", { set: { x: 1 } }), 400, /id/);
    expectError(await reshape("%E0%A4%A", { set: { x: 1 } }), 400, /id/);
    const noHeader = await fetch(`${emu.url}/__emulator/guardrails/${g.id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set: { name: "pwned" } }),
    });
    expect(noHeader.status).toBe(403);
    expect((await api("GET", `/guardrails/${g.id}`)).body.data).toEqual(g);
  });
});

describe("the spec's Errors table: 500 on create, bulk assign and bulk unassign", () => {
  it("answers 500-class errors with the error body when the service fails", async () => {
    const g = await create({ name: "e" });
    await admin("PUT", "/__emulator/faults", { errorRate: 1 });
    for (const res of [
      await api("POST", "/guardrails", { name: "x" }),
      await api("POST", `/guardrails/${g.id}/assignments/members`, { member_user_ids: ["user_a"] }),
      await api("POST", `/guardrails/${g.id}/assignments/members/remove`, { member_user_ids: ["user_a"] }),
    ]) {
      expect([500, 502, 503]).toContain(res.status);
      expect(res.body.error.code).toBe(res.status);
    }
    await admin("PUT", "/__emulator/faults", { errorRate: 0 });
    expect((await api("GET", "/guardrails")).body.total_count).toBe(1);
  });
});
