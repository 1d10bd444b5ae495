/**
 * The review summary's goldens (issue 30) from real `pulumi preview --json` under the real CLI
 * against the emulator: one stack brought up once, then five pull requests previewed against
 * it (none applied): one that only tightens, one that loosens settings, one that moves a member
 * to a laxer guardrail, one that removes and weakens filters, and one that a mandatory policy
 * fails. `UPDATE_GOLDEN=1` writes the normalised JSON (and the policy events) to
 * test/e2e/golden/review/; test/unit/review-goldens.test.ts renders each and compares it with
 * the reviewed Markdown. Without it, this test checks that the CLI still plans the same steps.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { normalizePreviewJson } from "../helpers/normalize-preview";
import { Program } from "./harness";

const dir = join(__dirname, "golden/review");
const KEYS = ["a1b2c3d4e5f60718", "b2c3d4e5f6071829"];

type Args = Record<string, unknown>;
/** Compliant with examples/policy: a strict guardrail and a laxer one, each with members and a key. */
const STRICT: Args = {
  name: "Strict",
  description: "Contractors: EU only, few models",
  allowedModels: ["vendor-a/model-x"],
  allowedProviders: ["provider-a"],
  ignoredModels: ["other-lab/open-model-70b"],
  limitUsd: 100,
  resetInterval: "daily",
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  contentFilterBuiltins: [
    { slug: "email", action: "block" },
    { slug: "ssn", action: "block" },
    { slug: "regex-prompt-injection", action: "block" },
  ],
  contentFilters: [{ pattern: "\\bproject-nova\\b", action: "block", label: "codename" }],
  allowedDataRegions: ["europe"],
  enableFreeModelTraining: false,
  includeByokInBudgets: true,
};
const LAX: Args = {
  name: "Lax",
  description: "Research: most models",
  allowedModels: ["vendor-a/model-x", "vendor-a/model-y", "vendor-b/model-m"],
  allowedProviders: ["provider-a", "provider-b"],
  limitUsd: 1000,
  resetInterval: "weekly",
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  contentFilterBuiltins: [
    { slug: "email", action: "redact" },
    { slug: "ssn", action: "redact" },
  ],
};
const MEMBERS = { strict: ["user_alice", "user_bob"], lax: ["user_carol"] };

function program(strict: Args, lax: Args, members = MEMBERS): string {
  return `
import { Guardrail, GuardrailKeyAssignment, GuardrailMemberAssignment } from "pulumi-guardrails";
const strict = new Guardrail("strict", ${JSON.stringify(strict)});
const lax = new Guardrail("lax", ${JSON.stringify(lax)});
new GuardrailMemberAssignment("strict-members", { guardrailId: strict.id, memberUserIds: ${JSON.stringify(members.strict)} });
new GuardrailMemberAssignment("lax-members", { guardrailId: lax.id, memberUserIds: ${JSON.stringify(members.lax)} });
new GuardrailKeyAssignment("strict-keys", { guardrailId: strict.id, keyHashes: ["${KEYS[0]}"] });
new GuardrailKeyAssignment("lax-keys", { guardrailId: lax.id, keyHashes: ["${KEYS[1]}"] });
`;
}

const without = (a: Args, ...keys: string[]) =>
  Object.fromEntries(Object.entries(a).filter(([k]) => !keys.includes(k)));

/** The five pull requests, each as the program it leaves. */
const CASES: Record<string, { source: string; policy?: boolean }> = {
  tightens: {
    source: program(
      {
        ...STRICT,
        description: "Contractors: EU only, fewer models",
        // The canonical slug of the model already allowed: the same model, no change.
        allowedModels: ["vendor-a/model-x-20260115"],
        ignoredModels: ["other-lab/open-model-70b", "vendor-c/model-q"],
        limitUsd: 50,
        contentFilterBuiltins: [...(STRICT.contentFilterBuiltins as Args[]), { slug: "phone", action: "redact" }],
      },
      {
        ...LAX,
        allowedModels: ["vendor-a/model-x", "vendor-b/model-m"],
        enforceZdrOther: true,
        contentFilterBuiltins: [
          { slug: "email", action: "block" },
          { slug: "ssn", action: "redact" },
        ],
      },
    ),
  },
  "loosens-setting": {
    source: program(
      {
        ...without(STRICT, "enforceZdrVendorB", "includeByokInBudgets"),
        allowedModels: ["vendor-a/model-x", "vendor-b/model-m-fast"],
        limitUsd: 250,
        resetInterval: "weekly",
        allowedDataRegions: ["europe", "us"],
        enableFreeModelTraining: true,
      },
      LAX,
    ),
  },
  "moves-member": {
    source: program(STRICT, LAX, { strict: ["user_alice"], lax: ["user_carol", "user_bob"] }),
  },
  "removes-filter": {
    source: program(
      {
        ...without(STRICT, "contentFilters"),
        contentFilterBuiltins: [
          { slug: "email", action: "redact" },
          { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" },
        ],
      },
      LAX,
    ),
  },
  "policy-fails": {
    policy: true,
    source: program(
      {
        ...STRICT,
        limitUsd: 2500,
        ignoredProviders: ["provider-z"],
        contentFilterBuiltins: [
          { slug: "email", action: "block" },
          { slug: "regex-prompt-injection", action: "block" },
        ],
      },
      LAX,
    ),
  },
};

describe("review summary goldens from the real CLI", () => {
  let p: Program;
  let pack: string;

  beforeAll(async () => {
    p = await Program.create("review-e2e");
    p.env.PULUMI_DEBUG_COMMANDS = "1";
    p.write(program(STRICT, LAX));
    await p.up();
    // As test/e2e/policy.test.ts installs it: the launcher's runtime and the template's node_modules.
    pack = join(p.dir, "pack");
    const from = join(__dirname, "../../examples/policy");
    cpSync(from, pack, { recursive: true, filter: (src) => basename(src) !== "node_modules" });
    const yaml = readFileSync(join(pack, "PulumiPolicy.yaml"), "utf8");
    writeFileSync(join(pack, "PulumiPolicy.yaml"), yaml.replace(/^runtime: nodejs$/m, "runtime: nodepolicy"));
    symlinkSync(join(inject("e2e").template, "node_modules"), join(pack, "node_modules"), "dir");
  });
  afterAll(() => p.close());

  it.each(Object.keys(CASES))("%s: the preview plans what the golden holds", async (name) => {
    const c = CASES[name]!;
    p.write(c.source);
    const log = join(p.dir, `events-${name}.jsonl`);
    // As the example workflow runs it: refreshed, with unchanged resources shown (a move is judged
    // against the settings of both guardrails, which `--show-sames` keeps in the JSON).
    const res = await p.pulumi([
      "preview",
      "--refresh",
      "--show-sames",
      "--json",
      "--event-log",
      log,
      ...(c.policy ? ["--policy-pack", pack] : []),
    ]);
    expect(res.code === 0).toBe(!c.policy);
    const fixture = normalizePreviewJson(JSON.parse(res.stdout));
    const events = readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => /"policy(Event|LoadEvent|AnalyzeSummaryEvent)"/.test(l))
      .map((l) => {
        const { steps: _steps, timestamp: _t, ...event } = normalizePreviewJson({ steps: [], ...JSON.parse(l) });
        return JSON.stringify(event);
      });
    if (c.policy) expect(events.some((l) => l.includes('"mandatory"'))).toBe(true);
    const json = join(dir, `${name}.preview.json`);
    if (process.env.UPDATE_GOLDEN) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(json, JSON.stringify(fixture, null, 2) + "\n");
      if (c.policy) writeFileSync(join(dir, `${name}.events.jsonl`), events.join("\n") + "\n");
    }
    expect(existsSync(json)).toBe(true);
    const ops = (j: { steps: Array<{ op: string; urn: string }> }) => j.steps.map((s) => `${s.op} ${s.urn}`).sort();
    expect(ops(fixture)).toEqual(ops(JSON.parse(readFileSync(json, "utf8"))));
  });
});
