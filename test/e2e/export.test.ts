/**
 * From nothing to managed under the real CLI: an organization set up by hand, exported with
 * the installed `guardrails-export` bin, adopted by `pulumi up` of a `declareGuardrails`
 * program with zero write calls; then one YAML edit previews as exactly that change.
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
    p.write(`import { declareGuardrails } from "pulumi-guardrails";

const declared = declareGuardrails("guardrails");

export const guardrailIds = Object.fromEntries(Object.entries(declared).map(([id, r]) => [id, r.guardrail.id]));
`);
  });
  afterAll(async () => {
    await p.close();
    expect(exportOutput).not.toContain(p.apiKey);
  });

  it("exports five guardrails of two workspaces with reads only; a second run (--force) writes the same bytes", async () => {
    await p.clearLog();
    const first = await exportBin(["--workspace", DEFAULT_WS, "--workspace", SECOND_WS]);
    expect(first).toEqual({ code: 0, output: "guardrails-export: wrote 5 file(s) to guardrails/ (5 guardrail(s))\n" });
    expect(files()).toHaveLength(HAND_MADE.length);
    const before = files().map((f) => readFileSync(join(p.dir, "guardrails", f), "utf8"));
    const log = await p.log();
    expect(log.writes).toBe(0);
    expect(log.counts).toEqual({ listGuardrails: 2, listAllMemberAssignments: 1, listAllKeyAssignments: 1 });

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
    const creates = all.filter((s) => s.op === "create" && s.urn.includes("Guardrail::"));
    expect(all.filter((s) => s.op !== "same" && s.op !== "create")).toEqual([]);
    expect(creates.map((s) => s.newState?.inputs?.adoptId).sort()).toEqual([...ids].sort());
    // Guardrails, plus a set for each non-empty member or key list.
    const sets = HAND_MADE.reduce((n, g) => n + (g.members.length > 0 ? 1 : 0) + (g.keys.length > 0 ? 1 : 0), 0);
    expect(all.filter((s) => s.op === "create" && !s.urn.endsWith("pulumi:pulumi:Stack::export-e2e-dev"))).toHaveLength(
      HAND_MADE.length + sets,
    );
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
      "listGuardrailKeyAssignments",
      "listGuardrailMemberAssignments",
    ]);
    const out = (await p.outputs()).guardrailIds as Record<string, string>;
    expect(Object.values(out).sort()).toEqual([...ids].sort());
  });

  it("preview --refresh --expect-no-changes passes", async () => {
    await p.clearLog();
    await p.pulumi(["preview", "--refresh", "--expect-no-changes"], { check: true });
    expect((await p.log()).writes).toBe(0);
  });

  it("editing one YAML file previews exactly that change, and up applies only it", async () => {
    const path = join(p.dir, "guardrails/engineering.yaml");
    const text = readFileSync(path, "utf8");
    expect(text).toContain("    limitUsd: 250.5\n");
    writeFileSync(path, text.replace("    limitUsd: 250.5\n", "    limitUsd: 300\n"));
    const all = await steps();
    expect(changed(all)).toEqual(["update engineering"]);
    // The engine renders a dynamic resource's update as its inputs before and after.
    const { oldState, newState } = all.find((s) => s.op === "update")!;
    const keys = new Set([...Object.keys(oldState!.inputs!), ...Object.keys(newState!.inputs!)]);
    expect(
      [...keys].filter((k) => JSON.stringify(oldState!.inputs![k]) !== JSON.stringify(newState!.inputs![k])),
    ).toEqual(["limitUsd"]);
    expect(summarizePreview({ steps: all } as PreviewJson)).toContain("| limitUsd | `250.5` | `300` |");

    await p.clearLog();
    await p.up();
    const log = await p.log();
    expect(log.entries.filter((e) => e.method !== "GET").map((e) => `${e.method} ${e.operation}`)).toEqual([
      "PATCH updateGuardrail",
    ]);
    expect((await p.api("GET", `/guardrails/${ids[0]}`)).body.data.limit_usd).toBe(300);
    await p.pulumi(["preview", "--refresh", "--expect-no-changes"], { check: true });
  });
});
