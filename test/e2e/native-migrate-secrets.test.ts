/**
 * Every copy of a secret is a secret, across the move to the native face (issue 38, class 2):
 * a dynamic-face stack whose every guardrail arg, member id and key hash is a secret, moved by
 * `guardrails-migrate-to-native --yes` under the real CLI. The plain `pulumi stack export`,
 * every line the migration and pulumi printed, and every file of the state backend (the stack
 * file, its .bak and the history) hold none of the values, each native arg is recorded as a
 * ciphertext, and the program on the native face previews with no change. The same greps find
 * every value in `--show-secrets`, so they can fail.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-emulator";
import { Program } from "./harness";

/** Values no CLI output would hold by accident: long, and in no other test's data. */
const S = {
  name: "MIGSECRET-NAME-6c1f0e2a",
  description: "MIGSECRET-DESC-93b7d410",
  provider: "migsecret-prov-0b7e4c19",
  providerIgnored: "migsecret-prov-ign-51d2a8e3",
  model: "migsecret-lab/model-d04e7b",
  modelCanonical: "migsecret-lab/model-d04e7b-20991231",
  ignoredModel: "migsecret-lab/ignored-7a93c1",
  ignoredModelCanonical: "migsecret-lab/ignored-7a93c1-20991231",
  pattern: "MIGSECRET-RX-4e0b1d[0-9]+",
  label: "MIGSECRET-LABEL-2f8c60",
  workspace: "5ec7e7a0-d00d-4bad-9c0d-f00dcafe7a38",
  member: "user_MIGSECRET-MEMBER-7d2e90",
  key: "MIGSECRETKEYHASH4c1b7a03",
  limit: "4321.987",
};
const VALUES = Object.values(S);

/** The args, the same on both faces; `s` is pulumi.secret. The model lists by alias (sealed in the import id). */
const GUARDRAIL_ARGS = `{
  name: s(${JSON.stringify(S.name)}),
  description: s(${JSON.stringify(S.description)}),
  workspaceId: s(${JSON.stringify(S.workspace)}),
  allowedModels: s([${JSON.stringify(S.model)}]),
  ignoredModels: s([${JSON.stringify(S.ignoredModel)}]),
  allowedProviders: s([${JSON.stringify(S.provider)}]),
  ignoredProviders: s([${JSON.stringify(S.providerIgnored)}]),
  limitUsd: s(${S.limit}),
  resetInterval: s("monthly"),
  enforceZdr: s(false),
  contentFilterBuiltins: s([{ slug: "email", action: "block" }]),
  contentFilters: [{ pattern: s(${JSON.stringify(S.pattern)}), action: s("flag"), label: s(${JSON.stringify(S.label)}) }],
  enableFreeModelTraining: s(false),
  enablePaidModelTraining: s(true),
  enableFreeModelPublication: s(true),
  allowedDataRegions: s(["europe"]),
  includeByokInBudgets: s(true),
}`;
const MEMBERS = `{ guardrailId: vault.id, memberUserIds: s([${JSON.stringify(S.member)}]), exclusive: s(true) }`;
const KEYS = `{ guardrailId: vault.id, keyHashes: [s(${JSON.stringify(S.key)})], exclusive: s(false) }`;

const DYNAMIC = `
import * as pulumi from "@pulumi/pulumi";
import { Guardrail, GuardrailKeyAssignment, GuardrailMemberAssignment } from "pulumi-guardrails";
const s = pulumi.secret;
const vault = new Guardrail("vault", ${GUARDRAIL_ARGS});
new GuardrailMemberAssignment("vault-members", ${MEMBERS});
new GuardrailKeyAssignment("vault-keys", ${KEYS});
export const id = vault.id;
`;

/** The same program on the native face, by type token (what the generated SDK does). */
const NATIVE = `
import * as pulumi from "@pulumi/pulumi";
const s = pulumi.secret;
const Resource = pulumi.CustomResource as unknown as new (
  type: string,
  name: string,
  props: Record<string, unknown>,
) => pulumi.CustomResource;
const vault = new Resource("guardrails:index:Guardrail", "vault", ${GUARDRAIL_ARGS});
new Resource("guardrails:index:GuardrailMemberAssignment", "vault-members", ${MEMBERS});
new Resource("guardrails:index:GuardrailKeyAssignment", "vault-keys", ${KEYS});
export const id = vault.id;
`;

const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const isCiphertext = (v: unknown) =>
  !!v && typeof v === "object" && (v as Record<string, unknown>)["4dabf18193072939515e22adb298388d"] === SECRET_SIG;

/** Paths of the plain leaves of a value (a ciphertext is not looked into). */
function plainLeaves(value: unknown, path: string): string[] {
  if (isCiphertext(value) || value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => plainLeaves(v, `${path}[${i}]`));
  if (typeof value === "object") return Object.entries(value).flatMap(([k, v]) => plainLeaves(v, `${path}.${k}`));
  return [`${path} = ${JSON.stringify(value)}`];
}

/** Properties that are not the program's values: the engine's, the service's, and our bookkeeping. */
// mappedPolicyIds: the ids of the policies the service maps the guardrail to (its own ids, as
// guardrailId is), never a copy of an arg.
const NOT_ARGS = new Set([
  "__secretArgs",
  "createdAt",
  "updatedAt",
  "defaultWorkspaceId",
  "guardrailId",
  "mappedPolicyIds",
]);

/** Every plain leaf of the program's values in the native resources of an exported state. */
function plainArgs(state: any): string[] {
  const ours = (state.deployment.resources ?? []).filter((r: { type: string }) =>
    r.type.startsWith("guardrails:index:"),
  );
  expect(ours.map((r: { urn: string }) => r.urn.split("::").pop()).sort()).toEqual([
    "vault",
    "vault-keys",
    "vault-members",
  ]);
  return ours.flatMap((r: { urn: string; inputs?: object; outputs?: object }) =>
    (["inputs", "outputs"] as const).flatMap((part) =>
      Object.entries(r[part] ?? {})
        .filter(([k]) => !NOT_ARGS.has(k))
        .flatMap(([k, v]) => plainLeaves(v, `${r.urn.split("::").pop()}.${part}.${k}`)),
    ),
  );
}

/** Every file under a folder, as text (the state backend's checkpoints, backups and history). */
function filesUnder(dir: string): Array<[string, string]> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => [f, readFileSync(f, "utf8")] as [string, string]);
}

const found = (text: string) => VALUES.filter((v) => text.includes(v));

describe("a dynamic-face stack whose every arg is a secret, moved to the native face", () => {
  let p: Program;
  const printed: Array<[string, string]> = [];

  beforeAll(async () => {
    const models = join(mkdtempSync(join(tmpdir(), "migrate-secrets-e2e-")), "models.json");
    writeFileSync(
      models,
      JSON.stringify([
        { slug: S.model, canonical_slug: S.modelCanonical },
        { slug: S.ignoredModel, canonical_slug: S.ignoredModelCanonical },
      ]),
    );
    p = await Program.create("migrate-secrets-e2e", {
      emulatorArgs: ["--models", models, "--workspaces", S.workspace, "--members", S.member, "--key-hashes", S.key],
    });
    // The native plugin as the engine finds it: on PATH (after `npm run build`).
    p.env.PATH = `${join(REPO_ROOT, "src/native/bin")}:${p.env.PATH}`;
    p.write(DYNAMIC);
    const up = await p.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.code, up.output).toBe(0);
    printed.push(["up", up.output]);
  });
  afterAll(async () => {
    await p.close();
  });

  const migrate = (args: string[]) =>
    new Promise<{ code: number; output: string }>((resolve) => {
      const child = spawn(process.execPath, [join(REPO_ROOT, "dist/tools/migrate-native/cli.js"), ...args], {
        cwd: p.dir,
        env: p.env,
      });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d));
      child.stderr.on("data", (d: Buffer) => (output += d));
      child.on("close", (code) => resolve({ code: code ?? -1, output }));
    });

  it("moves every resource, records every arg as a ciphertext, and prints or stores no value", async () => {
    const writes = (await p.log()).writes;
    const dry = await migrate([]);
    printed.push(["migrate preview", dry.output]);
    expect(dry.code, dry.output).toBe(0);
    const run = await migrate(["--yes"]);
    printed.push(["migrate", run.output]);
    expect(run.code, run.output).toBe(0);
    const plain = await p.exportState();
    printed.push(["stack export", plain.text]);
    expect(plainArgs(plain.json)).toEqual([]);
    expect((await p.log()).writes).toBe(writes);
    for (const [step, text] of printed) expect({ step, found: found(text) }).toEqual({ step, found: [] });
  });

  it("the program on the native face previews and ups with no change, and still nothing holds a value", async () => {
    p.write(NATIVE);
    const preview = await p.pulumi(["preview", "--diff", "--expect-no-changes"]);
    printed.push(["native preview", preview.output]);
    expect(preview.code, preview.output).toBe(0);
    const up = await p.pulumi(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    printed.push(["native up", up.output]);
    expect(up.code, up.output).toBe(0);
    for (const [step, text] of printed) expect({ step, found: found(text) }).toEqual({ step, found: [] });
    expect(plainArgs((await p.exportState()).json)).toEqual([]);
    for (const [file, text] of filesUnder(join(p.dir, ".state")))
      expect({ file, found: found(text) }).toEqual({ file, found: [] });
    // The grep can fail: the same state with --show-secrets holds every value.
    expect(found((await p.exportState(true)).text)).toEqual(VALUES);
  });
});
