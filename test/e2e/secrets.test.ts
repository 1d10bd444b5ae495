/**
 * Every copy of a secret is a secret (issue 24, finding 1): one program whose every guardrail
 * arg, member id and key hash is a secret, through preview, up, a second preview, refresh, a
 * policy-pack preview whose rules fail on those values, and destroy. No CLI output, no
 * policy message, no plain `pulumi stack export`, no file of the state backend and no create
 * journal holds any of the secret values; booleans and enums (which no grep can tell apart)
 * are proven by the state's shape: every leaf of the resources' inputs and outputs sits
 * inside a ciphertext. The same greps find every value in `--show-secrets`, so they can fail.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Program, type RunResult } from "./harness";

/** Values no CLI output would hold by accident: long, and in no other test's data. */
const S = {
  name: "SECRET-NAME-b41d9e07",
  description: "SECRET-DESC-7f3a2c55",
  provider: "secret-prov-5e1d0a93",
  providerIgnored: "secret-prov-ign-c2b87f14",
  model: "secret-lab/model-a91f3c",
  modelCanonical: "secret-lab/model-a91f3c-20991231",
  forbidden: "other-lab/secret-model-3b7f60",
  forbiddenCanonical: "other-lab/secret-model-3b7f60-20991231",
  ignoredModel: "secret-lab/ignored-e6d24b",
  ignoredModelCanonical: "secret-lab/ignored-e6d24b-20991231",
  pattern: "SECRET-RX-0c9b7e[0-9]+",
  label: "SECRET-LABEL-4e2a91",
  workspace: "5ec7e7a0-d00d-4bad-9c0d-f00dcafe7a11",
  member: "user_SECRET-MEMBER-a81c3f",
  key: "SECRETKEYHASH9d27e4c1",
  limit: "4321.987",
};
const VALUES = Object.values(S);

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { Guardrail, GuardrailKeyAssignment, GuardrailMemberAssignment } from "pulumi-guardrails";

const s = pulumi.secret;
const vault = new Guardrail("vault", {
  name: s(${JSON.stringify(S.name)}),
  description: s(${JSON.stringify(S.description)}),
  workspaceId: s(${JSON.stringify(S.workspace)}),
  allowedModels: s([${JSON.stringify(S.model)}, ${JSON.stringify(S.forbidden)}]),
  ignoredModels: s([${JSON.stringify(S.ignoredModel)}]),
  allowedProviders: s([${JSON.stringify(S.provider)}]),
  ignoredProviders: s([${JSON.stringify(S.providerIgnored)}]),
  limitUsd: s(${S.limit}),
  resetInterval: s("monthly"),
  // Only the fallback: each vendor flag's output is a copy of it under another name.
  enforceZdr: s(false),
  contentFilterBuiltins: s([{ slug: "email", action: "block" }]),
  // Secrets inside a value, not around it.
  contentFilters: [{ pattern: s(${JSON.stringify(S.pattern)}), action: s("flag"), label: s(${JSON.stringify(S.label)}) }],
  enableFreeModelTraining: s(false),
  enablePaidModelTraining: s(true),
  enableFreeModelPublication: s(true),
  allowedDataRegions: s(["europe"]),
  includeByokInBudgets: s(true),
});
new GuardrailMemberAssignment("vault-members", { guardrailId: vault.id, memberUserIds: s([${JSON.stringify(S.member)}]), exclusive: s(true) });
new GuardrailKeyAssignment("vault-keys", { guardrailId: vault.id, keyHashes: [s(${JSON.stringify(S.key)})], exclusive: s(false) });
export const id = vault.id;
export const canonical = vault.allowedModelsCanonical;
`;

/** The ciphertext envelope of a secret in an exported state. */
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
const NOT_ARGS = new Set([
  "__provider",
  "__resource",
  "__secretArgs",
  "createdAt",
  "updatedAt",
  "defaultWorkspaceId",
  "guardrailId",
  // The ids of the policies the service maps the guardrail to (its own ids, as guardrailId is).
  "mappedPolicyIds",
]);

/** Every plain leaf of the program's values in the exported state's resources. */
function plainArgs(state: any): string[] {
  const ours = (state.deployment.resources ?? []).filter((r: { type: string }) =>
    r.type.startsWith("pulumi-nodejs:dynamic/guardrails:"),
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

describe("a program whose every arg is a secret", () => {
  let p: Program;
  /** The plain `pulumi stack export` after refresh (the last state with the resources). */
  let plainExport = "";
  /** What every CLI run printed, and every policy message, by the step that printed it. */
  const printed: Array<[string, string]> = [];
  const run = async (step: string, args: string[]): Promise<RunResult> => {
    const res = await p.pulumi(args);
    printed.push([step, res.output]);
    return res;
  };

  beforeAll(async () => {
    const models = join(mkdtempSync(join(tmpdir(), "secrets-e2e-")), "models.json");
    writeFileSync(
      models,
      JSON.stringify([
        { slug: S.model, canonical_slug: S.modelCanonical },
        { slug: S.forbidden, canonical_slug: S.forbiddenCanonical },
        { slug: S.ignoredModel, canonical_slug: S.ignoredModelCanonical },
      ]),
    );
    p = await Program.create("secrets-e2e", {
      emulatorArgs: ["--models", models, "--workspaces", S.workspace, "--members", S.member, "--key-hashes", S.key],
    });
    p.env.PULUMI_DEBUG_COMMANDS = "1"; // for --event-log
    p.write(PROGRAM);
  });
  afterAll(async () => {
    await p.close();
  });

  it("preview, up, a second preview and refresh print none of the values, and state holds each only as ciphertext", async () => {
    expect((await run("preview", ["preview", "--diff"])).code).toBe(0);
    expect((await run("up", ["up", "--yes", "--skip-preview", "--diff"])).code).toBe(0);
    const outputs = JSON.parse((await run("stack output", ["stack", "output", "--json"])).stdout);
    // A copy under another name reads as a secret; the resource id stays readable.
    expect(outputs).toMatchObject({ canonical: "[secret]", id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // What the service holds is the program's values: the secrets went where they belong.
    const id = outputs.id as string;
    expect((await p.api("GET", `/guardrails/${id}`)).body.data).toMatchObject({
      name: S.name,
      description: S.description,
      limit_usd: Number(S.limit),
      workspace_id: S.workspace,
    });
    const afterUp = await p.exportState();
    printed.push(["stack export after up", afterUp.text]);
    expect(plainArgs(afterUp.json)).toEqual([]);
    expect((await run("second preview", ["preview", "--diff", "--expect-no-changes"])).code).toBe(0);
    expect((await run("refresh", ["refresh", "--yes", "--skip-preview", "--diff"])).code).toBe(0);
    const afterRefresh = await p.exportState();
    printed.push(["stack export after refresh", afterRefresh.text]);
    expect(plainArgs(afterRefresh.json)).toEqual([]);
    plainExport = afterRefresh.text;
    for (const [step, text] of printed) expect({ step, found: found(text) }).toEqual({ step, found: [] });
  });

  it("a policy pack whose rules fail on those values quotes none of them", async () => {
    const pack = join(p.dir, "pack");
    cpSync(join(__dirname, "../../examples/policy"), pack, {
      recursive: true,
      filter: (src) => basename(src) !== "node_modules",
    });
    writeFileSync(
      join(pack, "PulumiPolicy.yaml"),
      readFileSync(join(pack, "PulumiPolicy.yaml"), "utf8").replace(/^runtime: nodejs$/m, "runtime: nodepolicy"),
    );
    symlinkSync(join(inject("e2e").template, "node_modules"), join(pack, "node_modules"), "dir");
    const log = join(p.dir, "policy-events.jsonl");
    const res = await run("policy preview", ["preview", "--diff", "--policy-pack", pack, "--event-log", log]);
    expect(existsSync(log), res.output).toBe(true);
    const messages = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.includes('"policyEvent"'))
      .map((l) => JSON.parse(l).policyEvent as { policyName: string; message: string });
    // The rules did fail on the secret values (a pass would prove nothing about their messages).
    expect(res.code).not.toBe(0);
    expect(messages.map((m) => m.policyName)).toEqual(
      expect.arrayContaining([
        "guardrails-max-limit-usd",
        "guardrails-allow-providers",
        "guardrails-forbid-models",
        "guardrails-require-reset-interval",
        "guardrails-require-zdr",
      ]),
    );
    for (const m of messages)
      expect({ policy: m.policyName, found: found(m.message) }).toEqual({ policy: m.policyName, found: [] });
    expect(found(res.output)).toEqual([]);
  });

  it("destroy prints none of them; no file of the state backend or the create journal holds one", async () => {
    const shown = await p.exportState(true);
    expect((await run("destroy", ["destroy", "--yes", "--skip-preview"])).code).toBe(0);
    expect(found(printed.at(-1)![1])).toEqual([]);
    for (const [file, text] of [...filesUnder(join(p.dir, ".state")), ...filesUnder(join(p.dir, ".journal"))])
      expect({ file, found: found(text) }).toEqual({ file, found: [] });
    // The grep can fail: the same state with --show-secrets holds every value.
    expect(found(plainExport)).toEqual([]);
    expect(found(shown.text)).toEqual(VALUES);
  });
});
