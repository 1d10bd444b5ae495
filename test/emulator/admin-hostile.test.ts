/**
 * The emulator's admin endpoints against a web page the developer happens to open: a page can
 * send a simple cross-origin request (no custom header, a form or text body) without a
 * preflight, so each admin call needs the admin header and, when it changes something, a JSON
 * body. And the request log stays bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestLog } from "../../emulator/request-log";
import { withEmulator } from "../helpers/emulator";

let emu: Awaited<ReturnType<typeof withEmulator>>;
beforeAll(async () => {
  emu = await withEmulator();
});
afterAll(() => emu.close());

const raw = (method: string, path: string, init: RequestInit = {}) => fetch(`${emu.url}${path}`, { method, ...init });

describe("emulator admin endpoints", () => {
  it("a simple cross-origin POST /__emulator/reset (no header, no body) is refused and resets nothing", async () => {
    const id = (await emu.client().createGuardrail({ name: "keep me" })).id;
    const res = await raw("POST", "/__emulator/reset");
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("x-guardrails-emulator: 1");
    const form = await raw("POST", "/__emulator/reset", { headers: { "content-type": "text/plain" }, body: "{}" });
    expect(form.status).toBe(403);
    expect((await emu.client().getGuardrail(id)).name).toBe("keep me");
  });

  it("with the header, a change still needs a JSON body; reads need only the header", async () => {
    const headers = { "x-guardrails-emulator": "1" };
    expect((await raw("POST", "/__emulator/reset", { headers })).status).toBe(400);
    expect(
      (await raw("POST", "/__emulator/reset", { headers: { ...headers, "content-type": "text/plain" }, body: "{}" }))
        .status,
    ).toBe(400);
    expect(
      (
        await raw("POST", "/__emulator/reset", {
          headers: { ...headers, "content-type": "application/json" },
          body: "{}",
        })
      ).status,
    ).toBe(200);
    expect((await raw("GET", "/__emulator/state")).status).toBe(403);
    expect((await raw("GET", "/__emulator/state", { headers })).status).toBe(200);
    expect(
      (await raw("PUT", "/__emulator/faults", { headers: { "content-type": "application/json" }, body: "{}" })).status,
    ).toBe(403);
  });

  it("a CORS preflight gets no allow headers", async () => {
    const res = await raw("OPTIONS", "/__emulator/reset", {
      headers: {
        origin: "https://evil.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-guardrails-emulator",
      },
    });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-headers")).toBeNull();
  });

  it("the request log keeps at most its cap of entries, with exact counts", async () => {
    const log = new RequestLog(5);
    for (let i = 0; i < 23; i++)
      log.add({ method: i % 2 ? "GET" : "POST", path: "/p", query: "", operation: "getGuardrail", status: 200 });
    const s = log.summary();
    expect(s.entries.map((e) => e.seq)).toEqual([19, 20, 21, 22, 23]);
    expect([s.total, s.writes, s.counts.getGuardrail, s.dropped, s.cap]).toEqual([23, 12, 23, 18, 5]);
    expect((log.entries as unknown[]).length).toBeLessThanOrEqual(5 + 1);
    expect((await emu.log()).cap).toBe(10_000);
  });
});
