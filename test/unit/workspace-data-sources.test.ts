/**
 * The workspace data sources (src/core/data-sources/workspaces.ts) against the emulator over
 * HTTP: getWorkspace by id, slug or name with the default guardrail's id, getWorkspaces sorted
 * by name then id, args checked before any call, and a service answering the wrong workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_DEFAULT_WORKSPACE as DEFAULT_WS, DEMO_EXTRA_WORKSPACE as W2 } from "../../emulator";
import { GuardrailsClient } from "../../src/core/client";
import { parseLookupArgs } from "../../src/core/data-sources/args";
import { getWorkspace, getWorkspaces } from "../../src/core/data-sources/workspaces";
import { type TestEmulator, withEmulator } from "../helpers/emulator";
import { hostileServer, json } from "../helpers/hostile-server";
import { http } from "../helpers/spawn-emulator";

let emu: TestEmulator;
let client: GuardrailsClient;
const made: Record<string, { id: string; default_guardrail_id: string }> = {};

beforeAll(async () => {
  emu = await withEmulator();
  client = emu.client();
  const admin = http(emu.url);
  for (const [key, name, slug] of [
    ["eu", "EU production", "eu-prod"],
    ["twinA", "Twin", "twin-a"],
    ["twinB", "Twin", "twin-b"],
  ] as const) {
    made[key] = (await admin("POST", "/__emulator/workspaces", { name, slug, description: `the ${key}` })).body.data;
  }
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

describe("getWorkspace", () => {
  it("finds one by id, by slug and by exact name, with its default guardrail's id, in the program's names", async () => {
    const eu = made.eu!;
    const expected = {
      id: eu.id,
      name: "EU production",
      slug: "eu-prod",
      description: "the eu",
      createdAt: expect.any(String),
      updatedAt: null,
      defaultGuardrailId: eu.default_guardrail_id,
    };
    expect(await getWorkspace(client, { id: eu.id })).toEqual(expected);
    expect(await getWorkspace(client, { slug: "eu-prod" })).toEqual(expected);
    expect(await getWorkspace(client, { name: "EU production" })).toEqual(expected);
    expect((await getWorkspace(client, { slug: "default" })).id).toBe(DEFAULT_WS);
  });

  it("fails on a name, slug or id nobody has, and on a name two workspaces share, naming what it saw", async () => {
    await expect(getWorkspace(client, { name: "Nobody" })).rejects.toThrow(
      'getWorkspace: no workspace is named "Nobody"; it lists "Default Workspace", "EU production", "Twin", "Workspace 1"',
    );
    const both = [made.twinA!.id, made.twinB!.id].sort();
    await expect(getWorkspace(client, { name: "Twin" })).rejects.toThrow(
      `getWorkspace: 2 workspaces are named "Twin" (${both.join(", ")}); look one up by id or slug`,
    );
    await expect(getWorkspace(client, { slug: "no-such" })).rejects.toThrow(
      'getWorkspace: no workspace has slug "no-such" (the service answered 404)',
    );
    const missing = "00000000-0000-4000-8000-0000000000ff";
    await expect(getWorkspace(client, { id: missing })).rejects.toThrow(`no workspace has id "${missing}"`);
  });

  it("checks its args before any call: exactly one of id, slug and name, each well formed", async () => {
    const failures = (raw: unknown) => {
      const r = parseLookupArgs("getWorkspace", raw);
      return r.ok ? [] : r.failures;
    };
    expect(failures({})).toEqual([{ property: "id", reason: "give one of id, slug or name" }]);
    expect(failures({ slug: "a", name: "b" })).toEqual([
      { property: "name", reason: "give one of id, slug or name, not slug and name" },
    ]);
    expect(failures({ id: "nope" })).toEqual([{ property: "id", reason: "must be a workspace id (UUID)" }]);
    expect(failures({ slug: "Has Spaces" })[0]?.property).toBe("slug");
    expect(failures({ slug: ".." })[0]?.property).toBe("slug");
    expect(failures({ name: "" })[0]?.reason).toBe("must be 1 to 200 characters");
    expect(failures({ workspace: "x" }).map((f) => f.property)).toEqual(["workspace", "id"]);
    expect(parseLookupArgs("getWorkspaces", { any: 1 }).ok).toBe(false);
    await emu.clearLog();
    await expect(getWorkspace(client, { slug: "../guardrails" } as never)).rejects.toThrow("getWorkspace: slug:");
    expect((await emu.log()).total).toBe(0);
  });

  it("refuses a service that answers another workspace than the one asked for", async () => {
    const server = await hostileServer((_req, res) =>
      json(res, 200, { data: { id: W2, slug: "someone-else", name: "X", default_guardrail_id: W2 } }),
    );
    const hostile = new GuardrailsClient({ baseUrl: server.url, apiKey: "k-hostile-0123456789" });
    try {
      await expect(getWorkspace(hostile, { slug: "eu-prod" })).rejects.toThrow(
        `getWorkspace: asked for the workspace with slug "eu-prod", the service answered workspace "${W2}" whose slug is "someone-else"; not using it`,
      );
      await expect(getWorkspace(hostile, { id: DEFAULT_WS })).rejects.toThrow("not using it");
    } finally {
      await hostile.close();
      await server.close();
    }
  });
});

describe("getWorkspaces", () => {
  it("answers every workspace, sorted by name then id, with their ids in the same order", async () => {
    const all = await getWorkspaces(client);
    expect(all.workspaces.map((w) => w.name)).toEqual([
      "Default Workspace",
      "EU production",
      "Twin",
      "Twin",
      "Workspace 1",
    ]);
    expect(all.ids).toEqual(all.workspaces.map((w) => w.id));
    expect(all.ids.slice(2, 4)).toEqual([made.twinA!.id, made.twinB!.id].sort());
    expect(all.workspaces.find((w) => w.id === W2)).toMatchObject({
      slug: "workspace-1",
      defaultGuardrailId: expect.any(String),
    });
    expect(new Set(all.workspaces.map((w) => w.defaultGuardrailId)).size).toBe(5);
  });
});
