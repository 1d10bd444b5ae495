/**
 * The emulator's request log keeps each write's JSON body, so a test can assert what a PATCH
 * carried, and keeps no key: a configured key, a bearer token, an `sk-...` key or any value of a
 * key-like field is redacted before the body is measured and bounded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { LOG_BODY_CHARS, RequestLog } from "../../emulator/request-log";
import { reshapeGuardrail, TEST_KEY, withEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

let emu: Awaited<ReturnType<typeof withEmulator>>;
let api: ReturnType<typeof http>;
beforeAll(async () => {
  emu = await withEmulator();
  api = http(`${emu.url}/api/v1`, TEST_KEY);
});
afterAll(() => emu.close());
beforeEach(() => emu.clearLog());

describe("request bodies in the emulator's log", () => {
  it("a PATCH's exact body, a create's and a bulk call's; GET and DELETE have none", async () => {
    const id = (await api("POST", "/guardrails", { name: "logged", limit_usd: 2, reset_interval: "daily" })).body.data
      .id;
    await api("PATCH", `/guardrails/${id}`, { description: null, allowed_data_regions: ["us"] });
    await api("POST", `/guardrails/${id}/assignments/keys`, { key_hashes: ["a1b2c3d4e5f60718"] });
    await api("GET", `/guardrails/${id}`);
    await api("DELETE", `/guardrails/${id}`);
    const entries = (await emu.log()).entries;
    expect(entries.map((e) => [e.operation, e.status, e.body])).toEqual([
      ["createGuardrail", 201, { name: "logged", limit_usd: 2, reset_interval: "daily" }],
      ["updateGuardrail", 200, { description: null, allowed_data_regions: ["us"] }],
      ["assignKeys", 200, { key_hashes: ["a1b2c3d4e5f60718"] }],
      ["getGuardrail", 200, undefined],
      ["deleteGuardrail", 200, undefined],
    ]);
  });

  it("a refused body is logged too (a 400 and an injected 429), an unparsable one is not", async () => {
    await api("POST", "/guardrails", { name: "" });
    await api("POST", "/guardrails", "{oops");
    await emu.setFaults({ rateLimitRate: 1, rateLimitBurst: 1 });
    await api("POST", "/guardrails", { name: "limited" });
    await emu.setFaults({ rateLimitRate: 0 });
    expect((await emu.log()).entries.map((e) => [e.status, e.body])).toEqual([
      [400, { name: "" }],
      [400, undefined],
      [429, { name: "limited" }],
    ]);
  });

  it("never holds a key: the configured key anywhere in a body, bearer tokens, sk- keys and key-like fields are redacted", async () => {
    await api("POST", "/guardrails", {
      name: `leak ${TEST_KEY} here`,
      description: "Authorization: Bearer abc.def.ghi and sk-or-v1-0123456789abcdef",
      api_key: "whatever",
      token: { nested: "x" },
      [TEST_KEY]: 1,
      content_filters: [{ pattern: TEST_KEY, action: "block" }],
    });
    const entry = (await emu.log()).entries[0]!;
    const text = JSON.stringify(entry);
    expect(text).not.toContain(TEST_KEY);
    expect(text).not.toContain("abc.def.ghi");
    expect(text).not.toContain("0123456789abcdef");
    expect(entry.body).toEqual({
      name: "leak [REDACTED] here",
      description: "Authorization: [REDACTED] and [REDACTED]",
      api_key: "[REDACTED]",
      token: "[REDACTED]",
      "[REDACTED]": 1,
      content_filters: [{ pattern: "[REDACTED]", action: "block" }],
    });
  });

  it("stays bounded: a huge body is kept as truncated text, bodies share a budget, deep nesting is cut", () => {
    const log = new RequestLog(100, ["secret-key-123"], 200_000);
    const base = { method: "POST", path: "/p", query: "", operation: "createGuardrail" as const, status: 400 };
    log.add({ ...base, body: { name: "x".repeat(LOG_BODY_CHARS) + "secret-key-123" } });
    const huge = log.entries[0]!;
    expect(huge.body).toBeUndefined();
    expect(huge.bodyTruncated).toHaveLength(LOG_BODY_CHARS);
    for (let i = 0; i < 10; i++) log.add({ ...base, body: { name: "y".repeat(30_000) } });
    const kept = log.entries.filter((e) => e.body !== undefined || e.bodyTruncated !== undefined);
    expect(kept.length).toBeLessThanOrEqual(6);
    expect(log.entries[0]!.bodyDropped).toBe(true);
    expect(log.entries.at(-1)!.body).toEqual({ name: "y".repeat(30_000) });
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    log.add({ ...base, body: deep });
    expect(JSON.stringify(log.entries.at(-1)!.body)).toContain("[too deep]");
  });

  it("never holds a key sent in the URL: a path segment or a query value, plain or percent-encoded, in the log and in --log-requests", async () => {
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (printed.push(String(chunk)), true));
    const loud = await withEmulator({ logRequests: true });
    try {
      const call = http(`${loud.url}/api/v1`, TEST_KEY);
      const encoded = [...TEST_KEY].map((c) => `%${c.charCodeAt(0).toString(16)}`).join("");
      await call("GET", `/guardrails/${TEST_KEY}`);
      await call("GET", `/guardrails/${encoded}/assignments/keys`);
      await call(
        "GET",
        `/guardrails?offset=0&api_key=whatever&limit=5&q=${encoded}&auth=Bearer%20abc.def&sk-or-v1-0123456789abcdef`,
      );
      const entries = (await loud.log()).entries;
      const shown = [JSON.stringify(entries), ...printed.filter((l) => l.startsWith("GET "))].join("\n");
      for (const leak of [TEST_KEY, encoded, "whatever", "abc.def", "0123456789abcdef"])
        expect(shown).not.toContain(leak);
      expect(entries.map((e) => `${e.path}${e.query}`)).toEqual([
        "/api/v1/guardrails/[REDACTED]",
        "/api/v1/guardrails/[REDACTED]/assignments/keys",
        "/api/v1/guardrails?offset=0&api_key=[REDACTED]&limit=5&q=[REDACTED]&auth=[REDACTED]&[REDACTED]",
      ]);
      expect(printed.filter((l) => l.startsWith("GET ")).map((l) => l.split(" -> ")[0])).toEqual(
        entries.map((e) => `GET ${e.path}${e.query}`),
      );
    } finally {
      write.mockRestore();
      await loud.close();
    }
  });

  it("a configured key with URL-special characters is redacted whether sent literally or encoded", () => {
    const key = "k+ey/with&odd=chars";
    const log = new RequestLog(100, [key]);
    const base = { method: "GET", operation: null, status: 404 };
    log.add({ ...base, path: `/api/v1/guardrails/${key}`, query: `?a=${key}&b=1` });
    log.add({ ...base, path: `/api/v1/guardrails/${encodeURIComponent(key)}`, query: `?a=${encodeURIComponent(key)}` });
    expect(log.entries.map((e) => `${e.path}${e.query}`)).toEqual([
      "/api/v1/guardrails/[REDACTED]?a=[REDACTED]&b=1",
      "/api/v1/guardrails/[REDACTED]?a=[REDACTED]",
    ]);
  });

  it("the helper reshapes a guardrail by hand and the API serves it as stored", async () => {
    const id = (await api("POST", "/guardrails", { name: "by hand" })).body.data.id;
    const stored = await reshapeGuardrail(emu.url, id, {
      set: { workspace_id: null, extra: [1] },
      remove: ["include_byok_in_budgets"],
    });
    expect(stored).toMatchObject({ id, workspace_id: null, extra: [1] });
    expect((await api("GET", `/guardrails/${id}`)).body.data).toEqual(stored);
    await expect(reshapeGuardrail(emu.url, id, { remove: ["id"] })).rejects.toThrow(/400/);
  });
});
