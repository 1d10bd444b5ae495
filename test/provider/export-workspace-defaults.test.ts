/**
 * `exportGuardrails` and workspace default guardrails (issue 27) against the emulator over real
 * HTTP: configured defaults go to `_workspace-defaults.yaml` keyed by workspace id, never as
 * ordinary guardrails, in two reads per workspace; the files load, and the resource adopts
 * each default with no write and no diff.
 */
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadGuardrailFiles } from "../../src/declarative/load";
import { exportGuardrails, writeExport } from "../../src/export/export";
import { workspaceDefaultGuardrail } from "../../src/dynamic/internal";
import { NATIVE_WORKSPACE_DEFAULT_TYPE } from "../../src/core/type-tokens";
import { tempFolder, TEST_KEY, useProviderEmulator } from "../helpers/emulator";
import { DEFAULT_WS, populateOrganization, SECOND_WS } from "../helpers/export-org";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator();
const work = tempFolder("guardrails-export-defaults-");
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
let ids: string[];
let third: string;

/** The default guardrail id of a workspace, as the workspace answers it. */
const defaultOf = async (ws: string) =>
  (await api()("GET", `/workspaces/${ws}`)).body.data.default_guardrail_id as string;

beforeEach(async () => {
  expect((await http(emu.url)("POST", "/__emulator/reset")).status).toBe(200);
  ids = await populateOrganization(api());
  const configure = async (ws: string, body: Record<string, unknown>) =>
    expect((await api()("PATCH", `/guardrails/${await defaultOf(ws)}`, body)).status).toBe(200);
  await configure(DEFAULT_WS, {
    allowed_data_regions: ["europe"],
    enable_free_model_training: false,
    limit_usd: 100,
    reset_interval: "weekly",
  });
  await configure(SECOND_WS, { name: "Research default", enforce_zdr_vendor_a: true });
  // A third workspace whose default nobody wrote: in force with no restriction, and not exported.
  const made = await http(emu.url)("POST", "/__emulator/workspaces", { name: "Lab", slug: "lab" });
  expect(made.status).toBe(200);
  third = made.body.data.id;
  await emu.clearLog();
});

describe("exportGuardrails: workspace default guardrails", () => {
  it("writes the configured defaults keyed by workspace id, never as guardrails, in two reads per workspace", async () => {
    const result = await exportGuardrails({ client: emu.client(), allWorkspaces: true });
    // The emulator lists a written default with its workspace's guardrails: it is not one of them.
    expect(result.files.map((f) => f.guardrailId).sort()).toEqual([...ids].sort());
    expect(result.workspaceDefaults?.fileName).toBe("_workspace-defaults.yaml");
    expect(result.workspaceDefaults?.workspaceIds).toEqual([DEFAULT_WS, SECOND_WS]);
    expect(result.workspaceDefaults?.text).toMatchInlineSnapshot(`
      "# yaml-language-server: $schema=../node_modules/pulumi-guardrails/schema/guardrails.schema.json
      workspaceDefaults:
        00000000-0000-4000-8000-000000000001:
          limitUsd: 100
          resetInterval: weekly
          enableFreeModelTraining: false
          allowedDataRegions:
            - europe
        00000000-0000-4000-8000-000000000002:
          name: Research default
          enforceZdrVendorA: true
      "
    `);
    expect(result.combined).toContain(`workspaceDefaults:\n  ${DEFAULT_WS}:\n`);
    expect(result.warnings).toEqual([]);
    expect(result.pulumiImport.resources.filter((r) => r.type === NATIVE_WORKSPACE_DEFAULT_TYPE)).toEqual([
      { type: NATIVE_WORKSPACE_DEFAULT_TYPE, name: `workspace-default.${DEFAULT_WS}`, id: DEFAULT_WS },
      { type: NATIVE_WORKSPACE_DEFAULT_TYPE, name: `workspace-default.${SECOND_WS}`, id: SECOND_WS },
    ]);
    const log = await emu.log();
    expect(log.writes).toBe(0);
    expect(log.counts).toEqual({
      listWorkspaces: 1,
      listGuardrails: 3,
      listAllMemberAssignments: 1,
      listAllKeyAssignments: 1,
      getWorkspace: 3,
      getGuardrail: 3,
    });
    expect(third).not.toBe(DEFAULT_WS);
  });

  it("the files load, and each default adopts with no write and no diff", async () => {
    const result = await exportGuardrails({ client: emu.client(), allWorkspaces: true });
    const dir = join(work, "adopt");
    writeExport(dir, [...result.files, result.workspaceDefaults!]);
    const loaded = loadGuardrailFiles(dir);
    expect(loaded.guardrails).toHaveLength(ids.length);
    expect(loaded.workspaceDefaults.map((d) => d.workspace)).toEqual([DEFAULT_WS, SECOND_WS]);
    await emu.clearLog();
    for (const { workspace, settings } of loaded.workspaceDefaults) {
      const news = { __provider: "p", workspaceId: workspace, ...settings };
      const created = await workspaceDefaultGuardrail.create(news);
      expect(created.id).toBe(workspace);
      expect((await workspaceDefaultGuardrail.diff(created.id, created.outs!, news)).changes).toBe(false);
    }
    const log = await emu.log();
    expect(log.entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });

  it("the default workspace alone without options; --only leaves the defaults out and says so", async () => {
    const plain = await exportGuardrails({ client: emu.client() });
    expect(plain.workspaceDefaults?.workspaceIds).toEqual([DEFAULT_WS]);
    const only = await exportGuardrails({ client: emu.client(), allWorkspaces: true, only: ["Engineering"] });
    expect(only.workspaceDefaults).toBeUndefined();
    expect(only.combined).not.toContain("workspaceDefaults");
    expect(only.pulumiImport.resources.map((r) => r.type)).not.toContain(NATIVE_WORKSPACE_DEFAULT_TYPE);
    expect(only.notes).toEqual([
      "--only names guardrails: the configured default guardrails of 2 workspace(s) were not exported; run without --only to export them",
    ]);
    // A default's own name is no guardrail --only can pick.
    await expect(
      exportGuardrails({ client: emu.client(), allWorkspaces: true, only: ["Research default"] }),
    ).rejects.toThrow('--only "Research default": no guardrail of the listed workspaces has that name or id');
  });
});
