/**
 * `guardrails-export` against the emulator where the organization is awkward (issue 24,
 * finding 7): lists the service answers as `[]`, a guardrail older than workspaces, several
 * workspaces, and selections that miss; and the bin against a folder holding a link (finding 6).
 */
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { collect } from "../../src/core/client";
import { loadGuardrailConfigs } from "../../src/declarative/load";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { guardrail } from "../../src/dynamic/internal";
import { exportGuardrails, writeExport } from "../../src/export/export";
import { ExportSelectionError } from "../../src/export/fetch";
import { reshapeGuardrail, tempFolder, TEST_KEY, useProviderEmulator } from "../helpers/emulator";
import { DEFAULT_WS, HAND_MADE, populateOrganization, SECOND_WS } from "../helpers/export-org";
import { exportBin } from "../helpers/export-bin";
import { adoptAssignments } from "../helpers/adopt-assignments";
import { http } from "../helpers/spawn-emulator";
import { ANSWERED_LISTS } from "../helpers/wire-fields";

const emu = useProviderEmulator();
const work = tempFolder("export-hostile-");
/** Service ids in HAND_MADE order: Engineering, Support, Support (W2), 🚀🚀 (W2), R&D — Zürich (W2). */
let ids: string[];

beforeEach(async () => {
  expect((await http(emu.url)("POST", "/__emulator/reset")).status).toBe(200);
  ids = await populateOrganization(http(`${emu.url}/api/v1`, TEST_KEY));
  await emu.clearLog();
});

let n = 0;
/** Exports, writes, loads with the loader, adopts every file with the provider: answers the write calls made and the diffs. */
async function roundTrip(options: Parameters<typeof exportGuardrails>[0]) {
  const result = await exportGuardrails({ client: emu.client(), ...options });
  const dir = join(work, `trip-${++n}`);
  writeExport(dir, result.files);
  const loaded = loadGuardrailConfigs(dir);
  await emu.clearLog();
  const diffs: unknown[] = [];
  for (const { settings } of loaded) {
    const { members, keys, ...args } = settings;
    const g = await guardrail.create({ __provider: "p", ...args });
    diffs.push((await guardrail.diff(g.id, g.outs!, { __provider: "p", ...args })).changes);
    const read = await guardrail.read(g.id, g.outs as GuardrailOutputs);
    diffs.push((await guardrail.diff(g.id, read.props as GuardrailOutputs, { __provider: "p", ...args })).changes);
    diffs.push(...(await adoptAssignments(g.id, { members, keys })).map((d) => d.changes));
  }
  const writes = (await emu.log()).entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.path}`);
  return { result, loaded, writes, diffs };
}

describe("lists the service answers as []", () => {
  it("are exported as no setting, load, and adopt with no write and no diff, before and after a refresh", async () => {
    const all = ANSWERED_LISTS;
    await reshapeGuardrail(emu.url, ids[0]!, { set: Object.fromEntries(all.map((k) => [k, []])) });
    await reshapeGuardrail(emu.url, ids[2]!, { set: { allowed_models: [], allowed_providers: [] } });
    const { result, loaded, writes, diffs } = await roundTrip({ allWorkspaces: true, exclusive: true });
    // Only the exclusive sets may be empty (`ids: []`): they say "no one", which the loader takes.
    expect((result.combined.match(/^ +\w+: \[\]$/gm) ?? []).filter((l) => !l.trim().startsWith("ids:"))).toEqual([]);
    expect(result.warnings).toEqual([]);
    const engineering = loaded.find((l) => l.settings.adoptId === ids[0])!.settings as Record<string, unknown>;
    for (const k of [
      "allowedModels",
      "allowedProviders",
      "ignoredModels",
      "ignoredProviders",
      "contentFilterBuiltins",
      "contentFilters",
      "allowedDataRegions",
    ])
      expect(engineering[k], k).toBeUndefined();
    expect(engineering.limitUsd).toBe(250.5);
    expect(loaded).toHaveLength(HAND_MADE.length);
    expect(writes).toEqual([]);
    expect(diffs.every((c) => c === false)).toBe(true);
  });
});

describe("a guardrail older than workspaces (workspace_id null, contract rule 10)", () => {
  beforeEach(async () => void (await reshapeGuardrail(emu.url, ids[1]!, { set: { workspace_id: null } })));
  const legacyNote = (id: string, stableId: string) =>
    `guardrail "Support" (${stableId}, ${id}) has no workspace (it is older than workspaces): exported without workspaceId, which is how it adopts; the service lists it with the default workspace`;

  it("no --workspace: exported without workspaceId, with a note saying so; it adopts with no write", async () => {
    const { result, writes, diffs } = await roundTrip({});
    expect(result.files.map((f) => f.guardrailId).sort()).toEqual([ids[0], ids[1]].sort());
    expect(result.files.find((f) => f.guardrailId === ids[1])!.text).not.toContain("workspaceId");
    expect(result.notes).toEqual([legacyNote(ids[1]!, "support")]);
    expect(writes).toEqual([]);
    expect(diffs.every((c) => c === false)).toBe(true);
  });

  it("the default workspace named: exported as well (it used to be dropped), with the same note, in as many calls as before (and two per workspace for its default)", async () => {
    const result = await exportGuardrails({ client: emu.client(), workspaces: [DEFAULT_WS, SECOND_WS] });
    expect(result.files.map((f) => f.guardrailId)).toContain(ids[1]);
    expect(result.notes).toEqual([legacyNote(ids[1]!, `support-${ids[1]!.slice(0, 8)}`)]);
    expect((await emu.log()).counts).toEqual({
      listGuardrails: 2,
      listAllMemberAssignments: 1,
      listAllKeyAssignments: 1,
      getWorkspace: 2,
      getGuardrail: 2,
    });
  });

  it("only another workspace named: not exported, and the note says so and how to include it", async () => {
    const result = await exportGuardrails({ client: emu.client(), workspaces: [SECOND_WS] });
    expect(result.files.map((f) => f.guardrailId)).not.toContain(ids[1]);
    expect(result.notes).toEqual([
      `guardrail "Support" (${ids[1]}) has no workspace (it is older than workspaces) and was not exported: the service lists it with the default workspace, which --workspace did not name; run without --workspace, name the default workspace, or pass --all-workspaces to export it`,
    ]);
    const quiet = await exportGuardrails({ client: emu.client(), workspaces: [SECOND_WS], exclude: [ids[1]!] });
    expect(quiet.notes).toEqual([]);
    expect(quiet.files).toHaveLength(3);
  });

  it("the default workspace named but holding only guardrails without one: not exported, and the note says why", async () => {
    await reshapeGuardrail(emu.url, ids[0]!, { set: { workspace_id: null } });
    const result = await exportGuardrails({ client: emu.client(), workspaces: [DEFAULT_WS] });
    expect(result.files).toEqual([]);
    expect(result.notes).toHaveLength(2);
    expect(result.notes[0]).toBe(
      `guardrail "Engineering" (${ids[0]}) has no workspace (it is older than workspaces) and was not exported: the service lists it with the default workspace, and no guardrail there carries that workspace's id, so the export cannot tell whether --workspace named it; run without --workspace or pass --all-workspaces to export it`,
    );
    expect((await exportGuardrails({ client: emu.client(), allWorkspaces: true })).files).toHaveLength(
      HAND_MADE.length,
    );
  });
});

describe("--all-workspaces and --exclude", () => {
  it("--all-workspaces: every workspace the service lists, one page of workspaces more", async () => {
    const result = await exportGuardrails({ client: emu.client(), allWorkspaces: true });
    expect(result.files.map((f) => f.guardrailId).sort()).toEqual([...ids].sort());
    expect((await emu.log()).counts).toEqual({
      listWorkspaces: 1,
      listGuardrails: 2,
      listAllMemberAssignments: 1,
      listAllKeyAssignments: 1,
      getWorkspace: 2,
      getGuardrail: 2,
    });
    expect(await collect(emu.client().listWorkspaces())).toMatchObject([{ id: DEFAULT_WS }, { id: SECOND_WS }]);
  });

  it("--all-workspaces with --workspace is an error before any call", async () => {
    await expect(
      exportGuardrails({ client: emu.client(), allWorkspaces: true, workspaces: [SECOND_WS] }),
    ).rejects.toThrow("--all-workspaces reads every workspace; drop --workspace, or --all-workspaces");
    expect((await emu.log()).total).toBe(0);
  });

  it("--exclude by name or id drops those guardrails; one that matches nothing is an error, as --only", async () => {
    const result = await exportGuardrails({ client: emu.client(), allWorkspaces: true, exclude: ["Support", ids[4]!] });
    expect(result.files.map((f) => f.name).sort()).toEqual(["Engineering", "🚀🚀"]);
    await expect(exportGuardrails({ client: emu.client(), allWorkspaces: true, exclude: ["Suport"] })).rejects.toThrow(
      new ExportSelectionError(
        ["Suport"],
        '--exclude "Suport": no guardrail of the listed workspaces has that name or id',
      ),
    );
    const both = await exportGuardrails({
      client: emu.client(),
      allWorkspaces: true,
      only: ["Support"],
      exclude: [ids[1]!],
    });
    expect(both.files.map((f) => f.guardrailId)).toEqual([ids[2]]);
  });
});

describe("--only that misses the listed workspaces", () => {
  it("names the workspace where it would match, and how to include it", async () => {
    const err = await exportGuardrails({ client: emu.client(), only: ["R&D — Zürich", "Engineering"] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExportSelectionError);
    expect((err as Error).message).toBe(
      `--only "R&D — Zürich": no guardrail of the listed workspaces has that name or id; workspace ${SECOND_WS} has one (${ids[4]}): add --workspace ${SECOND_WS}, or pass --all-workspaces`,
    );
    const byId = await exportGuardrails({ client: emu.client(), workspaces: [SECOND_WS], only: [ids[0]!] }).catch(
      (e: unknown) => e,
    );
    expect((byId as Error).message).toBe(
      `--only "${ids[0]}": no guardrail of the listed workspaces has that name or id; workspace ${DEFAULT_WS} has one (${ids[0]}): add --workspace ${DEFAULT_WS}, or pass --all-workspaces`,
    );
  });

  it("a value no workspace has keeps the plain message", async () => {
    await expect(exportGuardrails({ client: emu.client(), only: ["Nope"] })).rejects.toThrow(
      /^--only "Nope": no guardrail of the listed workspaces has that name or id$/,
    );
  });
});

describe("the guardrails-export bin", () => {
  const run = exportBin(emu);

  it("a dangling link in the folder: exit 1 naming it, nothing created, with or without --force", async () => {
    const cwd = mkdtempSync(join(work, "bin-"));
    const target = join(work, `bin-planted-${n}.yaml`);
    await run(["--all-workspaces"], cwd);
    rmSync(join(cwd, "guardrails/engineering.yaml"));
    symlinkSync(target, join(cwd, "guardrails/engineering.yaml"));
    for (const extra of [[], ["--force"]]) {
      const res = await run(["--all-workspaces", ...extra], cwd);
      expect(res.code).toBe(1);
      expect(res.stderr).toBe(
        "guardrails-export: guardrails/engineering.yaml is a symbolic link; guardrails-export never writes through a link: remove it, or export into another folder\n",
      );
      expect(() => lstatSync(target)).toThrow(/ENOENT/);
    }
  });

  it("--all-workspaces, --exclude and the notes on stderr; --help names the new options", async () => {
    await reshapeGuardrail(emu.url, ids[1]!, { set: { workspace_id: null } });
    const cwd = mkdtempSync(join(work, "bin-"));
    const res = await run(["--all-workspaces", "--exclude", "🚀🚀"], cwd);
    expect(res.code).toBe(0);
    expect(res.stderr).toContain(
      `note: guardrail "Support" (support-${ids[1]!.slice(0, 8)}, ${ids[1]}) has no workspace`,
    );
    expect(res.stderr).toContain("wrote 4 file(s) to guardrails/ (4 guardrail(s))");
    expect(readFileSync(join(cwd, "guardrails/engineering.yaml"), "utf8")).toContain(`adoptId: ${ids[0]}`);
    expect(await run(["--all-workspaces", "--workspace", SECOND_WS], cwd)).toMatchObject({ code: 2 });
    const help = await run(["--help"], cwd);
    expect(help.stdout).toContain("--all-workspaces");
    expect(help.stdout).toContain("--exclude <name-or-id>");
  });
});
