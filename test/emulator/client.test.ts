/** GuardrailsClient driving all 13 operations against the emulator over real HTTP. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  collect,
  ConnectionError,
  GuardrailsClient,
  NotFoundError,
  PermissionError,
  AuthenticationError,
  ValidationError,
  ServerError,
} from "../../src/core/client";
import { TEST_KEY, withEmulator } from "../helpers/emulator";

let emu: Awaited<ReturnType<typeof withEmulator>>;
let client: GuardrailsClient;
beforeAll(async () => {
  emu = await withEmulator({
    keys: ["plain-key-1"],
    members: Array.from({ length: 250 }, (_, i) => `user_${i}`),
    keyHashes: ["h1", "h2", "h3"],
  });
  client = emu.client();
});
afterEach(() => emu.setFaults({ errorRate: 0, rateLimitRate: 0, dropAfterApplyRate: 0 }));
afterAll(async () => {
  await client.close();
  await emu.close();
});

describe("GuardrailsClient", () => {
  it("drives all 13 operations", async () => {
    const g = await client.createGuardrail({
      name: "all-ops",
      allowed_models: ["vendor-a/model-x"],
      enforce_zdr: true,
    });
    expect(g.allowed_models).toEqual(["vendor-a/model-x-20260115"]);
    expect((await client.getGuardrail(g.id)).name).toBe("all-ops");
    expect((await client.updateGuardrail(g.id, { description: "changed" })).description).toBe("changed");
    expect((await collect(client.listGuardrails())).map((x) => x.id)).toContain(g.id);
    const members = Array.from({ length: 250 }, (_, i) => `user_${i}`);
    expect(await client.assignMembers(g.id, members.slice(0, 200))).toBe(200);
    expect(await client.assignMembers(g.id, members.slice(200))).toBe(50);
    expect((await collect(client.listMemberAssignments(g.id))).length).toBe(250);
    expect((await collect(client.listAllMemberAssignments())).length).toBe(250);
    expect(await client.unassignMembers(g.id, ["user_0", "user_1"])).toBe(2);
    expect(await client.assignKeys(g.id, ["h1", "h2"])).toBe(2);
    expect((await collect(client.listKeyAssignments(g.id))).map((k) => k.key_hash).sort()).toEqual(["h1", "h2"]);
    expect((await collect(client.listAllKeyAssignments())).length).toBe(2);
    expect(await client.unassignKeys(g.id, ["h1"])).toBe(1);
    await client.deleteGuardrail(g.id);
    await expect(client.getGuardrail(g.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("pages with limit 100, each sharing a row with the one before, and counts calls: 250 rows take 3 list calls", async () => {
    const g = await client.createGuardrail({ name: "pages" });
    await client.assignMembers(
      g.id,
      Array.from({ length: 250 }, (_, i) => `user_${i}`),
    );
    await emu.clearLog();
    expect((await collect(client.listMemberAssignments(g.id))).length).toBe(250);
    const log = await emu.log();
    expect(log.counts).toEqual({ listGuardrailMemberAssignments: 3 });
    expect(log.entries.map((e) => e.query)).toEqual([
      "?offset=0&limit=100",
      "?offset=99&limit=100",
      "?offset=198&limit=100",
    ]);
    await client.deleteGuardrail(g.id);
  });

  it("maps statuses to the error classes, with the server's message and no key", async () => {
    const err = await client.createGuardrail({ name: "" }).catch((e) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/guardrails: 400 Bad Request: name: must be 1 to 200 characters$/,
    );
    const plain = new GuardrailsClient({ baseUrl: emu.url, apiKey: "plain-key-1" });
    await expect(plain.getGuardrail("00000000-0000-4000-8000-00000000000f")).rejects.toBeInstanceOf(PermissionError);
    const wrong = new GuardrailsClient({ baseUrl: emu.url, apiKey: "wrong-key-123" });
    const authErr = await collect(wrong.listGuardrails()).catch((e) => e);
    expect(authErr).toBeInstanceOf(AuthenticationError);
    expect(String(authErr.message) + String(authErr.stack)).not.toContain("wrong-key-123");
    expect(String(err.message)).not.toContain(TEST_KEY);
  });

  it("retries 5xx and 429 on idempotent calls until they pass", async () => {
    const g = await client.createGuardrail({ name: "retry" });
    await emu.clearLog();
    await emu.setFaults({ errorRate: 0.5, seed: 9 });
    for (let i = 0; i < 5; i++) await client.updateGuardrail(g.id, { limit_usd: i });
    await emu.setFaults({ errorRate: 0, rateLimitRate: 0.3, rateLimitBurst: 2, retryAfterSeconds: 0, seed: 4 });
    const patient = emu.client({ retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 2 } });
    for (let i = 0; i < 5; i++) expect((await patient.getGuardrail(g.id)).limit_usd).toBe(4);
    const log = await emu.log();
    expect(log.entries.filter((e) => e.fault === "server-error").length).toBeGreaterThan(0);
    expect(log.entries.filter((e) => e.status === 429).length).toBeGreaterThanOrEqual(2);
  });

  it("gives up after the attempt cap, raising the last error", async () => {
    await emu.setFaults({ errorRate: 1 });
    await emu.clearLog();
    const capped = emu.client({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(collect(capped.listGuardrails())).rejects.toBeInstanceOf(ServerError);
    expect((await emu.log()).total).toBe(3);
    await emu.setFaults({ errorRate: 0 });
  });

  it("never repeats a create after it may have reached the server (drop after apply)", async () => {
    await emu.setFaults({ dropAfterApplyRate: 1 });
    await emu.clearLog();
    const err = await client.createGuardrail({ name: "once-only" }).catch((e) => e);
    await emu.setFaults({ dropAfterApplyRate: 0 });
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.requestSent).toBe(true);
    expect((await emu.log()).counts).toEqual({ createGuardrail: 1 });
    expect((await collect(client.listGuardrails())).filter((x) => x.name === "once-only")).toHaveLength(1);
  });

  it("retries a create whose connection failed before anything was sent", async () => {
    const tries: number[] = [];
    const dead = new GuardrailsClient({
      baseUrl: "http://127.0.0.1:1",
      apiKey: TEST_KEY,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
      retryHooks: { onRetry: (_e, attempt) => tries.push(attempt) },
    });
    const err = await dead.createGuardrail({ name: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.requestSent).toBe(false);
    expect(tries).toEqual([1, 2]);
    await dead.close();
  });

  it("does not follow redirects and rejects a surprise shape", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => {
      if (req.url?.includes("redirect")) {
        res.writeHead(302, { location: "http://127.0.0.1:9/steal" });
        return res.end();
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: { id: 5 } }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const c = new GuardrailsClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: TEST_KEY,
      retry: { maxAttempts: 1 },
    });
    const shape = await c.getGuardrail("00000000-0000-4000-8000-000000000001").catch((e) => e);
    expect(shape.name).toBe("ResponseShapeError");
    expect(shape.message).toMatch(/unexpected response shape \(data\.id: /);
    const redirect = await c.getGuardrail("redirect").catch((e) => e);
    expect(redirect.name).toBe("UnexpectedStatusError");
    expect(redirect.message).toMatch(/302.*redirects are not followed/);
    await c.close();
    server.close();
  });

  it("refuses a non-loopback http base URL", () => {
    expect(() => new GuardrailsClient({ baseUrl: "http://api.example.com", apiKey: "k" })).toThrow(
      /must use https unless the host is loopback/,
    );
    expect(() => new GuardrailsClient({ baseUrl: "https://api.example.com", apiKey: "k" })).not.toThrow();
    expect(() => new GuardrailsClient({ baseUrl: "http://localhost:8787", apiKey: "k" })).not.toThrow();
  });
});
