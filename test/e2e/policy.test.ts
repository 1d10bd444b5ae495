/**
 * The policy pack of examples/policy under the real CLI, with the factory's rules over real
 * programs against the emulator. One program breaks each rule once (one guardrail per rule),
 * so every rule is proven by its own guardrail while the runs stay few.
 *
 * The CLI built here runs `runtime: nodejs` packs through a language host that cannot (sdk
 * v3.68.0), so the pack's `runtime` is rewritten to `nodepolicy`, the launcher that
 * `scripts/ensure-pulumi --policy-launcher` installed in the tests' own PULUMI_HOME.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { Program } from "./harness";

const example = join(__dirname, "../../examples/policy");
const declarative = join(__dirname, "../../examples/declarative");
const golden = join(__dirname, "golden/policy-preview.md");
const SECRETS = [/987654/, /s3cr3t/];

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { Guardrail, GuardrailArgs, GuardrailMemberAssignment } from "pulumi-guardrails";

// Compliant with every rule of examples/policy; each guardrail below breaks exactly one.
const base: Omit<GuardrailArgs, "name"> = {
  description: "policy e2e",
  limitUsd: 500,
  resetInterval: "weekly",
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  contentFilterBuiltins: [{ slug: "email", action: "redact" }, { slug: "ssn", action: "block" }],
  allowedModels: ["vendor-a/model-x"],
  allowedProviders: ["provider-a"],
};
function guardrail(name: string, change: Partial<GuardrailArgs>, member: string | null = "user_" + name.replace(/-/g, "_")) {
  const g = new Guardrail(name, { ...base, name: "G " + name, ...change });
  if (member) new GuardrailMemberAssignment(name + "-members", { guardrailId: g.id, memberUserIds: [member] });
  return g;
}
const ok = guardrail("ok", {}, "user_alice");
guardrail("v-limit", { limitUsd: pulumi.secret(987654.25) });
guardrail("v-reset", { resetInterval: "monthly" });
guardrail("v-zdr", { enforceZdrVendorB: false });
guardrail("v-filters", { contentFilterBuiltins: [{ slug: "email", action: "redact" }] });
guardrail("v-forbid", { allowedModels: ["vendor-a/model-x", "other-lab/open-model-8b"] });
guardrail("v-providers", { allowedProviders: pulumi.secret(["provider-a", "s3cr3t-provider"]) });
guardrail("v-members", { description: undefined }, null);
// Not known until "ok" exists: checked at up, where it is over the ceiling.
guardrail("later", { limitUsd: ok.id.apply(() => 5000) });
// Made through the package's provider under a type token of its own: still a guardrail.
const { shimFor } = require("pulumi-guardrails/internal");
class Sneaky extends pulumi.dynamic.Resource {
  constructor(name: string, props: Record<string, unknown>) { super(shimFor("guardrail"), name, props, {}, "mymod", "Whatever"); }
}
function sneaky(name: string, change: Partial<GuardrailArgs>) {
  const g = new Sneaky(name, { ...base, name: "G " + name, ...change });
  new GuardrailMemberAssignment(name + "-members", { guardrailId: g.id, memberUserIds: ["user_" + name.replace(/-/g, "_")] });
}
sneaky("v-sneaky", { limitUsd: 999999 });
`;

// The native face (issue 26) without its SDK, as the SDK does it: a CustomResource of
// `guardrails:index:Guardrail`, served by the plugin on PATH (src/native/bin). Its member sets are
// the dynamic face's: one stack, both faces.
const NATIVE_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { GuardrailMemberAssignment } from "pulumi-guardrails";

const base = {
  description: "policy e2e, native face",
  limitUsd: 500,
  resetInterval: "weekly",
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  contentFilterBuiltins: [{ slug: "email", action: "redact" }, { slug: "ssn", action: "block" }],
  allowedModels: ["vendor-a/model-x"],
  allowedProviders: ["provider-a"],
};
class Guardrail extends pulumi.CustomResource {
  constructor(name: string, props: Record<string, unknown>) { super("guardrails:index:Guardrail", name, props); }
}
function native(name: string, change: Record<string, unknown>, member = true) {
  const g = new Guardrail(name, { ...base, name: "G " + name, ...change });
  if (member) new GuardrailMemberAssignment(name + "-members", { guardrailId: g.id, memberUserIds: ["user_" + name.replace(/-/g, "_")] });
}
native("n-ok", {});
native("n-limit", { limitUsd: pulumi.secret(987654.25) });
native("n-filters", { contentFilterBuiltins: [{ slug: "email", action: "redact" }] });
native("n-members", {}, false);
// A __provider naming another kind of the package: the plugin's Check strips it; the token decides.
native("n-sneaky", { limitUsd: 999999, __provider: 'require("pulumi-guardrails/internal").memberAssignment' });
`;

// Guardrail Policies (issue 40) under the same pack: each rule judges the policies holding its setting.
const POLICIES_PROGRAM = `
import { BudgetPolicy, ModelAccessPolicy, ModerationPolicy, WorkspaceWidePolicy } from "pulumi-guardrails";

const workspaceId = "00000000-0000-4000-8000-000000000001";
const access = {
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  allowedModels: ["vendor-a/model-x"],
  allowedProviders: ["provider-a"],
};
new BudgetPolicy("pb-ok", { workspaceId, name: "Budget ok", limitUsd: 100, resetInterval: "daily" });
new BudgetPolicy("pb-over", { workspaceId, name: "Over", limitUsd: 5000, resetInterval: "weekly" });
new ModelAccessPolicy("pa-ok", { workspaceId, name: "Access ok", ...access });
new ModerationPolicy("pm-filters", { workspaceId, name: "Emails only", contentFilterBuiltins: [{ slug: "email", action: "redact" }] });
new WorkspaceWidePolicy("pw-providers", { name: "Org access", policyType: "modelAccess", ...access, allowedProviders: ["provider-z"], allWorkspaces: true });
`;

interface Violation {
  level: string;
  policy: string;
  name: string;
  message: string;
}

describe("policy packs from pulumi-guardrails/policy under the real CLI", () => {
  let p: Program;
  let pack: string;
  const transcript: string[] = [];

  /** A copy of a pack folder with the launcher's runtime and the template's node_modules. */
  function installPack(from: string, to: string): string {
    // Not the folder's own node_modules (the examples e2e test installs one there): the template's is linked below.
    cpSync(from, to, { recursive: true, filter: (src) => basename(src) !== "node_modules" });
    const yaml = readFileSync(join(to, "PulumiPolicy.yaml"), "utf8");
    expect(yaml).toMatch(/^runtime: nodejs$/m);
    writeFileSync(join(to, "PulumiPolicy.yaml"), yaml.replace(/^runtime: nodejs$/m, "runtime: nodepolicy"));
    symlinkSync(join(inject("e2e").template, "node_modules"), join(to, "node_modules"), "dir");
    return to;
  }

  beforeAll(async () => {
    p = await Program.create("policy-e2e");
    p.env.PULUMI_DEBUG_COMMANDS = "1";
    p.write(PROGRAM);
    pack = installPack(example, join(p.dir, "pack"));
  });
  afterAll(async () => {
    for (const t of transcript) for (const s of SECRETS) expect(t).not.toMatch(s);
    await p.close();
  });

  /** A preview with the engine's event log: the exit code, the JSON, and the policy events. */
  async function preview(...extra: string[]) {
    const log = join(p.dir, `events-${Date.now()}.jsonl`);
    const res = await p.pulumi([
      "preview",
      "--json",
      "--event-log",
      log,
      ...(extra.includes("--policy-pack") ? [] : ["--policy-pack", pack]),
      ...extra,
    ]);
    transcript.push(res.output);
    writeFileSync(join(p.dir, "preview.json"), res.stdout);
    const violations: Violation[] = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l.includes('"policyEvent"'))
      .map((l) => JSON.parse(l).policyEvent)
      .map((e) => ({
        level: e.enforcementLevel,
        policy: e.policyName,
        name: e.resourceUrn.split("::").pop(),
        message: e.message,
      }));
    for (const v of violations) transcript.push(v.message);
    return { code: res.code, log, violations, output: res.output };
  }
  const keys = (vs: Violation[]) => vs.map((v) => `${v.level} ${v.policy} ${v.name}`).sort();

  it("preview fails on each rule, naming the guardrail and the rule; unknowns are checked at up; no secret in any message", async () => {
    const { code, violations, log } = await preview();
    expect(code).not.toBe(0);
    expect(keys(violations)).toEqual([
      "advisory guardrails-description v-members",
      "advisory guardrails-max-limit-usd later",
      "mandatory guardrails-allow-providers v-providers",
      "mandatory guardrails-forbid-models v-forbid",
      "mandatory guardrails-max-limit-usd v-limit",
      "mandatory guardrails-max-limit-usd v-sneaky",
      "mandatory guardrails-require-builtin-filters v-filters",
      "mandatory guardrails-require-member-set v-members",
      "mandatory guardrails-require-reset-interval v-reset",
      "mandatory guardrails-require-zdr v-zdr",
    ]);
    for (const v of violations.filter(
      (v) => v.policy.startsWith("guardrails-") && v.policy !== "guardrails-description",
    ))
      expect(v.message).toContain(`guardrail "${v.name}": `);
    expect(violations.find((v) => v.name === "later")!.message).toMatch(
      /limitUsd is not known until the resources it depends on exist; guardrails-max-limit-usd is checked at up/,
    );
    expect(violations.find((v) => v.name === "v-limit")!.message).toContain(
      "limitUsd [secret] is over the organization's ceiling of 1000 USD",
    );
    expect(violations.find((v) => v.name === "v-providers")!.message).toContain(
      "allowedProviders has 1 provider [secret] outside",
    );
    // A value the program did not mark secret is quoted; a secret one never is.
    expect(violations.find((v) => v.name === "v-reset")!.message).toContain(
      'guardrail "v-reset": resetInterval "monthly" resets less often than the organization requires (daily or weekly)',
    );
    expect(violations.find((v) => v.name === "v-sneaky")!.message).toContain(
      'guardrail "v-sneaky": limitUsd 999999 is over the organization\'s ceiling of 1000 USD',
    );

    // The PR summary, from the same preview: violations first, mandatory before advisory.
    const cli = join(inject("e2e").template, "node_modules/pulumi-guardrails/dist/tools/preview-summary/cli.js");
    let summary = "";
    try {
      execFileSync(process.execPath, [cli, "--event-log", log, join(p.dir, "preview.json")], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
    } catch (err) {
      summary = (err as { stdout: string; status: number }).stdout;
      expect((err as { status: number }).status).toBe(1); // a failed preview is never "no changes"
    }
    transcript.push(summary);
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, summary);
    expect(summary).toBe(readFileSync(golden, "utf8"));
  });

  it("pulumi up (with its preview) makes no API call when a mandatory rule fails", async () => {
    await p.clearLog();
    const res = await p.pulumi(["up", "--yes", "--policy-pack", pack]);
    transcript.push(res.output);
    expect(res.code).not.toBe(0);
    expect(res.output).toMatch(/\[mandatory\]\s+guardrails-max-limit-usd/);
    expect(res.output).toContain('guardrail "v-sneaky": limitUsd 999999 is over');
    const log = await p.log();
    expect(log.writes).toBe(0);
    expect(log.counts.createGuardrail ?? 0).toBe(0);
  });

  it("pack config overrides the options: every rule advisory (preview passes, each still warns), and a lower ceiling; the provenance record off, each rule names what it no longer sees", async () => {
    const config = join(p.dir, "pack-config.json");
    writeFileSync(
      config,
      JSON.stringify({
        all: "advisory",
        "guardrails-max-limit-usd": { enforcementLevel: "advisory", maxLimitUsd: 100 },
      }),
    );
    const { code, violations, output } = await preview("--policy-pack-config", config);
    expect(code, output).toBe(0);
    expect(keys(violations)).toEqual(
      [
        "advisory guardrails-allow-providers v-providers",
        "advisory guardrails-description v-members",
        "advisory guardrails-forbid-models v-forbid",
        "advisory guardrails-max-limit-usd later",
        // "all" sets guardrails-provenance too, so it records nothing: each rule names the resource it cannot tell apart, at its own level.
        ...[
          "allow-providers",
          "forbid-models",
          "max-limit-usd",
          "require-builtin-filters",
          "require-member-set",
          "require-reset-interval",
          "require-zdr",
        ].map((r) => `advisory guardrails-${r} v-sneaky`),
        // The pack config's ceiling (100), not the options' (1000): the compliant guardrails' 500 is over it.
        ...["ok", "v-filters", "v-forbid", "v-limit", "v-members", "v-providers", "v-reset", "v-zdr"].map(
          (n) => `advisory guardrails-max-limit-usd ${n}`,
        ),
        "advisory guardrails-require-builtin-filters v-filters",
        // Nor can it tell that v-sneaky-members names a guardrail: it might name v-members, checked at up (a stack-level advisory).
        "advisory guardrails-require-member-set policy-e2e-dev",
        "advisory guardrails-require-reset-interval v-reset",
        "advisory guardrails-require-zdr v-zdr",
        // Likewise where v-sneaky-members sends its members: a guardrail the rules may not check (issue 38), at up.
        "advisory guardrails-sets-on-checked-guardrails policy-e2e-dev",
      ].sort(),
    );
    expect(
      violations.find((v) => v.policy === "guardrails-require-member-set" && v.name !== "v-sneaky")!.message,
    ).toContain('guardrail "v-members": which guardrail each member set names is not known');
    expect(violations.find((v) => v.name === "ok")!.message).toContain(
      'guardrail "ok": limitUsd [hidden] is over the organization\'s ceiling of 100 USD',
    );
    expect(violations.find((v) => v.name === "v-sneaky")!.message).toMatch(
      /dynamic resource "v-sneaky" \(type "pulumi-nodejs:dynamic\/mymod:Whatever"\): cannot tell whether it is a guardrail/,
    );
  });

  it("up --skip-preview: an unknown at preview is checked at up, and the failing guardrail never reaches the API", async () => {
    // Only "ok" and "later": the engine stops an update at its first mandatory failure.
    p.write(PROGRAM.replace(/^(guardrail|sneaky)\("v-.*$/gm, ""));
    await p.clearLog();
    const res = await p.pulumi(["up", "--yes", "--skip-preview", "--policy-pack", pack]);
    transcript.push(res.output);
    expect(res.code).not.toBe(0);
    // "later"'s limit was unknown at preview; at up it is known (5000) and the rule fails it.
    expect(res.output).toMatch(/guardrail "later": limitUsd 5000 is over the organization's ceiling of 1000 USD/);
    const log = await p.log();
    expect(log.counts.createGuardrail).toBe(1);
    const names = ((await p.api("GET", "/guardrails?limit=100")).body.data as Array<{ name: string }>).map(
      (g) => g.name,
    );
    expect(names).toEqual(["G ok"]);
  });

  it("the declarative path: examples/declarative's pack reads guardrails/policy.yaml, which the loader does not take for a guardrail", async () => {
    cpSync(join(declarative, "guardrails"), join(p.dir, "guardrails"), { recursive: true });
    p.write(readFileSync(join(declarative, "index.ts"), "utf8"));
    const declared = installPack(join(declarative, "policy"), join(p.dir, "policy"));
    const { code, violations } = await preview("--policy-pack", declared);
    expect(code).toBe(0);
    // support.yaml lacks the email filter, an advisory rule in policy.yaml; everything else passes.
    expect(keys(violations)).toEqual(["advisory guardrails-require-builtin-filters support"]);
  });

  it("Guardrail Policies: each settings rule judges the policies that hold its setting, naming them", async () => {
    p.write(POLICIES_PROGRAM);
    const { code, violations } = await preview();
    expect(code).not.toBe(0);
    expect(keys(violations)).toEqual([
      "mandatory guardrails-allow-providers pw-providers",
      "mandatory guardrails-max-limit-usd pb-over",
      "mandatory guardrails-require-builtin-filters pm-filters",
    ]);
    expect(violations.find((v) => v.name === "pb-over")!.message).toContain(
      'budget policy "pb-over": limitUsd 5000 is over the organization\'s ceiling of 1000 USD',
    );
    expect(violations.find((v) => v.name === "pm-filters")!.message).toMatch(
      /^moderation policy "pm-filters": lacks the builtin content filter ssn/m,
    );
    expect(violations.find((v) => v.name === "pw-providers")!.message).toMatch(
      /^workspace-wide model availability policy "pw-providers": allowedProviders has 1 provider "provider-z" outside/m,
    );
  });

  it("effectiveAccess, switched on by a pack config: a member outside the group who can reach the model fails the preview", async () => {
    p.write(`
import { Guardrail, GuardrailMemberAssignment, WorkspaceDefaultGuardrail } from "pulumi-guardrails";
const workspaceId = "00000000-0000-4000-8000-000000000001";
new WorkspaceDefaultGuardrail("default", { workspaceId, allowedModels: ["vendor-a/model-x"] });
const research = new Guardrail("research", { workspaceId, name: "Research", allowedModels: ["vendor-a/model-x", "vendor-b/model-m"] });
new GuardrailMemberAssignment("research-members", { guardrailId: research.id, memberUserIds: ["user_rita", "user_sam"], exclusive: true });
`);
    const config = join(p.dir, "effective-config.json");
    writeFileSync(
      config,
      JSON.stringify({
        "guardrails-effective-access": {
          enforcementLevel: "mandatory",
          effectiveAccess: { models: { "vendor-b/model-m": { onlyMembers: ["user_rita"] } } },
        },
      }),
    );
    const { code, violations } = await preview("--policy-pack-config", config);
    expect(code).not.toBe(0);
    expect(violations.filter((v) => v.policy === "guardrails-effective-access").map((v) => v.message)).toEqual([
      expect.stringContaining('member "user_sam" can reach "vendor-b/model-m" (layers: "Research")'),
    ]);
  });

  it("the native face: its guardrails are held to every rule, beside the dynamic face's sets; its preview is summarised", async () => {
    p.env.PATH = `${join(__dirname, "../../src/native/bin")}:${p.env.PATH}`;
    p.write(NATIVE_PROGRAM);
    const { code, violations } = await preview();
    expect(code).not.toBe(0);
    expect(keys(violations)).toEqual([
      "mandatory guardrails-max-limit-usd n-limit",
      "mandatory guardrails-max-limit-usd n-sneaky",
      "mandatory guardrails-require-builtin-filters n-filters",
      "mandatory guardrails-require-member-set n-members",
    ]);
    expect(violations.find((v) => v.name === "n-limit")!.message).toContain(
      "limitUsd [secret] is over the organization's ceiling of 1000 USD",
    );
    expect(violations.find((v) => v.name === "n-sneaky")!.message).toContain('guardrail "n-sneaky": limitUsd 999999');

    // Without the pack the preview passes, and the PR summary reads the native steps.
    const res = await p.pulumi(["preview", "--json"]);
    transcript.push(res.output);
    expect(res.code).toBe(0);
    const cli = join(inject("e2e").template, "node_modules/pulumi-guardrails/dist/tools/preview-summary/cli.js");
    const summary = execFileSync(process.execPath, [cli], { input: res.stdout, encoding: "utf8" });
    transcript.push(summary);
    for (const n of ["n-ok", "n-limit", "n-filters", "n-members", "n-sneaky"])
      expect(summary).toContain(`### \`G ${n}\` (\`${n}\`): new`);
    expect(summary).toMatch(/^- limitUsd: `\[secret\]`$/m);
    expect(summary).toMatch(/members: 4 added/);
  });
});
