/**
 * One budget of requests in flight per provider process (issue 29), against local servers:
 * every client of the process shares it, and a 429's `Retry-After` holds back all of it.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { GuardrailsClient } from "../../src/core/client";
import { Budget, DEFAULT_MAX_CONCURRENCY, processBudget } from "../../src/core/client/budget";
import { configure, processConfig, resetConfiguration, resolveSettings } from "../../src/core/settings/config";
import { exportGuardrails } from "../../src/export";
import { hostileServer, json, type HostileServer } from "../helpers/hostile-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  processBudget.setLimit(DEFAULT_MAX_CONCURRENCY);
  resetConfiguration();
  vi.unstubAllEnvs();
});

const client = (url: string, budget?: Budget) =>
  new GuardrailsClient({
    baseUrl: url,
    apiKey: KEY,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    ...(budget ? { budget } : {}),
  });

/** A server that answers every DELETE after `delayMs`, counting requests in flight. */
async function slowServer(delayMs: number) {
  const seen = { inFlight: 0, max: 0 };
  server = await hostileServer((_req, res) => {
    seen.inFlight++;
    seen.max = Math.max(seen.max, seen.inFlight);
    setTimeout(() => {
      seen.inFlight--;
      json(res, 200, { deleted: true });
    }, delayMs);
  });
  return seen;
}

describe("one budget per process", () => {
  it("every client of the process shares it: two clients never pass the limit together", async () => {
    const seen = await slowServer(20);
    processBudget.setLimit(3);
    const [a, b] = [client(server!.url), client(server!.url)];
    await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).deleteGuardrail(`g${i}`)));
    expect(seen.max).toBe(3);
  });

  it("a 429 with Retry-After holds back every request of the budget, not just the one told", async () => {
    const arrivals: number[] = [];
    let told = 0;
    server = await hostileServer((req, res) => {
      arrivals.push(Date.now());
      if (req.url?.endsWith("/first") && told++ === 0) {
        res.writeHead(429, { "retry-after": "1", "content-type": "application/json" });
        res.end(JSON.stringify({ error: { code: 429, message: "slow down" } }));
      } else json(res, 200, { deleted: true });
    });
    const budget = new Budget(4);
    const c = client(server.url, budget);
    const first = c.deleteGuardrail("first");
    while (told === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 50));
    const toldAt = arrivals[0]!;
    await Promise.all([first, c.deleteGuardrail("second"), c.deleteGuardrail("third")]);
    expect(arrivals).toHaveLength(4);
    for (const t of arrivals.slice(1)) expect(t - toldAt).toBeGreaterThanOrEqual(950);
    expect(budget.pauses).toBe(1);
  });

  it("pages of one list go out at the budget's limit", async () => {
    const seen = { inFlight: 0, max: 0, calls: 0 };
    server = await hostileServer((req, res) => {
      seen.calls++;
      seen.inFlight++;
      seen.max = Math.max(seen.max, seen.inFlight);
      const offset = Number(new URL(req.url!, "http://x").searchParams.get("offset"));
      const data = Array.from({ length: Math.min(100, 1_000 - offset) }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(offset + i).padStart(12, "0")}`,
        name: `w${offset + i}`,
        slug: `w${offset + i}`,
        default_guardrail_id: `00000000-0000-4000-9000-${String(offset + i).padStart(12, "0")}`,
      }));
      setTimeout(() => {
        seen.inFlight--;
        json(res, 200, { data, total_count: 1_000 });
      }, 10);
    });
    const workspaces: unknown[] = [];
    for await (const w of client(server.url, new Budget(2)).listWorkspaces()) workspaces.push(w);
    expect(workspaces).toHaveLength(1_000);
    // Pages of 100 that share a row with the page before (issue 38): 1 + ⌈900 / 99⌉.
    expect(seen).toMatchObject({ calls: 11, max: 2 });
  });
});

describe("guardrails:maxConcurrency / GUARDRAILS_MAX_CONCURRENCY", () => {
  const settings = (config: Record<string, string>, env: Record<string, string> = {}) => {
    configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": "http://127.0.0.1:9", ...config })[k]);
    return resolveSettings(env);
  };

  it.each(["0", "-1", "2.5", "four", "17"])("%s is an error naming the setting and what is expected", (v) => {
    expect(() => settings({ "guardrails:maxConcurrency": v })).toThrow(
      `guardrails:maxConcurrency must be an integer from 1 to 16 (got "${v}")`,
    );
    expect(() => settings({}, { GUARDRAILS_MAX_CONCURRENCY: v })).toThrow(
      `the env var GUARDRAILS_MAX_CONCURRENCY must be an integer from 1 to 16 (got "${v}")`,
    );
  });

  it("sets the process budget (default 4), stack config over the environment", () => {
    expect(settings({}).maxConcurrency).toBeUndefined();
    processConfig.client();
    expect(processBudget.limit).toBe(4);
    expect(settings({ "guardrails:maxConcurrency": "8" }, { GUARDRAILS_MAX_CONCURRENCY: "2" }).maxConcurrency).toBe(8);
    processConfig.client();
    expect(processBudget.limit).toBe(8);
  });
});

describe("export shares the process budget", () => {
  const env = (concurrency: string) => {
    vi.stubEnv("GUARDRAILS_API_KEY", KEY);
    vi.stubEnv("GUARDRAILS_BASE_URL", "http://127.0.0.1:9");
    vi.stubEnv("GUARDRAILS_MAX_ATTEMPTS", "1");
    vi.stubEnv("GUARDRAILS_MAX_CONCURRENCY", concurrency);
  };

  it("GUARDRAILS_MAX_CONCURRENCY sets it, and a bad value is refused before any call", async () => {
    env("2");
    await exportGuardrails().catch(() => undefined);
    expect(processBudget.limit).toBe(2);
    env("0");
    await expect(exportGuardrails()).rejects.toThrow(
      'the env var GUARDRAILS_MAX_CONCURRENCY must be an integer from 1 to 16 (got "0")',
    );
  });
});
