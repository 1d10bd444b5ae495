/**
 * The client's workspace reads against a broken or hostile service (a mock, not the emulator):
 * a record without `default_guardrail_id` is refused naming it, extra and absent optional keys
 * are tolerated (rules 10 and 12), and "gone" comes only from the workspace's own 404, never
 * from the guardrail's 404 nor from any other failure (rule 21).
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { GuardrailsClient, ResponseShapeError, ServerError } from "../../src/core/client";
import { type HostileServer, hostileServer, json } from "../helpers/hostile-server";

const WS = "00000000-0000-4000-8000-00000000aaaa";
const GID = "00000000-0000-4000-8000-00000000bbbb";
let server: HostileServer | undefined;
let client: GuardrailsClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

/** A service whose workspace and default-guardrail answers are given per test. */
async function service(answers: {
  workspace: (res: ServerResponse) => void;
  guardrail?: (res: ServerResponse) => void;
}) {
  server = await hostileServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path.startsWith("/api/v1/workspaces")) return answers.workspace(res);
    if (path === `/api/v1/guardrails/${GID}` && answers.guardrail) return answers.guardrail(res);
    json(res, 500, { error: { code: 500, message: "unexpected call", metadata: null } });
  });
  client = new GuardrailsClient({ baseUrl: server.url, apiKey: "k-hostile-0123456789", retry: { maxAttempts: 1 } });
  return client;
}
const notFound = (res: ServerResponse) => json(res, 404, { error: { code: 404, message: "nope", metadata: null } });
const workspace = (extra: Record<string, unknown> = {}) => ({
  id: WS,
  name: "EU",
  slug: "eu",
  created_at: "2026-01-01T00:00:00Z",
  default_guardrail_id: GID,
  ...extra,
});

describe("a hostile service's workspace answers", () => {
  it("a record without default_guardrail_id is refused, and the error names the key", async () => {
    const { default_guardrail_id: _, ...without } = workspace();
    const c = await service({ workspace: (res) => json(res, 200, { data: without }) });
    const err = await c.getWorkspace("eu").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as Error).message).toContain("data.default_guardrail_id");
    await expect(c.readWorkspaceDefault("eu")).rejects.toBeInstanceOf(ResponseShapeError);
    expect(server!.requests.every((r) => r.url.startsWith("/api/v1/workspaces/eu"))).toBe(true);
  });

  it("a record without an id, or with a null default_guardrail_id, is refused too", async () => {
    const c = await service({ workspace: (res) => json(res, 200, { data: workspace({ id: undefined }) }) });
    await expect(c.getWorkspace("eu")).rejects.toThrow("data.id");
    await server!.close();
    const d = await service({
      workspace: (res) => json(res, 200, { data: workspace({ default_guardrail_id: null }) }),
    });
    await expect(d.getWorkspace("eu")).rejects.toThrow("data.default_guardrail_id");
  });

  it("extra keys are dropped and absent optional ones read as null", async () => {
    const { name: _n, slug: _s, created_at: _c, ...bare } = workspace({ budget: { usd: 3 }, io_logging: true });
    const c = await service({ workspace: (res) => json(res, 200, { data: bare }) });
    expect(await c.getWorkspace(WS)).toEqual({
      id: WS,
      default_guardrail_id: GID,
      name: null,
      slug: null,
      description: null,
      created_at: null,
      updated_at: null,
    });
  });

  it("the guardrail's 404 is unconfigured, never gone; the workspace's 404 is gone", async () => {
    const c = await service({ workspace: (res) => json(res, 200, { data: workspace() }), guardrail: notFound });
    expect(await c.readWorkspaceDefault("eu")).toMatchObject({ state: "unconfigured", workspace: { id: WS } });
    await server!.close();
    const d = await service({ workspace: notFound, guardrail: notFound });
    expect(await d.readWorkspaceDefault("eu")).toEqual({ state: "gone" });
    expect(server!.requests).toHaveLength(1);
  });

  it("any other failure is thrown as it came, never taken for gone or unconfigured", async () => {
    const fail = (res: ServerResponse) => json(res, 503, { error: { code: 503, message: "down", metadata: null } });
    const c = await service({ workspace: fail });
    await expect(c.readWorkspaceDefault("eu")).rejects.toBeInstanceOf(ServerError);
    await server!.close();
    const d = await service({ workspace: (res) => json(res, 200, { data: workspace() }), guardrail: fail });
    await expect(d.readWorkspaceDefault("eu")).rejects.toBeInstanceOf(ServerError);
    await server!.close();
    const e = await service({
      workspace: (res) => json(res, 200, { data: workspace() }),
      guardrail: (res) => json(res, 403, { error: { code: 403, message: "no", metadata: null } }),
    });
    await expect(e.readWorkspaceDefault("eu")).rejects.toThrow("403");
  });

  it("an answer for another workspace than the one asked for is refused, its default never read", async () => {
    const c = await service({ workspace: (res) => json(res, 200, { data: workspace() }), guardrail: notFound });
    await expect(c.readWorkspaceDefault("us-prod")).rejects.toThrow(
      `asked for workspace "us-prod", the service answered workspace "${WS}" (slug "eu")`,
    );
    expect(await c.readWorkspaceDefault(WS)).toMatchObject({ state: "unconfigured" });
    expect(server!.requests.map((r) => r.url)).toEqual([
      "/api/v1/workspaces/us-prod",
      `/api/v1/workspaces/${WS}`,
      `/api/v1/guardrails/${GID}`,
    ]);
  });

  it("the id or slug is one encoded path segment", async () => {
    const c = await service({ workspace: notFound });
    expect(await c.getWorkspace("a/../b?x=1#y")).toBeUndefined();
    expect(server!.requests.map((r) => r.url)).toEqual(["/api/v1/workspaces/a%2F..%2Fb%3Fx%3D1%23y"]);
  });
});
