/**
 * Issue 28: the same organization (examples/org: three guardrails with every kind of setting,
 * an exclusive member set, a key set, a guardrail looked up by name) written in TypeScript on
 * the native face, Pulumi YAML, Python and Go, each run through one scenario under the real CLI
 * against its own emulator: `up`; `preview --expect-no-changes`; an edit (a member added in the
 * stack config) that previews by member id, then `up`; drift made by hand, found by `refresh`
 * and repaired by `up`; `pulumi import` of an unmanaged guardrail; `destroy`. Every step's API
 * calls come from the emulator's request log, and every language makes the same calls: the
 * last test compares them and prints the table.
 *
 * Issue 40: a Pulumi YAML and a Python program manage a BudgetPolicy (members and a key) and a
 * ModerationPolicy (the workspace default, a member opted out): up, a no-op preview, destroy.
 *
 * GUARDRAILS_E2E_LANGUAGES=typescript,yaml runs some of the languages (all four by default).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { assignedMembers } from "../helpers/assigned";
import { DEFAULT_WS, W2 } from "../helpers/emulator";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_KEY_HASHES as HASH } from "../../emulator";
import { REPO_ROOT } from "../../support/spawn-emulator";
import { LANGUAGES, type Language, languageHostDir, prepareLanguage, pythonVenv } from "../helpers/languages";
import { useProgram } from "./harness";

const ONLY = process.env.GUARDRAILS_E2E_LANGUAGES?.split(",");
const RUN = LANGUAGES.filter((l) => !ONLY || ONLY.includes(l));

const STEPS = ["up", "no-op preview", "edit preview", "edit up", "refresh", "repair up", "import", "destroy"] as const;
type Step = (typeof STEPS)[number];
interface StepLog {
  total: number;
  writes: number;
  counts: Record<string, number>;
  seconds: number;
}
const LOGS: Partial<Record<Language, Partial<Record<Step, StepLog>>>> = {};

/** What the service holds after `up`, as its API answers (the programs' settings, canonical slugs). */
const EXPECTED = {
  Engineering: {
    description: "Product engineers",
    workspace_id: DEFAULT_WS,
    allowed_models: ["vendor-a/model-x-20260115", "vendor-b/model-m-20260201"],
    allowed_providers: ["provider-a", "provider-b"],
    enforce_zdr_vendor_a: true,
    enforce_zdr_vendor_b: true,
    content_filter_builtins: [
      { slug: "email", action: "redact" },
      { slug: "regex-prompt-injection", action: "flag", scan_scope: "user_only" },
    ],
    allowed_data_regions: ["europe", "us"],
    limit_usd: 500,
    reset_interval: "monthly",
  },
  Research: {
    ignored_models: ["vendor-c/model-q-20251111"],
    ignored_providers: ["provider-z"],
    enforce_zdr_vendor_c: true,
    enforce_zdr_other: false,
    enable_free_model_training: false,
    enable_paid_model_training: false,
    enable_free_model_publication: false,
    content_filters: [{ pattern: "\\bproject-[a-z]+\\b", action: "redact", label: "CODENAME" }],
    limit_usd: 1000,
    reset_interval: "weekly",
    include_byok_in_budgets: true,
  },
  Support: {
    description: "Customer support agents",
    workspace_id: W2,
    allowed_models: ["vendor-a/model-x-mini-20260115"],
    content_filter_builtins: [
      { slug: "ssn", action: "block" },
      { slug: "credit-card", action: "redact" },
      { slug: "phone", action: "redact" },
    ],
    content_filters: [{ pattern: "internal only", action: "block" }],
    allowed_data_regions: ["europe"],
    limit_usd: 50,
    reset_interval: "daily",
  },
};

/** Every guardrail on the emulator (both workspaces), by name. */
async function guardrailsByName(p: ReturnType<typeof useProgram>): Promise<Record<string, Record<string, unknown>>> {
  const all: Array<Record<string, unknown>> = [];
  for (const ws of [DEFAULT_WS, W2])
    all.push(...(await p.api("GET", `/guardrails?workspace_id=${ws}&limit=100`)).body.data);
  return Object.fromEntries(all.map((g) => [g.name as string, g]));
}

const keysOf = async (p: ReturnType<typeof useProgram>, g: string) =>
  ((await p.api("GET", `/guardrails/${g}/assignments/keys?limit=100`)).body.data as Array<{ key_hash: string }>)
    .map((k) => k.key_hash)
    .sort();

describe.each(RUN)("examples/org/%s under the CLI", (language) => {
  const p = useProgram(`org-${language}`);
  const log: Partial<Record<Step, StepLog>> = {};
  LOGS[language] = log;
  let finance = "";
  let ids: Record<string, string> = {};
  /** Runs one step of the scenario with the request log cleared before and read after. */
  const step = async <T>(name: Step, f: () => Promise<T>): Promise<T> => {
    await p.clearLog();
    const start = Date.now();
    const result = await f();
    const { total, writes, counts } = await p.log();
    log[name] = { total, writes, counts, seconds: Math.round((Date.now() - start) / 100) / 10 };
    return result;
  };

  beforeAll(async () => {
    await prepareLanguage(p, language, inject("e2e").work);
    // The guardrail the program looks up and does not manage (the finance team's).
    const made = await p.api("POST", "/guardrails", { name: "Finance", limit_usd: 75, reset_interval: "monthly" });
    finance = made.body.data.id;
  });

  it("up: three guardrails with every kind of setting, the member and key sets, the lookup", async () => {
    await step("up", () => p.up());
    ids = await p.outputs();
    expect(ids.financeId).toBe(finance);
    expect(ids.financeLimitUsd).toBe(75);
    const held = await guardrailsByName(p);
    expect(Object.keys(held).sort()).toEqual(["Engineering", "Finance", "Research", "Support"]);
    for (const [name, fields] of Object.entries(EXPECTED)) expect(held[name], name).toMatchObject(fields);
    expect([held.Engineering!.id, held.Research!.id, held.Support!.id]).toEqual([
      ids.engineeringId,
      ids.researchId,
      ids.supportId,
    ]);
    expect(await assignedMembers(p, ids.engineeringId!)).toEqual(["user_alice", "user_bob"]);
    expect(await keysOf(p, ids.supportId!)).toEqual(["a1b2c3d4e5f60718", "b2c3d4e5f6071829"]);
  });

  it("preview --expect-no-changes: the program as it stands changes nothing", async () => {
    const res = await step("no-op preview", () => p.pulumi(["preview", "--expect-no-changes", "--diff"]));
    expect(res.code, res.output).toBe(0);
    expect(log["no-op preview"]!.writes).toBe(0);
  });

  it("an edit (a member added in the stack config) previews by member id, then applies", async () => {
    const members = ["user_alice", "user_bob", "user_carol"].flatMap((m, i) => [
      "--plaintext",
      `engineeringMembers[${i}]=${m}`,
    ]);
    await p.pulumi(["config", "set-all", "--path", ...members], { check: true });
    const res = await step("edit preview", () => p.preview());
    expect(res.code, res.output).toBe(0);
    expect(res.stdout).toMatch(
      /~ guardrails:index:GuardrailMemberAssignment: \(update\)\s*\n\s*\[id=\S+\]\s*\n\s*\[urn=\S+::engineering-members\]\s*\n(?:\s*\[provider=.*\n)?\s*~ members: \{\s*\n\s*\+ user_carol: true\s*\n\s*\}/,
    );
    expect(res.stdout).toMatch(/~ 1 to update\s*\n\s*5 unchanged/);
    await step("edit up", () => p.up());
    expect(await assignedMembers(p, ids.engineeringId!)).toEqual(["user_alice", "user_bob", "user_carol"]);
  });

  it("drift made by hand: refresh finds a changed limit and a member added out of band, up repairs both", async () => {
    await p.api("PATCH", `/guardrails/${ids.researchId}`, { limit_usd: 5 });
    await p.api("POST", `/guardrails/${ids.engineeringId}/assignments/members`, { member_user_ids: ["user_dave"] });
    const res = await step("refresh", () => p.refresh("--diff"));
    expect(res.stdout).toMatch(/~ members: \{\s*\n\s*\+ user_dave: "assigned here, not in the program"/);
    expect(res.stdout).toMatch(
      /guardrails:index:Guardrail::research\]\s*\n(?:\s*\[provider=.*\n)?\s*~ limitUsd: 1000 => 5/,
    );
    expect(res.stdout).toMatch(/~ 2 updated/);
    await step("repair up", () => p.up());
    expect((await guardrailsByName(p)).Research).toMatchObject({ limit_usd: 1000 });
    expect(await assignedMembers(p, ids.engineeringId!)).toEqual(["user_alice", "user_bob", "user_carol"]);
  });

  it("pulumi import of an unmanaged guardrail records its settings as inputs", async () => {
    const made = await p.api("POST", "/guardrails", {
      name: "Legacy",
      allowed_models: ["vendor-b/model-m-fast"],
      limit_usd: 20,
      reset_interval: "weekly",
      content_filter_builtins: [{ slug: "address", action: "redact" }],
    });
    const legacy = made.body.data.id as string;
    await step("import", () =>
      p.pulumi(
        ["import", "guardrails:index:Guardrail", "legacy", legacy, "--yes", "--protect=false", "--generate-code=false"],
        {
          check: true,
        },
      ),
    );
    const state = (await p.exportState()).json.deployment.resources as Array<{ urn: string; id: string; inputs: any }>;
    const imported = state.find((r) => r.urn.endsWith("::legacy"));
    expect(imported?.id).toBe(legacy);
    const { __provider, ...inputs } = imported!.inputs;
    expect(inputs).toEqual({
      name: "Legacy",
      workspaceId: DEFAULT_WS,
      allowedModels: ["vendor-b/model-m-fast-20260201"],
      limitUsd: 20,
      resetInterval: "weekly",
      contentFilterBuiltins: [{ slug: "address", action: "redact" }],
    });
  });

  it("destroy removes what the stack holds (the imported guardrail too) and leaves the finance guardrail", async () => {
    await step("destroy", () => p.destroy());
    expect(Object.keys(await guardrailsByName(p))).toEqual(["Finance"]);
    expect(await assignedMembers(p, finance)).toEqual([]);
  });
});

describe("the request log across languages", () => {
  afterAll(() => {
    // The must-show table: each step's calls (writes) per language, and its wall time.
    const rows = STEPS.map((s) =>
      [
        s.padEnd(14),
        ...RUN.map((l) => {
          const e = LOGS[l]?.[s];
          return `${e ? `${e.total} (${e.writes})` : "-"} ${e?.seconds ?? "-"}s`.padEnd(16);
        }),
      ].join(" "),
    );
    // Each step's operations, language by language (the last test asserts they are equal).
    const ops = STEPS.map((s) => {
      const each = RUN.map((l) => JSON.stringify(Object.entries(LOGS[l]?.[s]?.counts ?? {}).sort()));
      const [first] = RUN;
      const counts = Object.entries(LOGS[first!]?.[s]?.counts ?? {}).sort();
      const same = each.every((e) => e === each[0]) ? "every language" : "DIFFERS by language";
      return `${s.padEnd(14)} ${counts.map(([o, n]) => `${o} ${n}`).join(", ")} (${same})`;
    });
    console.log(
      [
        "calls (writes) and seconds per step",
        `${"".padEnd(14)} ${RUN.map((l) => l.padEnd(16)).join(" ")}`,
        ...rows,
        "operations per step",
        ...ops,
      ].join("\n"),
    );
  });

  it("shows the same calls, operation by operation, for every language at every step", () => {
    const [first, ...others] = RUN;
    for (const s of STEPS) expect(LOGS[first!]?.[s], `${first} ${s}`).toBeDefined();
    const calls = (l: Language) => Object.fromEntries(STEPS.map((s) => [s, LOGS[l]?.[s]?.counts]));
    for (const l of others) expect(calls(l), `${l} against ${first}`).toEqual(calls(first!));
  });
});

/** Issue 40's policies in Pulumi YAML and Python (native face): each program's files, by language. */
const POLICY_PROGRAMS: Partial<Record<Language, (name: string) => Record<string, string>>> = {
  yaml: (name) => ({
    "Pulumi.yaml": `name: ${name}
runtime: yaml
resources:
  budget:
    type: guardrails:index:BudgetPolicy
    properties:
      workspaceId: ${DEFAULT_WS}
      name: Team budget
      limitUsd: 20
      resetInterval: weekly
      memberUserIds: [user_alice, user_bob]
      keyHashes: [${HASH[0]}]
  moderation:
    type: guardrails:index:ModerationPolicy
    properties:
      workspaceId: ${DEFAULT_WS}
      name: Team moderation
      contentFilterBuiltins:
        - slug: email
          action: redact
      workspaceDefault: true
      optedOutMemberUserIds: [user_carol]
outputs:
  budgetId: \${budget.id}
  moderationId: \${moderation.id}
`,
  }),
  python: (name) => ({
    "Pulumi.yaml": `name: ${name}\nruntime: python\n`,
    "__main__.py": `import pulumi
import pulumi_guardrails as guardrails

budget = guardrails.BudgetPolicy(
    "budget",
    workspace_id="${DEFAULT_WS}",
    name="Team budget",
    limit_usd=20,
    reset_interval=guardrails.ResetInterval.WEEKLY,
    member_user_ids=["user_alice", "user_bob"],
    key_hashes=["${HASH[0]}"],
)
moderation = guardrails.ModerationPolicy(
    "moderation",
    workspace_id="${DEFAULT_WS}",
    name="Team moderation",
    content_filter_builtins=[
        guardrails.BuiltinFilterArgs(slug=guardrails.BuiltinFilterSlug.EMAIL, action=guardrails.FilterAction.REDACT)
    ],
    workspace_default=True,
    opted_out_member_user_ids=["user_carol"],
)
pulumi.export("budgetId", budget.id)
pulumi.export("moderationId", moderation.id)
`,
  }),
};

describe.each(RUN.filter((l) => POLICY_PROGRAMS[l]))(
  "Guardrail Policies in %s under the CLI (issue 40)",
  (language) => {
    const name = `policies-${language}`;
    const p = useProgram(name);
    const policyOf = async (segment: string, id: string) =>
      (await p.api("GET", `/guardrails/policies/${segment}/${id}?workspace_id=${DEFAULT_WS}`)).body.data;
    let ids: Record<string, string> = {};

    beforeAll(async () => {
      for (const [file, text] of Object.entries(POLICY_PROGRAMS[language]!(name)))
        writeFileSync(join(p.dir, file), text);
      const path = [join(REPO_ROOT, "src/native/bin"), languageHostDir(language as "yaml" | "python")];
      if (language === "python") {
        const bin = await pythonVenv(inject("e2e").work);
        path.unshift(bin);
        p.env.VIRTUAL_ENV = join(bin, "..");
      }
      p.env.PATH = `${path.join(":")}:${p.env.PATH}`;
      p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    });

    it("up: one POST per policy, with the members, the key, the default flag and the opt-out", async () => {
      await p.clearLog();
      await p.up();
      const log = await p.log();
      expect(log.writes).toBe(2);
      expect(log.counts).toMatchObject({ createBudgetPolicy: 1, createModerationPolicy: 1 });
      ids = await p.outputs();
      expect(await policyOf("budget", ids.budgetId!)).toMatchObject({
        name: "Team budget",
        config: { limit_usd: 20, reset_interval: "weekly" },
        member_ids: ["user_alice", "user_bob"],
        api_key_hashes: [HASH[0]],
      });
      expect(await policyOf("moderation", ids.moderationId!)).toMatchObject({
        config: { content_filter_builtins: [{ slug: "email", action: "redact" }] },
        is_workspace_default: true,
        opted_out_member_ids: ["user_carol"],
      });
    });

    it("preview --expect-no-changes: no change, no write", async () => {
      await p.clearLog();
      const res = await p.pulumi(["preview", "--expect-no-changes", "--diff"]);
      expect(res.code, res.output).toBe(0);
      expect((await p.log()).writes).toBe(0);
    });

    it("destroy: one DELETE per policy; the service holds neither", async () => {
      await p.clearLog();
      await p.destroy();
      const log = await p.log();
      expect(log.writes).toBe(2);
      expect(log.counts).toMatchObject({ deleteBudgetPolicy: 1, deleteModerationPolicy: 1 });
      for (const segment of ["budget", "moderation"])
        expect((await p.api("GET", `/guardrails/policies/${segment}?workspace_id=${DEFAULT_WS}`)).body.data).toEqual(
          [],
        );
    });
  },
);
