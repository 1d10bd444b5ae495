/**
 * Workspaces and their default guardrails (docs/api-contract.md rules 17 to 21), through the
 * client and over plain HTTP against the emulator: get by id or slug, the 404-until-written
 * default, its materialization by PATCH, the refused DELETE and assignments, and its going
 * only with its workspace.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collect, type GuardrailsClient, NotFoundError, ValidationError } from "../../src/core/client";
import { DEFAULT_WS, TEST_KEY, W2, withEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

let emu: Awaited<ReturnType<typeof withEmulator>>;
let client: GuardrailsClient;
let api: ReturnType<typeof http>;
let admin: ReturnType<typeof http>;
beforeAll(async () => {
  emu = await withEmulator();
  client = emu.client();
  api = http(`${emu.url}/api/v1`, TEST_KEY);
  admin = http(emu.url);
});
beforeEach(async () => void (await admin("POST", "/__emulator/reset")));
afterAll(async () => {
  await client.close();
  await emu.close();
});

const addWorkspace = async (slug: string, name = `Team ${slug}`) => {
  const res = await admin("POST", "/__emulator/workspaces", { name, slug, description: "made by a test" });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; default_guardrail_id: string };
};

describe("GET /workspaces/{id-or-slug} (rule 17)", () => {
  it("answers the same record by id and by slug, with a default_guardrail_id of its own", async () => {
    const ws = await addWorkspace("eu-prod", "EU production");
    const byId = await client.getWorkspace(ws.id);
    expect(byId).toEqual({
      id: ws.id,
      name: "EU production",
      slug: "eu-prod",
      description: "made by a test",
      created_at: expect.any(String),
      updated_at: null,
      default_guardrail_id: ws.default_guardrail_id,
    });
    expect(await client.getWorkspace("eu-prod")).toEqual(byId);
    const all = await collect(client.listWorkspaces());
    expect(all.map((w) => w.id)).toEqual([DEFAULT_WS, W2, ws.id]);
    expect(new Set(all.map((w) => w.default_guardrail_id)).size).toBe(3);
    expect(all.find((w) => w.id === ws.id)).toEqual(byId);
  });

  it("an unknown id or slug is a 404 with the usual error body; the client answers undefined", async () => {
    const res = await api("GET", "/workspaces/no-such-slug");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 404, message: expect.any(String), metadata: null } });
    expect(await client.getWorkspace("no-such-slug")).toBeUndefined();
    expect(await client.getWorkspace("00000000-0000-4000-8000-0000000000ff")).toBeUndefined();
    expect(await client.getWorkspace("a/b?c")).toBeUndefined();
  });

  it("a segment that would leave the path is refused before any call, never read as gone", async () => {
    await emu.clearLog();
    for (const bad of ["", ".", ".."]) await expect(client.getWorkspace(bad)).rejects.toThrow("one path segment");
    await expect(client.readWorkspaceDefault("..")).rejects.toThrow("one path segment");
    expect((await emu.log()).total).toBe(0);
  });
});

describe("the default guardrail (rules 18 to 21)", () => {
  it("is 404 and unlisted until a PATCH materializes it, named `Workspace <id> Default`", async () => {
    const ws = await addWorkspace("fresh");
    const gid = ws.default_guardrail_id;
    expect((await api("GET", `/guardrails/${gid}`)).status).toBe(404);
    expect(await collect(client.listGuardrails({ workspaceId: ws.id }))).toEqual([]);
    expect(await client.readWorkspaceDefault(ws.id)).toEqual({ state: "unconfigured", workspace: expect.anything() });
    const written = await client.updateGuardrail(gid, { enforce_zdr_vendor_a: true });
    expect(written).toMatchObject({ id: gid, name: `Workspace ${ws.id} Default`, workspace_id: ws.id });
    expect(written).toMatchObject({ enforce_zdr_vendor_a: true, allowed_models: null, limit_usd: null });
    expect(written.updated_at).not.toBeNull();
    const read = await client.readWorkspaceDefault("fresh");
    expect(read).toMatchObject({ state: "configured", workspace: { id: ws.id }, guardrail: { id: gid } });
    expect((await collect(client.listGuardrails({ workspaceId: ws.id }))).map((g) => g.id)).toEqual([gid]);
    const renamed = await client.updateGuardrail(gid, { name: "EU rules", enforce_zdr_vendor_b: true });
    expect(renamed).toMatchObject({ name: "EU rules", enforce_zdr_vendor_a: true, enforce_zdr_vendor_b: true });
    expect(renamed.created_at).toBe(written.created_at);
  });

  it("a materializing PATCH takes a name, is held to rule 14, and a refused one materializes nothing", async () => {
    const ws = await addWorkspace("limits");
    const gid = ws.default_guardrail_id;
    await expect(client.updateGuardrail(gid, { limit_usd: 5 })).rejects.toThrow(/limit_usd and reset_interval/);
    await expect(client.updateGuardrail(gid, { allowed_models: ["no/such"] })).rejects.toBeInstanceOf(ValidationError);
    expect((await client.readWorkspaceDefault(ws.id)).state).toBe("unconfigured");
    await emu.setFaults({ updateConflicts: 1 });
    await expect(client.updateGuardrail(gid, { description: "x" })).rejects.toThrow("409");
    expect((await client.readWorkspaceDefault(ws.id)).state).toBe("unconfigured");
    const g = await client.updateGuardrail(gid, { name: "Named", limit_usd: 5, reset_interval: "daily" });
    expect(g).toMatchObject({ name: "Named", limit_usd: 5, reset_interval: "daily" });
    // Once written, a PATCH is an ordinary update: either field alone (rule 14 is a create rule).
    expect((await client.updateGuardrail(gid, { limit_usd: 9 })).limit_usd).toBe(9);
  });

  it("a DELETE is refused with 400 and the usual error body, written or not; nothing changes", async () => {
    const gid = (await client.getWorkspace(W2))!.default_guardrail_id;
    for (const written of [false, true]) {
      if (written) await client.updateGuardrail(gid, { description: "kept" });
      const res = await api("DELETE", `/guardrails/${gid}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: { code: 400, message: expect.stringContaining("cannot be deleted"), metadata: null },
      });
      expect((await client.readWorkspaceDefault(W2)).state).toBe(written ? "configured" : "unconfigured");
    }
    await expect(client.deleteGuardrail(gid)).rejects.toBeInstanceOf(ValidationError);
  });

  it("is never assigned members or keys (400), written or not; its assignment lists follow its GET", async () => {
    const gid = (await client.getWorkspace(DEFAULT_WS))!.default_guardrail_id;
    await expect(client.assignMembers(gid, ["user_alice"])).rejects.toThrow("cannot be assigned members");
    await expect(client.listMemberAssignments(gid).next()).rejects.toBeInstanceOf(NotFoundError);
    await client.updateGuardrail(gid, { enforce_zdr: true });
    await expect(client.assignKeys(gid, ["a1b2c3d4e5f60718"])).rejects.toThrow("cannot be assigned keys");
    expect(await collect(client.listMemberAssignments(gid))).toEqual([]);
    expect(await collect(client.listAllMemberAssignments())).toEqual([]);
  });

  it("goes only with its workspace: then both are gone, and its id is no longer writable", async () => {
    const ws = await addWorkspace("doomed");
    const gid = ws.default_guardrail_id;
    await client.updateGuardrail(gid, { description: "set" });
    const other = await client.createGuardrail({ name: "other", workspace_id: ws.id });
    await client.assignMembers(other.id, ["user_bob"]);
    expect((await admin("DELETE", `/__emulator/workspaces/${ws.id}`)).status).toBe(200);
    expect(await client.readWorkspaceDefault(ws.id)).toEqual({ state: "gone" });
    expect(await client.readWorkspaceDefault("doomed")).toEqual({ state: "gone" });
    await expect(client.getGuardrail(gid)).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getGuardrail(other.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await collect(client.listAllMemberAssignments())).toEqual([]);
    await expect(client.updateGuardrail(gid, { description: "again" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await admin("DELETE", `/__emulator/workspaces/${DEFAULT_WS}`)).status).toBe(400);
  });

  it("no POST makes one: a created guardrail always gets an id of its own", async () => {
    const ids = (await collect(client.listWorkspaces())).map((w) => w.default_guardrail_id);
    const g = await client.createGuardrail({ name: "plain", workspace_id: W2 });
    expect(ids).not.toContain(g.id);
    expect((await client.readWorkspaceDefault(W2)).state).toBe("unconfigured");
  });

  it("the request log shows every call: the workspace get, the guardrail's 404, the PATCH", async () => {
    await emu.clearLog();
    const gid = (await client.getWorkspace(W2))!.default_guardrail_id;
    await client.readWorkspaceDefault(W2);
    await client.updateGuardrail(gid, { enforce_zdr: false });
    const log = await emu.log();
    expect(log.counts).toEqual({ getWorkspace: 2, getGuardrail: 1, updateGuardrail: 1 });
    expect(log.entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      `GET /api/v1/workspaces/${W2} 200`,
      `GET /api/v1/workspaces/${W2} 200`,
      `GET /api/v1/guardrails/${gid} 404`,
      `PATCH /api/v1/guardrails/${gid} 200`,
    ]);
  });

  it("admin: a slug must be free, lowercase and not UUID-shaped; names may repeat", async () => {
    await addWorkspace("twin", "Same name");
    await addWorkspace("twin-2", "Same name");
    for (const slug of ["twin", "Upper", "00000000-0000-4000-8000-0000000000aa", "a--b"]) {
      expect((await admin("POST", "/__emulator/workspaces", { name: "x", slug })).status).toBe(400);
    }
  });
});
