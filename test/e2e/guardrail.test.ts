/**
 * Guardrail under the real pulumi CLI (local file backend) against the emulator binary.
 */
import { describe, expect, it } from "vitest";
import { Program, useProgram } from "./harness";

const W2 = "00000000-0000-4000-8000-000000000002";

const program = (opts: { limit?: number; models?: string; providers?: string; ws?: string } = {}) => `
import { Guardrail } from "pulumi-guardrails";

const eng = new Guardrail("eng", {
  name: "Engineering",
  description: "Default policy for engineers",
  allowedModels: ${opts.models ?? `["vendor-b/model-m", "vendor-a/model-x", "vendor-a/model-x-20260115", "vendor-b/model-m"]`},
  allowedProviders: ${opts.providers ?? `["prov-2", "prov-1", "prov-2"]`},
  limitUsd: ${opts.limit ?? 100},
  resetInterval: "monthly",
  enforceZdr: true,
  enforceZdrOther: false,
  contentFilterBuiltins: [{ slug: "email", action: "redact" }, { slug: "regex-prompt-injection", action: "flag" }],
  contentFilters: [{ pattern: "ticket-\\\\d+", action: "redact", label: "[TICKET]" }],
  ${opts.ws ? `workspaceId: "${opts.ws}",` : ""}
});
const research = new Guardrail("research", { name: "Research", ignoredModels: ["other-lab/open-model-8b"], limitUsd: 5000, resetInterval: "monthly" });
export const engId = eng.id;
export const researchId = research.id;
export const engModels = eng.allowedModels;
export const engModelsCanonical = eng.allowedModelsCanonical;
`;

function steps(previewJson: string): Array<{ op: string; urn: string }> {
  return (JSON.parse(previewJson).steps ?? []).filter((s: { urn: string }) => s.urn.includes("Guardrail"));
}

describe("Guardrail under the real CLI", () => {
  const p = useProgram("guardrail-e2e");

  it("1. up creates exactly what the program declares; a second preview expects no changes", async () => {
    p.write(program());
    await p.up();
    const out = await p.outputs();
    const list = (await p.api("GET", "/guardrails")).body;
    expect(list.total_count).toBe(2);
    const eng = (await p.api("GET", `/guardrails/${out.engId}`)).body.data;
    expect(eng).toMatchObject({
      name: "Engineering",
      allowed_models: ["vendor-b/model-m-20260201", "vendor-a/model-x-20260115"],
      allowed_providers: ["prov-2", "prov-1"],
      limit_usd: 100,
      enforce_zdr_vendor_a: true,
      enforce_zdr_other: false,
      content_filters: [{ pattern: "ticket-\\d+", action: "redact", label: "[TICKET]" }],
    });
    // The output echoes the program's identifiers (issue 14); the canonical slugs have their own output.
    expect(out.engModels).toEqual([
      "vendor-b/model-m",
      "vendor-a/model-x",
      "vendor-a/model-x-20260115",
      "vendor-b/model-m",
    ]);
    expect(out.engModelsCanonical).toEqual(["vendor-b/model-m-20260201", "vendor-a/model-x-20260115"]);
    expect((await p.api("GET", `/guardrails/${out.researchId}`)).body.data.ignored_models).toEqual([
      "other-lab/open-model-8b-20250901",
    ]);
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
    // Exactly the canonical slugs the service answered: known to be what it holds, no change.
    p.write(
      program({
        models: `["vendor-a/model-x-20260115", "vendor-b/model-m-20260201"]`,
        providers: `["prov-1", "prov-2"]`,
      }),
    );
    await p.clearLog();
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
    expect((await p.log()).writes).toBe(0);
  });

  it("2. a settings change previews as an update and applies; a workspaceId change previews as a replace", async () => {
    p.write(program({ limit: 250 }));
    const preview = await p.pulumi(["preview", "--json"], { check: true });
    expect(steps(preview.stdout).map((s) => s.op)).toEqual(["update"]);
    const before = (await p.outputs()).engId;
    await p.up();
    expect((await p.api("GET", `/guardrails/${before}`)).body.data.limit_usd).toBe(250);
    expect((await p.outputs()).engId).toBe(before);

    p.write(program({ limit: 250, ws: W2 }));
    const replace = await p.pulumi(["preview", "--json"], { check: true });
    expect(steps(replace.stdout).map((s) => s.op)).toEqual(["replace"]);
    await p.up();
    const after = (await p.outputs()).engId;
    expect(after).not.toBe(before);
    expect((await p.api("GET", `/guardrails/${after}`)).body.data.workspace_id).toBe(W2);
    expect((await p.api("GET", `/guardrails/${before}`)).status).toBe(404);
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });

  it("3a. a field PATCHed by hand is found by refresh and repaired by up", async () => {
    const id = (await p.outputs()).engId;
    await p.api("PATCH", `/guardrails/${id}`, { limit_usd: 1, description: "edited by hand" });
    const refreshed = await p.pulumi(["refresh", "--preview-only", "--diff"], { check: true });
    expect(refreshed.stdout).toMatch(/limitUsd\s*:\s*250 => 1/);
    await p.refresh();
    const preview = await p.preview();
    expect(preview.stdout).toMatch(/~ limitUsd\s*: 1 => 250/);
    // Only the drifted fields are marked; the slug rewrite and the ZDR fallback never show.
    // (With an older @pulumi/pulumi the CLI prints no outputs section: stop at the summary too.)
    const marked = preview.stdout
      .split(/--outputs:--|\nResources:/)[0]!
      .split("\n")
      .filter((l) => /^\s*[~+-] \w/.test(l) && !/Guardrail|Stack/.test(l))
      .map((l) => l.trim().split(/\s*:/)[0]);
    expect(marked).toEqual(["~ description", "~ limitUsd"]);
    await p.up();
    expect((await p.api("GET", `/guardrails/${id}`)).body.data).toMatchObject({
      limit_usd: 250,
      description: "Default policy for engineers",
    });
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("3e. a guardrail deleted by hand is found by refresh and recreated by up", async () => {
    const id = (await p.outputs()).researchId;
    await p.api("DELETE", `/guardrails/${id}`);
    const refreshed = await p.refresh();
    expect(refreshed.stdout).toMatch(/deleted/);
    await p.up();
    const again = (await p.outputs()).researchId;
    expect(again).not.toBe(id);
    expect((await p.api("GET", `/guardrails/${again}`)).body.data.name).toBe("Research");
  });

  it("4. bad args fail the preview naming each bad field, and nothing is written", async () => {
    p.write(`
import { Guardrail } from "pulumi-guardrails";
new Guardrail("bad", {
  name: "",
  limitUsd: -5,
  resetInterval: "hourly" as any,
  allowedModels: [],
  workspaceId: "not-a-uuid",
  contentFilterBuiltins: [{ slug: "email", action: "flag" }],
  contentFilters: [{ pattern: "(", action: "block" }],
});
`);
    await p.clearLog();
    const res = await p.preview();
    expect(res.code).not.toBe(0);
    for (const field of [
      "name",
      "limitUsd",
      "resetInterval",
      "allowedModels",
      "workspaceId",
      "contentFilterBuiltins[0].action",
      "contentFilters[0].pattern",
    ]) {
      expect(res.output).toContain(field);
    }
    expect(res.output).toContain("must be >= 0 (got -5)");
    expect((await p.log()).writes).toBe(0);
  });

  it("6. the state holds no API key and each serialized provider is under 4 KB", async () => {
    p.write(program({ limit: 250, ws: W2 }));
    await p.up();
    const { text, json } = await p.exportState(true);
    expect(text).not.toContain(p.apiKey);
    const providers = json.deployment.resources
      .filter((r: { type: string }) => r.type.includes("Guardrail"))
      .map((r: any) => r.inputs.__provider as string);
    expect(providers).toHaveLength(2);
    for (const serialized of providers) {
      expect(Buffer.byteLength(serialized)).toBeLessThan(4096);
      expect(serialized).not.toContain(p.apiKey);
    }
  });

  it("6b. with the key in stack config, Pulumi's engine keeps it only encrypted, in its own provider entry", async () => {
    const c = await Program.create("config-key", { keyVia: "config" });
    try {
      c.write(program());
      await c.up();
      const plain = await c.exportState(false);
      expect(plain.text).not.toContain(c.apiKey);
      const shown = await c.exportState(true);
      const holders = shown.json.deployment.resources
        .filter((r: unknown) => JSON.stringify(r).includes(c.apiKey))
        .map((r: { type: string }) => r.type);
      // pkg/resource/deploy/target.go: a dynamic provider's default provider gets the whole stack config.
      expect(holders).toEqual(["pulumi:providers:pulumi-nodejs"]);
      await c.destroy();
    } finally {
      await c.close();
    }
  });

  it("8a. the import option fails at once with the adoptId form to use (Pulumi cannot import dynamic resources, pulumi/pulumi#16175)", async () => {
    const existing = (await p.api("POST", "/guardrails", { name: "Importable" })).body.data;
    p.write(`
import { Guardrail } from "pulumi-guardrails";
new Guardrail("importable", { name: "Importable" }, { import: "${existing.id}" });
`);
    const res = await p.preview();
    expect(res.code).not.toBe(0);
    expect(res.output).toContain(
      'Guardrail "importable": the `import` resource option (and `pulumi import`) cannot work',
    );
    expect(res.output).toContain(`new Guardrail("importable", { ...args, adoptId: "${existing.id}" })`);
    // It never reaches Pulumi's read (which failed deep inside with a TypeError), and prints no stack trace.
    expect(res.output).not.toContain("toJavaScript");
    expect(res.output).not.toMatch(/^\s+at /m);
    await p.api("DELETE", `/guardrails/${existing.id}`);
  });

  it("8. an existing guardrail comes under management with adoptId, without being recreated", async () => {
    const existing = (await p.api("POST", "/guardrails", { name: "Legacy", limit_usd: 1, reset_interval: "daily" }))
      .body.data;
    p.write(`
import { Guardrail } from "pulumi-guardrails";
export const id = new Guardrail("legacy", { name: "Legacy", limitUsd: 42, resetInterval: "daily", adoptId: "${existing.id}" }).id;
`);
    await p.clearLog();
    await p.up();
    const log = await p.log();
    expect(log.counts.createGuardrail ?? 0).toBe(0);
    expect((await p.outputs()).id).toBe(existing.id);
    expect((await p.api("GET", `/guardrails/${existing.id}`)).body.data.limit_usd).toBe(42);
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });
});
