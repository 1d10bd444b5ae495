/**
 * The native face's Guardrail under the real CLI (issue 26): a JavaScript program on the
 * `pulumi-resource-guardrails` plugin found on PATH (src/native/bin, after `npm run build`),
 * by type token as the generated SDK does it. One stack: up (an adoption warns on the
 * resource), an unmanaged guardrail imported by id, the plain state export (no secret; the
 * import's inputs are the args alone), then one preview that shows a removed builtin by key, an
 * alias change as nothing, a workspace move as a replacement, and the imported guardrail, its
 * recorded inputs written as the program, with no change. A TypeScript project's
 * `--generate-code` cannot run here (the Node.js host built from sdk v3.68.0 has no
 * GenerateProgram); native-generate-code.test.ts proves the generated code with the YAML host.
 */
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { W2 } from "../helpers/emulator";
import { useProgram } from "./harness";

const PLUGIN_DIR = resolve(__dirname, "../../src/native/bin");
const SECRET_LIMIT = "4321.987";
const SECRET_NAME = "SECRET-NAME-native-5b1e07";

const program = (step: 1 | 2, adoptId: string, imported = "") => `
import * as pulumi from "@pulumi/pulumi";
// What the generated SDK's class does: a CustomResource of the native type token.
class Guardrail extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super("guardrails:index:Guardrail", name, args, opts);
  }
}
new Guardrail("eng", {
  name: "Engineering",
  allowedModels: [${step === 1 ? '"vendor-a/model-x"' : '"vendor-a/model-x-20260115"'}, "vendor-b/model-m"],
  limitUsd: pulumi.secret(${SECRET_LIMIT}),
  resetInterval: "monthly",
  contentFilterBuiltins: [
    { slug: "email", action: "redact" },
    ${step === 1 ? '{ slug: "credit-card", action: "block" },' : ""}
    { slug: "phone", action: "block" },
  ],
});
new Guardrail("mover", { name: pulumi.secret("${SECRET_NAME}")${step === 2 ? `, workspaceId: "${W2}"` : ""} });
new Guardrail("adopted", { name: "Adopted", limitUsd: 9, resetInterval: "daily", adoptId: "${adoptId}" });
${imported}
`;

describe("native face: Guardrail under the CLI", () => {
  const p = useProgram("native-guardrail", { create: { keyVia: "config" } });
  let adoptId = "";
  let up = "";
  let importedId = "";
  let imported: Record<string, unknown> = {};
  beforeAll(async () => {
    p.env.PATH = `${PLUGIN_DIR}:${p.env.PATH}`;
    p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    adoptId = (await p.api("POST", "/guardrails", { name: "Adopted", limit_usd: 5, reset_interval: "daily" })).body.data
      .id;
    p.write(program(1, adoptId));
    up = (await p.up()).output;
    const made = await p.api("POST", "/guardrails", {
      name: "Unmanaged",
      allowed_models: ["vendor-c/model-q"],
      limit_usd: 5,
      reset_interval: "daily",
      content_filter_builtins: [{ slug: "ssn", action: "block" }],
      workspace_id: W2,
    });
    importedId = made.body.data.id;
    const args = ["import", "guardrails:index:Guardrail", "imported", importedId, "--yes", "--protect=false"];
    await p.pulumi([...args, "--generate-code=false"], { check: true });
  });

  it("says the adoption's overwrite as a warning on the resource", () => {
    expect(up).toMatch(/guardrails:index:Guardrail \(adopted\):\s*\n\s*warning: guardrail "Adopted": adopting/);
  });

  it("keeps secrets, their copies and the apiKey out of the plain export; an import's inputs are its args", async () => {
    const { text, json } = await p.exportState();
    expect(text).not.toContain(SECRET_LIMIT);
    expect(text).not.toContain(SECRET_NAME);
    expect(text).not.toContain(p.apiKey);
    const byName = (n: string) => json.deployment.resources.find((r: { urn: string }) => r.urn.endsWith(`::${n}`));
    const ciphertext = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: expect.any(String),
    };
    const eng = byName("eng");
    expect([eng.inputs.limitUsd, eng.outputs.limitUsd, eng.outputs.args.limitUsd]).toEqual([
      ciphertext,
      ciphertext,
      ciphertext,
    ]);
    expect(eng.outputs.__secretArgs).toEqual(["limitUsd"]);
    expect(byName("mover").outputs.args.name).toEqual(ciphertext);
    const provider = json.deployment.resources.find((r: { type: string }) => r.type === "pulumi:providers:guardrails");
    expect(provider.inputs.apiKey).toEqual(ciphertext);
    const { __provider, ...inputs } = byName("imported").inputs;
    expect(inputs).toEqual({
      name: "Unmanaged",
      workspaceId: W2,
      allowedModels: ["vendor-c/model-q-20251111"],
      limitUsd: 5,
      resetInterval: "daily",
      contentFilterBuiltins: [{ slug: "ssn", action: "block" }],
    });
    imported = inputs;
  });

  it("previews a removed builtin by key, an alias as nothing, a move as a replacement, an import as no change", async () => {
    p.write(program(2, adoptId, `new Guardrail("imported", ${JSON.stringify(imported)});`));
    const res = await p.preview();
    expect(res.code, res.output).toBe(0);
    const text = res.output;
    // The removed builtin, by itself at its index, with its values; nothing else of the list.
    expect(text).toMatch(/- \[1\]: \{\s*\n\s*- action: "block"\s*\n\s*- slug\s*: "credit-card"/);
    expect(text).not.toMatch(/slug\s*: "credit-card" =>|"phone"/);
    // The model's canonical slug for its slug: no change shown.
    expect(text).not.toContain("allowedModels");
    // The workspace move replaces, and says so; the imported guardrail previews with no change.
    expect(text).toMatch(/\+-\s*guardrails:index:Guardrail: \(replace\)/);
    expect(text).toContain(`~ workspaceId: "00000000-0000-4000-8000-000000000001" => "${W2}"`);
    expect(text).not.toMatch(/imported/);
    expect(text).toMatch(/1 to update\s*\n\s*\+-1 to replace/);
  });

  it("adopts a guardrail through the `import` resource option: an import step, no diff, no write", async () => {
    const made = await p.api("POST", "/guardrails", { name: "ByOption", limit_usd: 7, reset_interval: "weekly" });
    const id = made.body.data.id;
    const args = {
      name: "ByOption",
      limitUsd: 7,
      resetInterval: "weekly",
      workspaceId: "00000000-0000-4000-8000-000000000001",
    };
    p.write(program(1, adoptId, `new Guardrail("byOption", ${JSON.stringify(args)}, { import: "${id}" });`));
    const before = (await p.log()).writes;
    const res = await p.preview();
    expect(res.code, res.output).toBe(0);
    expect(res.output).toMatch(new RegExp(`= guardrails:index:Guardrail: \\(import\\)\\s*\\n\\s*\\[id=${id}\\]`));
    expect(res.output).toMatch(/1 to import/);
    expect((await p.log()).writes).toBe(before);
  });

  it("a moderation policy edited in Guardrail Policies: refresh and preview warn on the Guardrail (issue 40)", async () => {
    p.write(program(1, adoptId, `new Guardrail("imported", ${JSON.stringify(imported)});`));
    const { json } = await p.exportState();
    const engId = json.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::eng")).id as string;
    const ws = "00000000-0000-4000-8000-000000000001";
    const rows = (await p.api("GET", `/guardrails/policies/moderation?workspace_id=${ws}`)).body.data;
    const mod = rows.find((r: { legacy_guardrail_ids?: string[] }) => r.legacy_guardrail_ids?.includes(engId));
    const edit = await p.api("PUT", `/guardrails/policies/moderation/${mod.id}`, {
      name: "edited in the dashboard",
      workspace_id: ws,
      config: { content_filter_builtins: [{ slug: "ssn", action: "block" }], content_filters: null },
    });
    expect(edit.status).toBe(200);
    const said = `warning: guardrail \\\\?"Engineering\\\\?": its moderation policy ${mod.id} was edited in Guardrail Policies and no longer follows this guardrail; the service now enforces: contentFilterBuiltins=\\[\\{\\\\?"action\\\\?":\\\\?"block\\\\?",\\\\?"label\\\\?":\\\\?"\\[SSN\\]\\\\?",\\\\?"slug\\\\?":\\\\?"ssn\\\\?"\\}\\]; \`pulumi up\` cannot change it`;
    const refreshed = await p.refresh();
    // On the resource, in the refresh's diagnostics.
    expect(refreshed.output).toMatch(new RegExp(`guardrails:index:Guardrail \\(eng\\):\\s*\\n\\s*${said}`));
    // Said once per run, though the CLI also diffs what the refresh read.
    expect(refreshed.output.match(/^\s*warning: guardrail .*its moderation policy/gm)).toHaveLength(1);
    const res = await p.pulumi(["preview", "--diff", "--expect-no-changes"]);
    expect(res.code, res.output).toBe(0); // no change to apply (an up cannot repair it) ...
    expect(res.output).toMatch(new RegExp(said)); // ... but never silent
  });
});
