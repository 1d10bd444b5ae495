/**
 * The WorkspaceDefaultGuardrail lifecycle over the emulator (issue 27; docs/api-contract.md
 * rules 17-21), through the dynamic face's methods: create and update PATCH, never POST; read
 * tells an unconfigured default (present, no restriction) from a gone workspace (only the
 * workspace's 404); import takes a slug and records the id; delete leaves the settings in force
 * unless `resetOnDelete`; a wrong base URL is never taken for "gone".
 */
import { describe, expect, it } from "vitest";
import type { WorkspaceDefaultOutputs } from "../../src/core/guardrail/workspace-default-model";
import { workspaceDefaultGuardrail as wd } from "../../src/dynamic/internal";
import { TEST_KEY, configureProvider, useProviderEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "2" });

let made = 0;
/** A fresh workspace (its default never written). */
async function workspace(): Promise<{ id: string; slug: string; default_guardrail_id: string }> {
  const slug = `lc-${++made}`;
  const res = await http(emu.url)("POST", "/__emulator/workspaces", { name: `Lifecycle ${made}`, slug });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
const calls = async () =>
  (await emu.log()).entries.map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/g, "{id}")} ${e.status}`);

describe("WorkspaceDefaultGuardrail lifecycle", () => {
  it("create by slug PATCHes a fresh default (no POST), records the workspace's id; a no-op writes nothing", async () => {
    const ws = await workspace();
    await emu.clearLog();
    const news = { __provider: "s", workspaceId: ws.slug, limitUsd: 10, resetInterval: "daily", enforceZdr: true };
    const r = await wd.create(news);
    expect(r.id).toBe(ws.id);
    expect(await calls()).toEqual([
      `GET /api/v1/workspaces/${ws.slug} 200`,
      "GET /api/v1/guardrails/{id} 404",
      "PATCH /api/v1/guardrails/{id} 200",
    ]);
    expect(r.outs).toMatchObject({
      workspaceId: ws.id,
      guardrailId: ws.default_guardrail_id,
      workspaceSlug: ws.slug,
      name: `Workspace ${ws.id} Default`,
      limitUsd: 10,
      enforceZdrOther: true,
    });
    expect((await wd.diff(ws.id, r.outs, { ...news, workspaceId: ws.id.toUpperCase() })).changes).toBe(false);
    await emu.clearLog();
    const u = await wd.update(ws.id, r.outs, { ...news, resetOnDelete: true });
    expect(await calls()).toEqual([]);
    expect(u.outs).toMatchObject({ resetOnDelete: true, limitUsd: 10 });
  });

  it("create with no setting leaves a fresh default unwritten; read answers it present with no restriction", async () => {
    const ws = await workspace();
    const r = await wd.create({ __provider: "s", workspaceId: ws.id });
    expect((await api()("GET", `/guardrails/${ws.default_guardrail_id}`)).status).toBe(404);
    const read = await wd.read(ws.id, r.outs);
    expect(read.id).toBe(ws.id);
    expect(read.props).toMatchObject({ name: null, limitUsd: null, includeByokInBudgets: false, createdAt: null });
    expect(read.inputs).toEqual({ workspaceId: ws.id });
  });

  it("refresh reports a hand change in the program's terms, and update repairs it with one PATCH", async () => {
    const ws = await workspace();
    const news = { __provider: "s", workspaceId: ws.slug, allowedProviders: ["acme"], name: "Team default" };
    const r = await wd.create(news);
    await api()("PATCH", `/guardrails/${ws.default_guardrail_id}`, {
      allowed_providers: ["zeta"],
      limit_usd: 5,
      reset_interval: "weekly",
    });
    const read = await wd.read(ws.id, r.outs);
    expect(read.inputs).toEqual({
      workspaceId: ws.slug,
      name: "Team default",
      allowedProviders: ["zeta"],
      limitUsd: 5,
      resetInterval: "weekly",
    });
    expect((await wd.diff(ws.id, read.props!, news)).changes).toBe(true);
    await emu.clearLog();
    await wd.update(ws.id, read.props!, news);
    expect(await calls()).toEqual(["PATCH /api/v1/guardrails/{id} 200"]);
    const live = (await api()("GET", `/guardrails/${ws.default_guardrail_id}`)).body.data;
    expect(live).toMatchObject({ allowed_providers: ["acme"], limit_usd: null, reset_interval: null });
  });

  it("imports by slug as the workspace's id; a slug the service does not know imports nothing", async () => {
    const ws = await workspace();
    await api()("PATCH", `/guardrails/${ws.default_guardrail_id}`, { limit_usd: 7, reset_interval: "daily" });
    const r = await wd.read(ws.slug, undefined as never);
    expect(r.id).toBe(ws.id);
    expect(r.inputs).toMatchObject({ workspaceId: ws.id, limitUsd: 7, resetInterval: "daily" });
    expect(await wd.read("no-such-workspace", undefined as never)).toEqual({});
    await expect(wd.read("../x", undefined as never)).rejects.toThrow(/workspace id \(UUID\) or slug/);
  });

  it("imports by an upper-case UUID as by its lower-case form (issue 38)", async () => {
    const ws = await workspace();
    await api()("PATCH", `/guardrails/${ws.default_guardrail_id}`, { limit_usd: 9, reset_interval: "daily" });
    const r = await wd.read(ws.id.toUpperCase(), undefined as never);
    expect(r.id).toBe(ws.id);
    expect(r.inputs).toMatchObject({ workspaceId: ws.id, limitUsd: 9 });
  });

  it("delete leaves the settings in force; resetOnDelete puts every setting back to no restriction", async () => {
    const [keep, reset] = [await workspace(), await workspace()];
    const args = { __provider: "s", limitUsd: 3, resetInterval: "daily", allowedDataRegions: ["europe"] };
    const k = await wd.create({ ...args, workspaceId: keep.id });
    const r = await wd.create({ ...args, workspaceId: reset.id, resetOnDelete: true, description: "kept" });
    await emu.clearLog();
    await wd.delete(keep.id, k.outs);
    expect(await calls()).toEqual([]);
    await wd.delete(reset.id, r.outs);
    expect(await calls()).toEqual(["PATCH /api/v1/guardrails/{id} 200"]);
    const get = async (id: string) => (await api()("GET", `/guardrails/${id}`)).body.data;
    expect(await get(keep.default_guardrail_id)).toMatchObject({ limit_usd: 3, allowed_data_regions: ["europe"] });
    expect(await get(reset.default_guardrail_id)).toMatchObject({
      limit_usd: null,
      allowed_data_regions: null,
      description: "kept",
    });
  });

  it("a deleted workspace reads as gone; a wrong base URL's 404 does not", async () => {
    const ws = await workspace();
    const r = await wd.create({ __provider: "s", workspaceId: ws.id, limitUsd: 1, resetInterval: "daily" });
    configureProvider(`${emu.url}/proxy`, { "guardrails:maxAttempts": "2" });
    await expect(wd.read(ws.id, r.outs as unknown as WorkspaceDefaultOutputs)).rejects.toThrow(
      /not reported as deleted/,
    );
    configureProvider(emu.url);
    expect((await http(emu.url)("DELETE", `/__emulator/workspaces/${ws.id}`)).status).toBe(200);
    expect(await wd.read(ws.id, r.outs)).toEqual({});
    await expect(wd.create({ __provider: "s", workspaceId: ws.id })).rejects.toThrow(/has no workspace/);
  });
});
