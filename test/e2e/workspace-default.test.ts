/**
 * WorkspaceDefaultGuardrail under the real CLI (issue 27), both faces in one stack: the dynamic
 * class (`pulumi-guardrails`) manages the defaults of two fresh workspaces, the native face's
 * generated SDK (`pulumi-guardrails/native`) those of two others, each pair named by slug, one
 * of each pair with `resetOnDelete`. Every run's calls are split by workspace (its id, slug and
 * default guardrail id are in each path) and must be the same shapes on both faces:
 * up (PATCH only, never POST), a no-op preview, a hand change found by refresh and repaired,
 * destroy (the defaults stay in force; `resetOnDelete` puts its settings back to no restriction),
 * then `pulumi import` of a native default by slug and a no-op preview of the imported args.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { type CallCounts, NATIVE_BIN, callShape, callTable } from "../helpers/parity-face";
import { http } from "../helpers/spawn-emulator";
import { type RunResult, useProgram } from "./harness";

type Face = "dynamic" | "native";
/** Per face, two fresh workspaces: defaults kept in force on delete, and reset on delete. */
const SLUGS = { dynamic: ["wd-dyn-keep", "wd-dyn-reset"], native: ["wd-nat-keep", "wd-nat-reset"] } as const;
const SETTINGS = { allowedDataRegions: ["europe"], enforceZdr: true, limitUsd: 100, resetInterval: "monthly" };

/** The args of one default, as a program literal (a literal keeps the enums' types). */
const args = (slug: string, extra = "") =>
  `{ workspaceId: "${slug}"${extra}, ${JSON.stringify(SETTINGS).slice(1, -1)} }`;
const program = () => `
import * as dynamic from "pulumi-guardrails";
import * as native from "pulumi-guardrails/native";
export const dyn = new dynamic.WorkspaceDefaultGuardrail("dyn-keep", ${args(SLUGS.dynamic[0])});
new dynamic.WorkspaceDefaultGuardrail("dyn-reset", ${args(SLUGS.dynamic[1], ", resetOnDelete: true")});
export const nat = new native.WorkspaceDefaultGuardrail("nat-keep", ${args(SLUGS.native[0])});
new native.WorkspaceDefaultGuardrail("nat-reset", ${args(SLUGS.native[1], ", resetOnDelete: true")});
export const ids = { dyn: dyn.workspaceId, dynGuardrail: dyn.guardrailId, nat: nat.workspaceId };
`;

interface Workspace {
  id: string;
  slug: string;
  default_guardrail_id: string;
}

describe("WorkspaceDefaultGuardrail on both faces under the CLI", () => {
  const p = useProgram("workspace-default");
  const ws: Record<string, Workspace> = {};
  const face = (slug: string): Face => (slug.startsWith("wd-dyn") ? "dynamic" : "native");

  /** Runs `pulumi <args>` (it must pass) and answers its calls per face, past each provider's key check. */
  async function counted(
    args: string[],
    providers = 2,
  ): Promise<RunResult & { calls: Record<Face | "shared", CallCounts> }> {
    const admin = http(p.emulator.url);
    await admin("DELETE", "/__emulator/log");
    const run = await p.pulumi(args);
    expect(run.code, run.output).toBe(0);
    const log = (await admin("GET", "/__emulator/log")).body as {
      entries: Array<{ method: string; path: string; query: string; status: number }>;
    };
    const calls: Record<Face | "shared", CallCounts> = { dynamic: {}, native: {}, shared: {} };
    // Each face's provider proves the key once, with one row of the guardrail list (issue 38).
    const probes = log.entries.filter((e) => e.path === "/api/v1/guardrails" && e.query === "?offset=0&limit=1");
    expect(
      probes.map((e) => e.status),
      `${args[0]}: one key check per provider`,
    ).toEqual(Array(providers).fill(200));
    for (const e of log.entries) {
      if (probes.includes(e)) continue;
      const w = Object.values(ws).find((x) => [x.id, x.slug, x.default_guardrail_id].some((s) => e.path.includes(s)));
      const shape = callShape(e).replace(/\/workspaces\/wd-[a-z]+-/, "/workspaces/{slug}-");
      const bag = calls[w ? face(w.slug) : "shared"];
      bag[shape] = (bag[shape] ?? 0) + 1;
    }
    expect(
      calls.native,
      `${args[0]}: the faces made different calls\n${callTable(calls.dynamic, calls.native)}`,
    ).toEqual(calls.dynamic);
    expect(calls.shared, `${args[0]}: calls that name no workspace`).toEqual({});
    console.log(`workspace-default ${args[0]}:\n${callTable(calls.dynamic, calls.native)}`);
    return { ...run, calls };
  }
  const guardrail = async (slug: string) => (await p.api("GET", `/guardrails/${ws[slug]!.default_guardrail_id}`)).body;

  beforeAll(async () => {
    p.env.PATH = `${NATIVE_BIN}:${p.env.PATH}`;
    p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    for (const slug of [...SLUGS.dynamic, ...SLUGS.native]) {
      const made = await http(p.emulator.url)("POST", "/__emulator/workspaces", { name: `WS ${slug}`, slug });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      ws[slug] = made.body.data;
      // Fresh: its default is in force but never written (docs/api-contract.md rule 19).
      expect((await p.api("GET", `/guardrails/${ws[slug]!.default_guardrail_id}`)).status).toBe(404);
    }
    p.write(program());
  });

  it("up manages each fresh workspace's default with a PATCH and no POST, and records the workspace's id", async () => {
    const { calls } = await counted(["up", "--yes", "--skip-preview"]);
    expect(Object.keys(calls.dynamic).filter((c) => c.startsWith("POST"))).toEqual([]);
    expect(calls.dynamic["PATCH /api/v1/guardrails/{id} 200"]).toBe(2);
    for (const slug of [...SLUGS.dynamic, ...SLUGS.native])
      expect(await guardrail(slug)).toMatchObject({
        data: { allowed_data_regions: ["europe"], limit_usd: 100, enforce_zdr_vendor_a: true },
      });
    const { ids } = await p.outputs();
    expect(ids).toEqual({
      dyn: ws["wd-dyn-keep"]!.id,
      dynGuardrail: ws["wd-dyn-keep"]!.default_guardrail_id,
      nat: ws["wd-nat-keep"]!.id,
    });
  });

  it("a second preview of the same program expects no changes, with no call but the key check", async () => {
    const { calls } = await counted(["preview", "--expect-no-changes"]);
    expect(calls.dynamic).toEqual({});
  });

  it("refresh finds a hand change and the next up repairs it", async () => {
    for (const slug of [SLUGS.dynamic[0], SLUGS.native[0]])
      await p.api("PATCH", `/guardrails/${ws[slug]!.default_guardrail_id}`, { limit_usd: 999 });
    const refreshed = await counted(["refresh", "--yes", "--skip-preview"]);
    expect(refreshed.stdout).toMatch(/~ 2 updated/);
    const { calls } = await counted(["up", "--yes", "--skip-preview"]);
    expect(calls.dynamic).toEqual({ "PATCH /api/v1/guardrails/{id} 200": 1 });
    for (const slug of [SLUGS.dynamic[0], SLUGS.native[0]]) expect((await guardrail(slug)).data.limit_usd).toBe(100);
  });

  it("destroy leaves each default in force; resetOnDelete puts its settings back to no restriction", async () => {
    const { calls } = await counted(["destroy", "--yes", "--skip-preview"]);
    expect(calls.dynamic).toEqual({ "PATCH /api/v1/guardrails/{id} 200": 1 });
    for (const slug of [SLUGS.dynamic[0], SLUGS.native[0]])
      expect((await guardrail(slug)).data).toMatchObject({ limit_usd: 100, allowed_data_regions: ["europe"] });
    for (const slug of [SLUGS.dynamic[1], SLUGS.native[1]])
      expect((await guardrail(slug)).data).toMatchObject({
        limit_usd: null,
        reset_interval: null,
        allowed_data_regions: null,
        enforce_zdr_vendor_a: null,
      });
  });

  it("pulumi import takes a workspace's slug, records its id, and the imported args preview with no change", async () => {
    const slug = SLUGS.native[0];
    const args = ["import", "guardrails:index:WorkspaceDefaultGuardrail", "imported", slug, "--yes"];
    await p.pulumi([...args, "--protect=false", "--generate-code=false"], { check: true });
    const { json } = await p.exportState();
    const r = json.deployment.resources.find((x: { urn: string }) => x.urn.endsWith("::imported"));
    expect(r.id).toBe(ws[slug]!.id);
    expect(r.outputs).toMatchObject({ workspaceId: ws[slug]!.id, workspaceSlug: slug, limitUsd: 100 });
    const { __provider, ...inputs } = r.inputs;
    expect(inputs).toMatchObject({ workspaceId: ws[slug]!.id, limitUsd: 100, allowedDataRegions: ["europe"] });
    // The program names it by slug, as a person writes it: no change either.
    const args2 = JSON.stringify({ ...inputs, workspaceId: slug });
    p.write(
      `import * as native from "pulumi-guardrails/native";\nnew native.WorkspaceDefaultGuardrail("imported", ${args2});\n`,
    );
    const { calls } = await counted(["preview", "--expect-no-changes"], 1);
    expect(calls.dynamic).toEqual({});
  });
});
