/**
 * Attack on issue 40's library surfaces, part 1: the PR summary over Guardrail Policies
 * (src/preview/policies.ts and its helpers). The bar: "a loosening is a loosening until proven
 * otherwise" — every change that can leave a member, key or workspace less restricted reads as
 * loosening or may-loosen, never as harmless; hostile strings are neutralised and bounded;
 * secrets never reach the summary. Each test names its attack id (S1...) from the report.
 */
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/preview/summary";
import { UNKNOWN } from "../../src/core/markers";
import { SECRET_SIG, SIG_KEY } from "../../src/core/markers";
import { urn } from "../helpers/preview-steps";

const WS = "3f2b8c1e-0000-4000-8000-000000000001";
const W2 = "3f2b8c1e-0000-4000-8000-000000000002";
type Bag = Record<string, unknown>;
const step = (
  op: string,
  type: string,
  name: string,
  before: Bag | undefined,
  after: Bag | undefined,
  u = urn(type, name),
) => ({
  op,
  urn: u,
  ...(before
    ? { oldState: { id: `p-${name}`, inputs: { workspaceId: WS, ...before }, outputs: { workspaceId: WS, ...before } } }
    : {}),
  ...(after ? { newState: { inputs: { workspaceId: WS, ...after } } } : {}),
});
const secret = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
/** The summary with its code spans taken out: what a reader's Markdown renders as Markdown. */
const rendered = (md: string) => md.replace(/`[^`\n]*`/g, "");
const BUDGET = { name: "Eng", limitUsd: 100, resetInterval: "weekly", includeByokInBudgets: true };
const MODELS = {
  name: "Models",
  enforceZdrVendorA: true,
  allowedDataRegions: ["europe"],
  allowedProviders: ["openai"],
};
const MOD = { name: "Mod", contentFilterBuiltins: [{ slug: "email", action: "block" }] };

/** The summary of one policy changing from `before` to `after`. */
const one = (type: string, before: Bag | undefined, after: Bag | undefined, op = "update") =>
  summarize({ steps: [step(op, type, "p", before, after)] });
const opening = (md: string) => md.split("\n\n")[0] ?? "";

describe("S: every loosening of a workspace policy is flagged", () => {
  it.each([
    ["S1 a budget policy deleted", "BudgetPolicy", BUDGET, undefined, "delete"],
    [
      "S2 a member removed from a policy",
      "BudgetPolicy",
      { ...BUDGET, memberUserIds: ["u1", "u2"] },
      { ...BUDGET, memberUserIds: ["u1"] },
      "update",
    ],
    [
      "S3 a key removed from a policy",
      "ModerationPolicy",
      { ...MOD, keyHashes: ["k1"] },
      { ...MOD, keyHashes: [] },
      "update",
    ],
    [
      "S4 an opt-out added to a workspace default",
      "BudgetPolicy",
      { ...BUDGET, workspaceDefault: true, optedOutMemberUserIds: [] },
      { ...BUDGET, workspaceDefault: true, optedOutMemberUserIds: ["u9"] },
      "update",
    ],
    [
      "S5 workspaceDefault turned off",
      "ModerationPolicy",
      { ...MOD, workspaceDefault: true },
      { ...MOD, workspaceDefault: false },
      "update",
    ],
    ["S6 limit raised", "BudgetPolicy", BUDGET, { ...BUDGET, limitUsd: 1000 }, "update"],
    ["S7 reset interval made longer", "BudgetPolicy", BUDGET, { ...BUDGET, resetInterval: "monthly" }, "update"],
    [
      "S8 includeByokInBudgets turned off",
      "BudgetPolicy",
      BUDGET,
      { ...BUDGET, includeByokInBudgets: false },
      "update",
    ],
    ["S9 ZDR turned off", "ModelAccessPolicy", MODELS, { ...MODELS, enforceZdrVendorA: false }, "update"],
    ["S10 data regions set to null", "ModelAccessPolicy", MODELS, { ...MODELS, allowedDataRegions: null }, "update"],
    [
      "S11 data regions widened",
      "ModelAccessPolicy",
      MODELS,
      { ...MODELS, allowedDataRegions: ["europe", "us"] },
      "update",
    ],
    [
      "S12 a builtin filter's action weakened",
      "ModerationPolicy",
      MOD,
      { ...MOD, contentFilterBuiltins: [{ slug: "email", action: "redact" }] },
      "update",
    ],
    [
      "S13 a custom filter's action weakened",
      "ModerationPolicy",
      { name: "M", contentFilters: [{ pattern: "secret-\\d+", action: "block" }] },
      { name: "M", contentFilters: [{ pattern: "secret-\\d+", action: "flag" }] },
      "update",
    ],
    ["S14 a policy deleted through a replace's delete", "ModerationPolicy", MOD, undefined, "delete"],
    ["S15 allowedProviders dropped", "ModelAccessPolicy", MODELS, { ...MODELS, allowedProviders: undefined }, "update"],
  ])("%s", (_t, type, before, after, op) => {
    const s = one(type as string, before as Bag, after as Bag | undefined, op as string);
    expect(s.loosens, s.markdown).toBe(true);
    expect(opening(s.markdown)).toMatch(/Guardrail Policies (may )?loosen/);
  });

  it("S16 a policy moved to another workspace loosens for the members it held in the old one", () => {
    const before = { ...BUDGET, memberUserIds: ["u1"] };
    const s = summarize({
      steps: [
        {
          op: "replace",
          urn: urn("BudgetPolicy", "p"),
          oldState: { id: "p1", inputs: { workspaceId: WS, ...before }, outputs: { workspaceId: WS, ...before } },
          newState: { inputs: { workspaceId: W2, ...before } },
        },
      ],
    });
    expect(s.loosens, s.markdown).toBe(true);
  });

  it("S17 a member list not known until apply may loosen (members may leave)", () => {
    const s = one("BudgetPolicy", { ...BUDGET, memberUserIds: ["u1"] }, { ...BUDGET, memberUserIds: UNKNOWN });
    expect(s.loosens, s.markdown).toBe(true);
  });

  it("S18 a default's opt-out list not known until apply may loosen", () => {
    const s = one(
      "BudgetPolicy",
      { ...BUDGET, workspaceDefault: true, optedOutKeyHashes: [] },
      { ...BUDGET, workspaceDefault: true, optedOutKeyHashes: UNKNOWN },
    );
    expect(s.loosens, s.markdown).toBe(true);
  });

  it("S19 the default flag not known until apply (it was on) may loosen", () => {
    const s = one("ModerationPolicy", { ...MOD, workspaceDefault: true }, { ...MOD, workspaceDefault: UNKNOWN });
    expect(s.loosens, s.markdown).toBe(true);
  });

  it("S20 a limit not known until apply may loosen", () => {
    const s = one("BudgetPolicy", BUDGET, { ...BUDGET, limitUsd: UNKNOWN });
    expect(s.loosens, s.markdown).toBe(true);
  });

  it("S21 an element of a member list not known until apply may loosen", () => {
    const s = one("BudgetPolicy", { ...BUDGET, memberUserIds: ["u1"] }, { ...BUDGET, memberUserIds: [UNKNOWN] });
    expect(s.loosens, s.markdown).toBe(true);
    expect(s.markdown).not.toContain(UNKNOWN);
  });

  it("S22 two policies of one logical name under different parents: a delete is not hidden by the other's update", () => {
    const parent = (p: string, name: string) =>
      `urn:pulumi:prod::p::my:Team$pulumi-nodejs:dynamic/guardrails:BudgetPolicy::${name}`.replace(
        "my:Team",
        `my:${p}`,
      );
    const s = summarize({
      steps: [
        step("delete", "BudgetPolicy", "budget", BUDGET, undefined, parent("TeamA", "budget")),
        step("update", "BudgetPolicy", "budget", BUDGET, { ...BUDGET, limitUsd: 90 }, parent("TeamB", "budget")),
      ],
    });
    expect(s.loosens, s.markdown).toBe(true);
  });
});

describe("S: workspace-wide policies", () => {
  const WIDE = { name: "Org", policyType: "budget", limitUsd: 100, resetInterval: "weekly" };
  it("S23 allWorkspaces not known until apply (it was on) may loosen", () => {
    const s = one("WorkspaceWidePolicy", { ...WIDE, allWorkspaces: true }, { ...WIDE, allWorkspaces: UNKNOWN });
    expect(s.loosens, s.markdown).toBe(true);
  });
  it("S24 workspaceIds not known until apply may loosen", () => {
    const s = one("WorkspaceWidePolicy", { ...WIDE, workspaceIds: [WS] }, { ...WIDE, workspaceIds: UNKNOWN });
    expect(s.loosens, s.markdown).toBe(true);
  });
  it("S25 an opt-out added while it covers every workspace loosens", () => {
    const s = one(
      "WorkspaceWidePolicy",
      { ...WIDE, allWorkspaces: true, optedOutWorkspaceIds: [] },
      { ...WIDE, allWorkspaces: true, optedOutWorkspaceIds: [W2] },
    );
    expect(s.loosens, s.markdown).toBe(true);
  });
  it("S26 a workspace-wide policy's limit raised loosens", () => {
    const s = one(
      "WorkspaceWidePolicy",
      { ...WIDE, allWorkspaces: true },
      { ...WIDE, allWorkspaces: true, limitUsd: 500 },
    );
    expect(s.loosens, s.markdown).toBe(true);
  });
  it("S27 a secret workspace id in the coverage list never reaches the summary", () => {
    const s = one(
      "WorkspaceWidePolicy",
      { ...WIDE, workspaceIds: [WS, secret("ws-hidden-1")] },
      { ...WIDE, workspaceIds: [WS, secret("ws-hidden-2")] },
    );
    expect(s.markdown).not.toMatch(/ws-hidden/);
    expect(s.loosens, s.markdown).toBe(true);
  });
});

describe("S: secrets and hostile strings", () => {
  it("S28 a secret limit is never shown", () => {
    const s = one("BudgetPolicy", { ...BUDGET, limitUsd: secret(123456) }, { ...BUDGET, limitUsd: secret(654321) });
    expect(s.markdown).not.toMatch(/123456|654321/);
    expect(s.loosens, s.markdown).toBe(true);
  });
  it("S29 a secret element of allowedModels is never shown", () => {
    const s = one(
      "ModelAccessPolicy",
      { name: "M", allowedModels: ["openai/gpt-4o", secret("hidden/model-a")] },
      { name: "M", allowedModels: ["openai/gpt-4o", secret("hidden/model-b")] },
    );
    expect(s.markdown).not.toMatch(/hidden\/model/);
  });
  it("S30 a secret member list is never shown, and its change may loosen", () => {
    const s = one(
      "BudgetPolicy",
      { ...BUDGET, memberUserIds: secret(["user_secret_1"]) },
      { ...BUDGET, memberUserIds: secret(["user_secret_2"]) },
    );
    expect(s.markdown).not.toMatch(/user_secret/);
    expect(s.loosens).toBe(true);
  });
  it("S31 a secret id inside a member list is never shown", () => {
    const s = one(
      "BudgetPolicy",
      { ...BUDGET, memberUserIds: ["u1", secret("user_secret_9")] },
      { ...BUDGET, memberUserIds: ["u1"] },
    );
    expect(s.markdown).not.toMatch(/user_secret/);
    expect(s.loosens).toBe(true);
  });
  it("S32 a secret name is never shown", () => {
    const s = one(
      "BudgetPolicy",
      { ...BUDGET, name: secret("Project Nightingale") },
      { ...BUDGET, name: secret("Project Nightingale"), limitUsd: 1000 },
    );
    expect(s.markdown).not.toMatch(/Nightingale/);
  });
  it("S33 a secret opted-out list is never shown", () => {
    const s = one(
      "BudgetPolicy",
      { ...BUDGET, workspaceDefault: true, optedOutKeyHashes: secret(["khash_secret"]) },
      { ...BUDGET, workspaceDefault: true, optedOutKeyHashes: secret(["khash_secret", "khash_more"]) },
    );
    expect(s.markdown).not.toMatch(/khash_/);
    expect(s.loosens).toBe(true);
  });

  const HOSTILE = [
    ["ANSI and control characters", "\u001b[31mred\u001b[0m\u0007\r\nbell"],
    ["markdown and HTML", "x`](https://evil.example) <img src=x onerror=alert(1)> **bold** <!--"],
    ["an @mention", "@octocat please approve"],
    ["a bidi override", "admin\u202Egnp.exe"],
  ] as const;
  it.each(HOSTILE)("S34 a hostile policy name (%s) is neutralised", (_t, name) => {
    const s = one("BudgetPolicy", { ...BUDGET, name }, { ...BUDGET, name, limitUsd: 500 });
    expect(s.markdown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/);
    expect(rendered(s.markdown)).not.toMatch(/<img|<!--|\]\(https|@octocat/);
  });
  it.each(HOSTILE)("S35 a hostile member id (%s) is neutralised", (_t, id) => {
    const s = one("BudgetPolicy", { ...BUDGET, memberUserIds: [id] }, { ...BUDGET, memberUserIds: [] });
    expect(s.markdown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/);
    expect(rendered(s.markdown)).not.toMatch(/<img|<!--|\]\(https|@octocat/);
  });
  it.each(HOSTILE)("S36 a hostile logical name (%s) is neutralised", (_t, logical) => {
    const s = summarize({ steps: [step("update", "BudgetPolicy", logical, BUDGET, { ...BUDGET, limitUsd: 500 })] });
    expect(s.markdown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e]/);
    expect(rendered(s.markdown)).not.toMatch(/<img|<!--|\]\(https|@octocat/);
  });
  it("S37 very long names, ids and many members are bounded", () => {
    const long = "x".repeat(100_000);
    const many = Array.from({ length: 5000 }, (_, i) => `user_${i}_${"y".repeat(50)}`);
    const s = summarize({
      steps: [
        step(
          "update",
          "BudgetPolicy",
          long,
          { ...BUDGET, name: long, memberUserIds: [long, ...many] },
          { ...BUDGET, name: long, memberUserIds: [] },
        ),
      ],
    });
    expect(s.loosens).toBe(true);
    expect(s.markdown.length).toBeLessThan(20_000);
  });
  it("S38 a hostile workspace id in a workspace-wide policy's coverage is neutralised and bounded", () => {
    const hostile = `@octocat <script>x</script>\u001b[2J${"z".repeat(50_000)}`;
    const WIDE = { name: "Org", policyType: "budget", limitUsd: 100 };
    const s = one("WorkspaceWidePolicy", { ...WIDE, workspaceIds: [hostile] }, { ...WIDE, workspaceIds: [] });
    expect(rendered(s.markdown)).not.toMatch(/<script|@octocat/);
    expect(s.markdown).not.toMatch(/\u001b/);
    expect(s.markdown.length).toBeLessThan(5_000);
  });
  it("S39 an unsynced policy's hostile id and name in a Guardrail's state are neutralised and bounded", () => {
    const bad = `\`@octocat <img src=x>\u001b[31m${"q".repeat(20_000)}`;
    const s = summarize(
      {
        steps: [
          {
            op: "same",
            urn: urn("Guardrail", "g"),
            oldState: {
              id: "g1",
              inputs: { name: bad },
              outputs: { name: bad, unsyncedPolicies: [{ kind: "moderation", policyId: bad }] },
            },
            newState: {
              inputs: { name: bad },
              outputs: { name: bad, unsyncedPolicies: [{ kind: "moderation", policyId: bad }] },
            },
          },
        ],
      },
      { drift: true } as never,
    );
    expect(rendered(s.markdown)).not.toMatch(/<img|@octocat/);
    expect(s.markdown).not.toMatch(/\u001b/);
    expect(s.markdown.length).toBeLessThan(5_000);
  });
});

describe("S: more unknowns", () => {
  it("S40 the default flag not known until apply (it was off) may loosen: it may take over from the current default", () => {
    const s = one(
      "BudgetPolicy",
      { ...BUDGET, limitUsd: 5000 },
      { ...BUDGET, limitUsd: 5000, workspaceDefault: UNKNOWN },
    );
    expect(s.loosens, s.markdown).toBe(true);
  });
  it("S41 a workspace policy's whole settings deleted by a replace to another workspace with unknown id may loosen", () => {
    const s = summarize({
      steps: [
        {
          op: "replace",
          urn: urn("ModerationPolicy", "p"),
          oldState: { id: "p1", inputs: { workspaceId: WS, ...MOD }, outputs: { workspaceId: WS, ...MOD } },
          newState: { inputs: { workspaceId: UNKNOWN, ...MOD } },
        },
      ],
    });
    expect(s.loosens, s.markdown).toBe(true);
  });
});

describe("S: the policy pack's violations in the summary (policy-events.ts)", () => {
  it("S42 a violation's hostile message, policy and resource names are neutralised", async () => {
    const { readPolicyEvents, policySection } = await import("../../src/preview/policy-events");
    const bad = "@octocat <img src=x> [x](https://evil.example)\u001b[31m\n### Approved";
    const log = JSON.stringify({
      policyEvent: {
        resourceUrn: `urn:pulumi:s::p::pulumi-nodejs:dynamic/guardrails:BudgetPolicy::${bad}`,
        policyName: bad,
        policyPackName: bad,
        enforcementLevel: "mandatory",
        message: `first\n${bad}`,
      },
    });
    const md = policySection(readPolicyEvents(log));
    // Outside code spans, Markdown is escaped (`\<img`), a mention broken by a zero-width space.
    expect(rendered(md)).not.toMatch(/(^|[^\\])<img|@octocat|[^\\]\]\(https|\n### Approved/);
    expect(md).not.toMatch(/\u001b/);
  });
  it("S43 thousands of violations are bounded", async () => {
    const { readPolicyEvents, policySection } = await import("../../src/preview/policy-events");
    const lines = Array.from({ length: 5000 }, (_, i) =>
      JSON.stringify({
        policyEvent: {
          resourceUrn: `urn:x::p${i}`,
          policyName: "p",
          enforcementLevel: "advisory",
          message: "m".repeat(2000),
        },
      }),
    );
    expect(policySection(readPolicyEvents(lines.join("\n"))).length).toBeLessThan(30_000);
  });
});
