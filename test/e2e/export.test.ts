/**
 * From nothing to managed under the real CLI: an organization set up by hand, exported with
 * the installed `guardrails-export` bin, adopted by `pulumi up` of a `declareGuardrails`
 * program with zero write calls, the workspace's configured default guardrail included (issue
 * 27); then YAML edits preview as exactly those changes.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizePreview, type PreviewJson } from "../../src/preview/summary";
import { reshapeGuardrail } from "../helpers/emulator";
import { DEFAULT_WS, HAND_MADE, populateOrganization, SECOND_WS } from "../helpers/export-org";
import { Program } from "./harness";

interface Step {
  op: string;
  urn: string;
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

describe("guardrails-export, then declareGuardrails: the round trip is exact", () => {
  let p: Program;
  let ids: string[];
  let defaultGuardrailId: string;
  let exportOutput = "";

  /** The bin as a user runs it: from the program's node_modules, key and URL in the env. */
  const exportBin = (args: string[]) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(join(p.dir, "node_modules/.bin/guardrails-export"), args, {
        cwd: p.dir,
        env: { ...p.env, GUARDRAILS_BASE_URL: p.emulator.url },
      });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d));
      child.stderr.on("data", (d: Buffer) => (output += d));
      child.on("close", (code) => {
        exportOutput += output;
        resolve({ code: code ?? -1, output });
      });
    });
  const files = () => readdirSync(join(p.dir, "guardrails")).sort();
  const steps = async (...extra: string[]) =>
    JSON.parse((await p.pulumi(["preview", "--json", ...extra], { check: true })).stdout).steps as Step[];
  const changed = (all: Step[]) =>
    all
      .filter((s) => s.op !== "same")
      .map((s) => `${s.op} ${s.urn.split("::").pop()}`)
      .sort();

  beforeAll(async () => {
    p = await Program.create("export-e2e");
    ids = await populateOrganization(p.api);
    // Lists the service answers as [] (contract rule 3 forbids writing one; a read may see it):
    // the files leave them out, as null, and the round trip below stays exact (issue 24).
    await reshapeGuardrail(p.emulator.url, ids[3]!, {
      set: { allowed_models: [], allowed_providers: [], content_filters: [] },
    });
    // The default workspace's default guardrail, configured by hand (issue 27); the second workspace's is never written.
    defaultGuardrailId = (await p.api("GET", `/workspaces/${DEFAULT_WS}`)).body.data.default_guardrail_id;
    const body = { limit_usd: 100, reset_interval: "weekly", allowed_data_regions: ["europe"] };
    expect((await p.api("PATCH", `/guardrails/${defaultGuardrailId}`, body)).status).toBe(200);
    p.write(`import { declareGuardrails } from "pulumi-guardrails";

const declared = declareGuardrails("guardrails");

export const guardrailIds = Object.fromEntries(Object.entries(declared).map(([id, r]) => [id, r.guardrail.id]));
`);
  });
  afterAll(async () => {
    await p.close();
    expect(exportOutput).not.toContain(p.apiKey);
  });

  it("exports five guardrails of two workspaces and the configured workspace default with reads only; a second run (--force) writes the same bytes", async () => {
    await p.clearLog();
    const first = await exportBin(["--workspace", DEFAULT_WS, "--workspace", SECOND_WS]);
    expect(first).toEqual({
      code: 0,
      output:
        "guardrails-export: wrote 6 file(s) to guardrails/ (5 guardrail(s), 1 workspace default(s) in _workspace-defaults.yaml)\n",
    });
    expect(files()).toHaveLength(HAND_MADE.length + 1);
    expect(readFileSync(join(p.dir, "guardrails/_workspace-defaults.yaml"), "utf8")).toContain(
      `workspaceDefaults:\n  ${DEFAULT_WS}:\n    limitUsd: 100\n`,
    );
    const before = files().map((f) => readFileSync(join(p.dir, "guardrails", f), "utf8"));
    const log = await p.log();
    expect(log.writes).toBe(0);
    expect(log.counts).toEqual({
      listGuardrails: 2,
      listAllMemberAssignments: 1,
      listAllKeyAssignments: 1,
      getWorkspace: 2,
      getGuardrail: 2,
    });

    expect((await exportBin(["--workspace", DEFAULT_WS, "--workspace", SECOND_WS])).code).toBe(1);
    expect((await exportBin(["--workspace", DEFAULT_WS, "--workspace", SECOND_WS, "--force"])).code).toBe(0);
    expect(files().map((f) => readFileSync(join(p.dir, "guardrails", f), "utf8"))).toEqual(before);
    // No setting is written as [], which the loader would reject.
    expect(before.filter((t) => /^ +\w+: \[\]$/m.test(t))).toEqual([]);
    // Slugs went in; the files hold what the service holds.
    expect(readFileSync(join(p.dir, "guardrails/engineering.yaml"), "utf8")).toContain("- vendor-a/model-x-20260115\n");
  });

  it("the first preview shows only creates, each an adoption of a listed guardrail, and makes no write", async () => {
    await p.clearLog();
    const all = await steps();
    const creates = all.filter((s) => s.op === "create" && s.urn.includes(":Guardrail::"));
    expect(all.filter((s) => s.op !== "same" && s.op !== "create")).toEqual([]);
    expect(creates.map((s) => s.newState?.inputs?.adoptId).sort()).toEqual([...ids].sort());
    // Guardrails, plus a set for each non-empty member or key list.
    const sets = HAND_MADE.reduce((n, g) => n + (g.members.length > 0 ? 1 : 0) + (g.keys.length > 0 ? 1 : 0), 0);
    expect(all.filter((s) => s.op === "create" && !s.urn.endsWith("pulumi:pulumi:Stack::export-e2e-dev"))).toHaveLength(
      HAND_MADE.length + sets + 1,
    );
    // The workspace default, named so no guardrail can take the name, keyed by the workspace's id.
    const dflt = all.find((s) => s.urn.endsWith(`:WorkspaceDefaultGuardrail::workspace-default.${DEFAULT_WS}`));
    expect(dflt?.newState?.inputs).toMatchObject({ workspaceId: DEFAULT_WS, limitUsd: 100 });
    expect((await p.log()).writes).toBe(0);
  });

  it("pulumi up adopts everything with zero write calls: the request log holds only reads", async () => {
    await p.clearLog();
    await p.up();
    const log = await p.log();
    expect(log.entries.filter((e) => e.method !== "GET")).toEqual([]);
    expect(log.writes).toBe(0);
    expect(Object.keys(log.counts).sort()).toEqual([
      "getGuardrail",
      "getWorkspace",
      "listGuardrailKeyAssignments",
      "listGuardrailMemberAssignments",
      "listGuardrails",
    ]);
    // The only list of guardrails is the one row that proves the key (issue 38, class 7).
    expect(log.entries.filter((e) => e.operation === "listGuardrails").map((e) => e.query)).toEqual([
      "?offset=0&limit=1",
    ]);
    const out = (await p.outputs()).guardrailIds as Record<string, string>;
    expect(Object.values(out).sort()).toEqual([...ids].sort());
  });

  it("preview --refresh --expect-no-changes passes", async () => {
    await p.clearLog();
    await p.pulumi(["preview", "--refresh", "--expect-no-changes"], { check: true });
    expect((await p.log()).writes).toBe(0);
  });

  it("editing a guardrail's file and the workspace default previews exactly those changes, and up applies only them", async () => {
    const edit = (file: string, from: string, to: string) => {
      const path = join(p.dir, "guardrails", file);
      const text = readFileSync(path, "utf8");
      expect(text).toContain(from);
      writeFileSync(path, text.replace(from, to));
    };
    edit("engineering.yaml", "    limitUsd: 250.5\n", "    limitUsd: 300\n");
    edit("_workspace-defaults.yaml", "    limitUsd: 100\n", "    limitUsd: 150\n");
    const all = await steps();
    expect(changed(all)).toEqual(["update engineering", `update workspace-default.${DEFAULT_WS}`]);
    // The engine renders a dynamic resource's update as its inputs before and after.
    const { oldState, newState } = all.find((s) => s.op === "update" && s.urn.endsWith("::engineering"))!;
    const keys = new Set([...Object.keys(oldState!.inputs!), ...Object.keys(newState!.inputs!)]);
    expect(
      [...keys].filter((k) => JSON.stringify(oldState!.inputs![k]) !== JSON.stringify(newState!.inputs![k])),
    ).toEqual(["limitUsd"]);
    const summary = summarizePreview({ steps: all } as PreviewJson);
    expect(summary).toContain("limitUsd: `250.5` → `300` (raised)");
    expect(summary).toContain("limitUsd: `100` → `150` (raised)");
    // The default's file names no `name`: the service's name stands, which is no change.
    expect(summary).not.toContain("· name:");

    await p.clearLog();
    await p.up();
    const log = await p.log();
    expect(log.entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.operation}`)).toEqual([
      "PATCH updateGuardrail",
      "PATCH updateGuardrail",
    ]);
    expect((await p.api("GET", `/guardrails/${ids[0]}`)).body.data.limit_usd).toBe(300);
    expect((await p.api("GET", `/guardrails/${defaultGuardrailId}`)).body.data.limit_usd).toBe(150);
    await p.pulumi(["preview", "--refresh", "--expect-no-changes"], { check: true });
  });
});
