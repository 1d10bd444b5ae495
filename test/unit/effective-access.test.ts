/**
 * Effective access (issue 41), rule by rule: each row is one rule of docs/effective-access.md and
 * cites where the rule is said (`{docs}` = https://openrouter.ai/docs; "rule N" =
 * docs/api-contract.md rule N; "silent" = the reading that never claims more access).
 */
import { describe, expect, it } from "vitest";
import { type AccessFacts, type EffectiveAccess, effectiveAccess, explain } from "../../src/core/access";
import { facts, guardrail, keyFacts, OTHER_WS, policy, WS, workspaceWide } from "../helpers/access-facts";

const GUARDRAILS = "{docs}/guides/features/guardrails";
const POLICIES = "{docs}/guides/features/guardrails/policies";
const MIGRATION = "{docs}/guides/features/guardrails/policies-migration";

const ids = (a: EffectiveAccess) => a.layers.map((l) => `${l.kind}:${l.id}`);
const DEFAULT = guardrail("dflt", { allowedModels: ["m1", "m2"] });

interface Row {
  rule: string;
  source: string;
  facts: AccessFacts;
  read: (a: EffectiveAccess) => unknown;
  want: unknown;
}

const LAYER_ROWS: Row[] = [
  {
    rule: "the workspace default applies to a member with no guardrail of its own",
    source: "rule 18",
    facts: facts({ workspaceDefault: DEFAULT }),
    read: ids,
    want: ["workspace-default-guardrail:dflt"],
  },
  {
    rule: "a member's own guardrail takes the default's place",
    source: "rule 18",
    facts: facts({ workspaceDefault: DEFAULT, memberGuardrail: guardrail("g") }),
    read: ids,
    want: ["member-guardrail:g"],
  },
  {
    rule: "a key's layers include its owner's guardrail, under its own",
    source: `${GUARDRAILS} "Assigning Guardrails"`,
    facts: keyFacts({ workspaceDefault: DEFAULT, memberGuardrail: guardrail("gm"), keyGuardrail: guardrail("gk") }),
    read: ids,
    want: ["member-guardrail:gm", "key-guardrail:gk"],
  },
  {
    rule: "a key without a guardrail whose owner has one is still under the default",
    source: "rule 18; silent on keys under members",
    facts: keyFacts({ workspaceDefault: DEFAULT, memberGuardrail: guardrail("gm") }),
    read: ids,
    want: ["workspace-default-guardrail:dflt", "member-guardrail:gm"],
  },
  {
    rule: "a key with a guardrail whose owner has none is still under the default",
    source: "rule 18; silent on keys under members",
    facts: keyFacts({ workspaceDefault: DEFAULT, keyGuardrail: guardrail("gk") }),
    read: ids,
    want: ["workspace-default-guardrail:dflt", "key-guardrail:gk"],
  },
  {
    rule: "a policy assigned directly applies",
    source: `${POLICIES} "Where policies apply"; rule 25`,
    facts: facts({
      policies: [policy("p", "budget", { limitUsd: 5, resetInterval: "daily" }, { memberIds: ["user_a"] })],
    }),
    read: ids,
    want: ["policy:p"],
  },
  {
    rule: "the workspace default policy of a kind applies to a subject without a direct one",
    source: "rule 27 (is_workspace_default); rule 25 (workspace_default_policy_ids)",
    facts: facts({ policies: [policy("d", "moderation", {}, { isWorkspaceDefault: true })] }),
    read: ids,
    want: ["workspace-default-policy:d"],
  },
  {
    rule: "an opted-out subject does not inherit the default policy",
    source: "rule 27 (opted_out_member_ids)",
    facts: facts({
      policies: [policy("d", "moderation", {}, { isWorkspaceDefault: true, optedOutMemberIds: ["user_a"] })],
    }),
    read: ids,
    want: [],
  },
  {
    rule: "a direct policy of a kind overrides the default of that kind only",
    source: "rule 27 (overridden_member_ids: a different policy of this type assigned directly)",
    facts: facts({
      policies: [
        policy("d-budget", "budget", { limitUsd: 1, resetInterval: "daily" }, { isWorkspaceDefault: true }),
        policy("d-mod", "moderation", {}, { isWorkspaceDefault: true }),
        policy("mine", "budget", { limitUsd: 9, resetInterval: "daily" }, { memberIds: ["user_a"] }),
      ],
    }),
    read: ids,
    want: ["policy:mine", "workspace-default-policy:d-mod"],
  },
  {
    rule: "a guardrail setting a kind is a direct policy of it: the default policy of that kind does not apply",
    source: `rule 31 (${MIGRATION}: each guardrail also appears as policies) with rule 27`,
    facts: facts({
      memberGuardrail: guardrail("g", { allowedProviders: ["p1"] }),
      policies: [
        policy("d-ma", "modelAvailability", { allowedProviders: ["p2"] }, { isWorkspaceDefault: true }),
        policy("d-mod", "moderation", {}, { isWorkspaceDefault: true }),
      ],
    }),
    read: ids,
    want: ["member-guardrail:g", "workspace-default-policy:d-mod"],
  },
  {
    rule: "a key inherits its owner's default policies even when it has a direct one itself",
    source: `${POLICIES} "Where policies apply" (a member's policy also covers their keys); rule 27 per subject`,
    facts: keyFacts({
      policies: [
        policy("d", "budget", { limitUsd: 1, resetInterval: "daily" }, { isWorkspaceDefault: true }),
        policy("kb", "budget", { limitUsd: 2, resetInterval: "daily" }, { keyHashes: ["k1"] }),
      ],
    }),
    read: ids,
    want: ["policy:kb", "workspace-default-policy:d"],
  },
  {
    rule: "a policy still mapped from a guardrail that is a layer is that layer, counted once",
    source: `rule 31 (${MIGRATION}, "How guardrails map to policies")`,
    facts: facts({
      memberGuardrail: guardrail("g", { limitUsd: 5, resetInterval: "daily" }),
      policies: [
        policy(
          "g-budget",
          "budget",
          { limitUsd: 5, resetInterval: "daily" },
          {
            memberIds: ["user_a"],
            isLegacyMapped: true,
            legacyGuardrailIds: ["g"],
          },
        ),
      ],
    }),
    read: (a) => [ids(a), a.budgets.length],
    want: [["member-guardrail:g"], 1],
  },
  {
    rule: "a workspace-wide policy covering the workspace applies and a direct policy cannot override it",
    source: `${POLICIES} "Where policies apply"; rule 28`,
    facts: facts({
      policies: [policy("mine", "budget", { limitUsd: 9, resetInterval: "daily" }, { memberIds: ["user_a"] })],
      workspaceWide: [workspaceWide("ww", "budget", { limitUsd: 3, resetInterval: "daily" })],
    }),
    read: ids,
    want: ["policy:mine", "workspace-wide-policy:ww"],
  },
  {
    rule: "a workspace-wide policy covers its workspaces minus the opted-out; isDefault covers every workspace",
    source: "rule 28 (workspace_ids, opted_out_workspace_ids, is_default)",
    facts: facts({
      workspaceWide: [
        workspaceWide("elsewhere", "budget", {}, { workspaceIds: [OTHER_WS] }),
        workspaceWide("opted-out", "budget", {}, { isDefault: true, optedOutWorkspaceIds: [WS] }),
        workspaceWide("everywhere", "budget", {}, { isDefault: true, workspaceIds: [] }),
      ],
    }),
    read: ids,
    want: ["workspace-wide-policy:everywhere"],
  },
];

const two = (a: object, b: object) =>
  facts({ memberGuardrail: guardrail("a", a), workspaceWide: [workspaceWide("b", "modelAvailability", b)] });

const COMBINATION_ROWS: Row[] = [
  {
    rule: "allowed models intersect (by canonical slug through the known aliases)",
    source: `${GUARDRAILS} "Guardrail Hierarchy" (stricter rules always win); rule 4`,
    facts: {
      ...two({ allowedModels: ["x", "y-20260101"] }, { allowedModels: ["y", "z"] }),
      modelAliases: { y: "y-20260101" },
    },
    read: (a) => a.allowedModels.allowed,
    want: ["y-20260101"],
  },
  {
    rule: "no allow list anywhere is no restriction; one layer's list is the list",
    source: `${GUARDRAILS} "Guardrail Settings" (leave empty to allow all)`,
    facts: two({}, { allowedProviders: ["p1"] }),
    read: (a) => [a.allowedModels.allowed, a.allowedProviders.allowed],
    want: [null, ["p1"]],
  },
  {
    rule: "allowed providers intersect, to nothing when they share none",
    source: `${GUARDRAILS} "Guardrail Hierarchy" (member A, B, C and key A, B: only A and B)`,
    facts: two({ allowedProviders: ["A", "B", "C"] }, { allowedProviders: ["D"] }),
    read: (a) => a.allowedProviders.allowed,
    want: [],
  },
  {
    rule: "ignored models and providers join",
    source: `${GUARDRAILS} "Guardrail Hierarchy" (stricter rules always win)`,
    facts: two(
      { ignoredModels: ["m1"], ignoredProviders: ["p1"] },
      { ignoredModels: ["m2"], ignoredProviders: ["p1"] },
    ),
    read: (a) => [a.ignoredModels.entries.map((e) => e.id), a.ignoredProviders.entries.map((e) => e.from.length)],
    want: [["m1", "m2"], [2]],
  },
  {
    rule: "a ZDR group is enforced when any layer enforces it; an unset flag falls back to enforceZdr",
    source: `${GUARDRAILS} "Guardrail Settings" (ZDR per model group); spec rule 2`,
    facts: two({ enforceZdr: true, enforceZdrVendorB: false }, { enforceZdrVendorC: true }),
    read: (a) => Object.values(a.zdr).map((e) => e.enforced),
    want: [true, false, true, true],
  },
  {
    rule: "a training or publication permission: off wins; on grants nothing beyond the account's setting",
    source: `${MIGRATION} (the stricter rule wins); ${GUARDRAILS} (account wide settings continue to apply); rule 13`,
    facts: two({ enableFreeModelTraining: true, enablePaidModelTraining: true }, { enableFreeModelTraining: false }),
    read: (a) =>
      Object.values(a.permissions).map((p) => [p.value, p.decidedBy.map((r) => r.id), p.onIn.map((r) => r.id)]),
    want: [
      [false, ["b"], ["a"]],
      [null, [], ["a"]],
      [null, [], []],
    ],
  },
  {
    rule: "data regions intersect across every non-null value",
    source: "issue 41; {docs}/guides/features/in-region-routing (Enforcing in-region routing with guardrails)",
    facts: two({ allowedDataRegions: ["europe", "us"] }, { allowedDataRegions: ["europe", "global"] }),
    read: (a) => a.allowedDataRegions.allowed,
    want: ["europe"],
  },
  {
    rule: "per builtin the strongest action: flag < redact < block < an action not known",
    source: `${GUARDRAILS} "Guardrail Hierarchy" (blocking over redaction); rule 11 (open enum)`,
    facts: {
      ...two(
        {
          contentFilterBuiltins: [
            { slug: "email", action: "redact" },
            { slug: "ssn", action: "block" },
          ],
        },
        {
          contentFilterBuiltins: [
            { slug: "email", action: "block" },
            { slug: "ssn", action: "quarantine" },
          ],
        },
      ),
    },
    read: (a) => a.builtinFilters.map((f) => `${f.slug}:${f.action}:${f.actionFrom.map((r) => r.id)}`),
    want: ["email:block:b", "ssn:quarantine:b"],
  },
  {
    rule: "the prompt-injection scope is the widest any layer scans (absent: all messages)",
    source: "docs/api-contract.md Records (scan_scope, default all_messages)",
    facts: two(
      { contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" }] },
      { contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag" }] },
    ),
    read: (a) => a.promptInjection?.scanScope,
    want: "all_messages",
  },
  {
    rule: "custom filters all apply, each with its layer",
    source: "issue 41; rule 31 (content_filters)",
    facts: two(
      { contentFilters: [{ pattern: "a+", action: "flag" }] },
      { contentFilters: [{ pattern: "a+", action: "block" }] },
    ),
    read: (a) => a.customFilters.map((f) => `${f.pattern}:${f.action}:${f.from.id}`),
    want: ["a+:flag:a", "a+:block:b"],
  },
  {
    rule: "every budget applies on its own, with its layer",
    source: `${GUARDRAILS} "Budget Enforcement" (counts toward both); ${MIGRATION} (every budget is checked on its own)`,
    facts: keyFacts({
      memberGuardrail: guardrail("gm", { limitUsd: 100, resetInterval: "daily" }),
      keyGuardrail: guardrail("gk", { limitUsd: 30, resetInterval: "daily", includeByokInBudgets: true }),
    }),
    read: (a) => a.budgets.map((b) => `${b.limitUsd}/${b.resetInterval}/${b.includeByokInBudgets}/${b.from.id}`),
    want: ["100/daily/false/gm", "30/daily/true/gk"],
  },
];

const access = effectiveAccess(
  keyFacts({
    memberGuardrail: guardrail("gm", { allowedModels: ["m1", "m2-20260101"], allowedDataRegions: ["europe"] }),
    keyGuardrail: guardrail("gk", { allowedModels: ["m1"], ignoredProviders: ["p-bad"] }),
    modelAliases: { m2: "m2-20260101" },
  }),
);
const verdict = (q: Parameters<typeof explain>[1]) => {
  const v = explain(access, q);
  return [v.allowed, v.deciding.map((r) => `${r.about}:${r.layers.map((l) => l.id).join("+")}`)];
};

describe("effective access: which layers apply (docs/effective-access.md)", () => {
  it.each(LAYER_ROWS.map((r) => [r.rule, r] as const))("%s", (_, row) => {
    expect(row.source).not.toBe("");
    expect(row.read(effectiveAccess(row.facts))).toEqual(row.want);
  });
});

describe("effective access: how layers combine (docs/effective-access.md)", () => {
  it.each(COMBINATION_ROWS.map((r) => [r.rule, r] as const))("%s", (_, row) => {
    expect(row.source).not.toBe("");
    expect(row.read(effectiveAccess(row.facts))).toEqual(row.want);
  });
});

describe("explain: allowed or denied, with the deciding layers", () => {
  it.each([
    [
      "a model off one allow list is denied by that layer alone (an alias resolved first)",
      { model: "m2" },
      [false, ["model:gk"]],
    ],
    ["a model on every list is allowed by those layers", { model: "m1" }, [true, ["model:gm+gk"]]],
    ["an ignored provider is denied by the layer ignoring it", { provider: "p-bad" }, [false, ["provider:gk"]]],
    ["a provider no layer restricts is allowed by none", { provider: "p-ok" }, [true, ["provider:"]]],
    ["a region off the allow list is denied", { region: "us" }, [false, ["region:gm"]]],
    ["every part must pass", { model: "m1", region: "us" }, [false, ["region:gm"]]],
  ] as const)("%s", (_, query, want) => {
    expect(verdict(query)).toEqual(want);
  });

  it("an allow list left empty denies every request, whatever is asked", () => {
    const empty = effectiveAccess(two({ allowedProviders: ["A"] }, { allowedProviders: ["B"] }));
    const v = explain(empty, { model: "anything" });
    expect([v.allowed, v.deciding.map((r) => r.layers.map((l) => l.id))]).toEqual([false, [["a", "b"]]]);
  });

  it("names what still applies to a request let through: ZDR groups and budgets", () => {
    const a = effectiveAccess(two({ enforceZdrVendorA: true, limitUsd: 5, resetInterval: "weekly" }, {}));
    expect(explain(a, {}).conditions).toMatchInlineSnapshot(`
      [
        "zero data retention enforced (enforceZdrVendorA)",
        "budget 5 USD weekly from member-guardrail a",
      ]
    `);
  });
});
