/**
 * The PR summary over Guardrail Policies (issue 40): a policy's settings judged with the
 * guardrail's loosening table; members and keys joining or leaving, opt-outs and the workspace
 * default flag judged by what each subject had against what it will have; a new policy's
 * settings listed, a deleted one loosening. Goldens, as preview-summary.test.ts writes them.
 */
import { describe, expect, it } from "vitest";
import { summarize, summarizePreview } from "../../src/preview/summary";
import { urn } from "../helpers/preview-steps";

const WS = "3f2b8c1e-0000-4000-8000-000000000001";
const step = (
  op: string,
  type: string,
  name: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown> | undefined,
) => ({
  op,
  urn: urn(type, name),
  ...(before ? { oldState: { id: `p-${name}`, inputs: { workspaceId: WS, ...before } } } : {}),
  ...(after ? { newState: { inputs: { workspaceId: WS, ...after } } } : {}),
});
const DEFAULT_BUDGET = { name: "Default", limitUsd: 50, resetInterval: "weekly", workspaceDefault: true };

describe("the summary judges Guardrail Policies with the loosening table", () => {
  it("a budget policy raised, a member joining it from a stricter default, one leaving, an opt-out added", () => {
    const md = summarizePreview({
      steps: [
        step(
          "same",
          "BudgetPolicy",
          "default",
          { ...DEFAULT_BUDGET, optedOutMemberUserIds: [] },
          { ...DEFAULT_BUDGET, optedOutMemberUserIds: [] },
        ),
        step(
          "update",
          "BudgetPolicy",
          "eng",
          { name: "Eng", limitUsd: 100, resetInterval: "weekly", memberUserIds: ["user_a", "user_b"] },
          { name: "Eng", limitUsd: 250, resetInterval: "weekly", memberUserIds: ["user_a", "user_c"] },
        ),
      ],
    });
    expect(md).toMatchInlineSnapshot(`
      "**🔓 Guardrail Policies loosen**: budget policy \`Eng\` (limitUsd raised, member joins)

      **🔓 Effective access widens:** member \`user_a\`, member \`user_c\`

      ### Effective access

      What each member and key can use after every layer applies (docs/effective-access.md):

      - 🔓 **loosens** · member \`user_a\` gains \`budget 100 weekly (policy eng): no longer capped so\` (\`Eng\` changes); unless a layer not in this stack restricts it: \`its own guardrail, if any: no set of this stack assigns it (a guardrail outside the stack may hold it)\`, \`the workspace default guardrail of "3f2b8c1e-0000-4000-8000-000000000001": not managed by this stack\`, … and 1 more
      - 🔓 **loosens** · member \`user_c\` gains \`budget 50 weekly (workspace-default-policy default): no longer capped so\` (\`Default\` → \`Eng\`); unless a layer not in this stack restricts it: \`its own guardrail, if any: no set of this stack assigns it (a guardrail outside the stack may hold it)\`, \`the workspace default guardrail of "3f2b8c1e-0000-4000-8000-000000000001": not managed by this stack\`, … and 1 more
      - 🔒 tightens · member \`user_b\` (\`Eng\` → \`Default\`): narrows (undoing it would grant \`budget 50 weekly (workspace-default-policy default): no longer capped so\`)

      **Guardrail Policies: 1 updated**

      ### budget policy \`Eng\` (\`eng\`): update · 🔓 **loosens**

      - 🔓 **loosens** · limitUsd: \`100\` → \`250\` (raised)

      Assignments:
      - member joins: \`user_c\` · 🔓 **loosens**: limitUsd raised; compared with the workspace default it stops inheriting
      - member leaves: \`user_b\` · 🔒 tightens
      "
    `);
  });

  it("opt-outs and the workspace default flag", () => {
    const md = summarizePreview({
      steps: [
        step(
          "update",
          "ModerationPolicy",
          "mod",
          {
            name: "Mod",
            contentFilterBuiltins: [{ slug: "email", action: "block" }],
            workspaceDefault: true,
            optedOutKeyHashes: ["k1"],
          },
          {
            name: "Mod",
            contentFilterBuiltins: [{ slug: "email", action: "block" }],
            workspaceDefault: true,
            optedOutKeyHashes: ["k2"],
          },
        ),
        step(
          "update",
          "ModelAccessPolicy",
          "models",
          { name: "Models", allowedProviders: ["openai"], workspaceDefault: true },
          { name: "Models", allowedProviders: ["openai"], workspaceDefault: false },
        ),
      ],
    });
    expect(md).toMatchInlineSnapshot(`
      "**🔓 Guardrail Policies loosen**: model availability policy \`Models\` (allowedProviders restriction removed, workspace default); moderation policy \`Mod\` (contentFilterBuiltins \`email\` removed, key opted out)

      **❔ Effective access may widen** (a layer cannot be known at preview): key \`k2\`, key \`k1\`

      ### Effective access

      What each member and key can use after every layer applies (docs/effective-access.md):

      - ❔ **may loosen** · key \`k1\` may gain \`allowed providers: no longer restricted (was 1 allowed)\` (\`Models\` → \`Mod\`): judged guardrail against guardrail in its section; cannot be known at preview: \`the workspace default model availability policy of "3f2b8c1e-0000-4000-8000-000000000001": not managed by this stack\`
      - ❔ **may loosen** · key \`k2\` may gain \`allowed providers: no longer restricted (was 1 allowed)\`, \`builtin email: no longer applied (was block)\` (\`Models\`, \`Mod\` → no layer): judged guardrail against guardrail in its section; cannot be known at preview: \`the workspace default model availability policy of "3f2b8c1e-0000-4000-8000-000000000001": not managed by this stack\`

      **Guardrail Policies: 2 updated**

      ### model availability policy \`Models\` (\`models\`): update · 🔓 **loosens**

      Assignments:
      - workspace default: on → off, so everyone of its workspace that inherits it loses it · 🔓 **loosens**: allowedProviders restriction removed

      ### moderation policy \`Mod\` (\`mod\`): update · 🔓 **loosens**

      Assignments:
      - key opted out: \`k2\` · 🔓 **loosens**: contentFilterBuiltins \`email\` removed; it no longer inherits the default
      - key no longer opted out: \`k1\` · 🔒 tightens: it inherits the default again
      "
    `);
  });

  it("a new policy: its settings listed; those it assigns judged against the default they leave, or may loosen", () => {
    const md = summarizePreview({
      steps: [
        step("create", "BudgetPolicy", "ops", undefined, {
          name: "Ops",
          limitUsd: 20,
          resetInterval: "daily",
          memberUserIds: ["user_o"],
        }),
        step("create", "ModelAccessPolicy", "eu", undefined, {
          name: "EU only",
          allowedDataRegions: ["europe"],
          keyHashes: ["k9"],
        }),
        step("same", "BudgetPolicy", "default", DEFAULT_BUDGET, DEFAULT_BUDGET),
      ],
    });
    expect(md).toMatchInlineSnapshot(`
      "**❔ Guardrail Policies may loosen** (cannot tell from the preview): model availability policy \`EU only\` (key joins)

      **🔓 Effective access widens:** member \`user_o\` · **❔ Effective access may widen** (a layer cannot be known at preview): key \`k9\`

      ### Effective access

      What each member and key can use after every layer applies (docs/effective-access.md):

      - 🔓 **loosens** · member \`user_o\` gains \`budget 50 weekly (workspace-default-policy default): no longer capped so\` (\`Default\` → \`Ops\`); unless a layer not in this stack restricts it: \`its own guardrail, if any: no set of this stack assigns it (a guardrail outside the stack may hold it)\`, \`the workspace default guardrail of "3f2b8c1e-0000-4000-8000-000000000001": not managed by this stack\`, … and 1 more
      - ❔ **may loosen** · key \`k9\` (no layer → \`EU only\`): judged guardrail against guardrail in its section; cannot be known at preview: \`the workspace default model availability policy of "3f2b8c1e-0000-4000-8000-000000000001": not managed by this stack\`

      **Guardrail Policies: 2 created**

      ### budget policy \`Ops\` (\`ops\`): new · 🔒 tightens

      - name: \`Ops\`
      - limitUsd: \`20\`
      - resetInterval: \`daily\`

      Assignments:
      - member joins: \`user_o\` · 🔒 tightens: compared with the workspace default it stops inheriting

      ### model availability policy \`EU only\` (\`eu\`): new · ❔ **may loosen**

      - name: \`EU only\`
      - allowedDataRegions: \`europe\`

      Assignments:
      - key joins: \`k9\` · ❔ **may loosen**: it stops inheriting its workspace's default of this kind, which this preview does not show: counted as a loosening until a preview shows both
      "
    `);
  });

  it("a deleted policy loosens for everyone on it; a new default takes over from the stack's old one", () => {
    const s = summarize({
      steps: [
        step(
          "delete",
          "ModerationPolicy",
          "gone",
          { name: "Gone", contentFilterBuiltins: [{ slug: "ssn", action: "redact" }] },
          undefined,
        ),
        step("update", "BudgetPolicy", "old-default", DEFAULT_BUDGET, { ...DEFAULT_BUDGET, workspaceDefault: false }),
        step(
          "update",
          "BudgetPolicy",
          "new-default",
          { name: "New", limitUsd: 40, resetInterval: "daily" },
          { name: "New", limitUsd: 40, resetInterval: "daily", workspaceDefault: true },
        ),
      ],
    });
    expect(s.loosens).toBe(true);
    expect(s.markdown).toMatchInlineSnapshot(`
      "**🔓 Guardrail Policies loosen**: moderation policy \`Gone\` (contentFilterBuiltins \`ssn\` removed)

      **Guardrail Policies: 2 updated, 1 deleted**

      ### budget policy \`Default\` (\`old-default\`): update · 🔒 tightens

      Assignments:
      - workspace default: on → off; \`new-default\` becomes the default · 🔒 tightens: compared with \`new-default\`

      ### budget policy \`New\` (\`new-default\`): update · 🔒 tightens

      Assignments:
      - workspace default: off → on · 🔒 tightens: compared with \`old-default\`

      ### moderation policy \`Gone\` (\`gone\`): **deleted**, with its assignments · 🔓 **loosens**

      - 🔓 **loosens** · contentFilterBuiltins \`ssn\`: removed (was \`redact\`)
      "
    `);
  });

  it("a policy change that only tightens does not set loosens", () => {
    const s = summarize({
      steps: [
        step(
          "update",
          "BudgetPolicy",
          "eng",
          { name: "Eng", limitUsd: 100, resetInterval: "weekly", memberUserIds: ["user_a"] },
          { name: "Eng", limitUsd: 80, resetInterval: "weekly", memberUserIds: ["user_a"] },
        ),
      ],
    });
    expect(s.loosens).toBe(false);
    expect(s.markdown).toContain("- 🔒 tightens · member `user_a` (`Eng` changes): narrows");
  });
  it("a shorter interval with a lower limit is judged by effect: 80 a day is no cap of 100 a week (issue 41)", () => {
    const s = summarize({
      steps: [
        step(
          "update",
          "BudgetPolicy",
          "eng",
          { name: "Eng", limitUsd: 100, resetInterval: "weekly", memberUserIds: ["user_a"] },
          { name: "Eng", limitUsd: 80, resetInterval: "daily", memberUserIds: ["user_a"] },
        ),
      ],
    });
    // The setting table reads both as tightening; every budget is checked on its own (rule 27), and
    // the weekly cap of 100 is gone: the member may spend 560 a week.
    expect(s.loosens).toBe(true);
    expect(s.markdown).toContain(
      "- 🔓 **loosens** · member `user_a` gains `budget 100 weekly (policy eng): no longer capped so` (`Eng` changes)",
    );
  });
  it("a workspace-wide policy: coverage shrinking loosens, growing tightens, deleting loosens", () => {
    const W2 = "3f2b8c1e-0000-4000-8000-000000000002";
    const W3 = "3f2b8c1e-0000-4000-8000-000000000003";
    const wide = { name: "Org", policyType: "moderation", contentFilterBuiltins: [{ slug: "email", action: "block" }] };
    const s = summarize({
      steps: [
        step(
          "update",
          "WorkspaceWidePolicy",
          "org",
          { ...wide, workspaceIds: [WS, W2] },
          { ...wide, workspaceIds: [WS, W3] },
        ),
        step(
          "update",
          "WorkspaceWidePolicy",
          "all",
          { ...wide, name: "All", allWorkspaces: true, optedOutWorkspaceIds: [] },
          { ...wide, name: "All", allWorkspaces: true, optedOutWorkspaceIds: [W2] },
        ),
        step("create", "WorkspaceWidePolicy", "cap", undefined, {
          name: "Cap",
          policyType: "budget",
          limitUsd: 1000,
          resetInterval: "monthly",
          allWorkspaces: true,
        }),
        step(
          "delete",
          "WorkspaceWidePolicy",
          "eu",
          { name: "EU", policyType: "modelAccess", allowedDataRegions: ["europe"], allWorkspaces: true },
          undefined,
        ),
      ],
    });
    expect(s.loosens).toBe(true);
    expect(s.markdown).toMatchInlineSnapshot(`
      "**🔓 Guardrail Policies loosen**: workspace-wide model availability policy \`EU\` (allowedDataRegions restriction removed); workspace-wide moderation policy \`All\` (contentFilterBuiltins \`email\` removed, workspaces opted out); workspace-wide moderation policy \`Org\` (contentFilterBuiltins \`email\` removed, workspaces no longer covered)

      **Guardrail Policies: 1 created, 2 updated, 1 deleted**

      ### workspace-wide budget policy \`Cap\` (\`cap\`): new · 🔒 tightens

      - name: \`Cap\`
      - limitUsd: \`1000\`
      - resetInterval: \`monthly\`

      Coverage:
      - allWorkspaces: on (every workspace) · 🔒 tightens

      ### workspace-wide model availability policy \`EU\` (\`eu\`): **deleted**, with its assignments · 🔓 **loosens**

      - 🔓 **loosens** · allowedDataRegions: \`europe\` → \`(not set)\` (restriction removed)

      ### workspace-wide moderation policy \`All\` (\`all\`): update · 🔓 **loosens**

      Coverage:
      - workspaces opted out: \`3f2b8c1e-0000-4000-8000-000000000002\` · 🔓 **loosens**: contentFilterBuiltins \`email\` removed

      ### workspace-wide moderation policy \`Org\` (\`org\`): update · 🔓 **loosens**

      Coverage:
      - workspaces covered: \`3f2b8c1e-0000-4000-8000-000000000003\` · 🔒 tightens
      - workspaces no longer covered: \`3f2b8c1e-0000-4000-8000-000000000002\` · 🔓 **loosens**: contentFilterBuiltins \`email\` removed
      "
    `);
  });
  // The dynamic face records a workspace-wide policy's coverage as maps `{id: true}`
  // (core/policies/id-maps.ts), in its plan as in its state: the same lines as from lists.
  it("a dynamic-face workspace-wide policy's coverage maps are judged as its lists", () => {
    const W2 = "3f2b8c1e-0000-4000-8000-000000000002";
    const W3 = "3f2b8c1e-0000-4000-8000-000000000003";
    const map = (...ids: string[]) => Object.fromEntries(ids.map((i) => [i, true]));
    const wide = { name: "Org", policyType: "moderation", contentFilterBuiltins: [{ slug: "email", action: "block" }] };
    const s = summarize({
      steps: [
        step(
          "update",
          "WorkspaceWidePolicy",
          "org",
          { ...wide, workspaceIds: map(WS, W2) },
          { ...wide, workspaceIds: map(WS, W3) },
        ),
        step(
          "update",
          "WorkspaceWidePolicy",
          "all",
          { ...wide, name: "All", allWorkspaces: true, optedOutWorkspaceIds: map() },
          { ...wide, name: "All", allWorkspaces: true, optedOutWorkspaceIds: map(W2) },
        ),
      ],
    });
    expect(s.loosens).toBe(true);
    expect(s.markdown).toContain(`- workspaces covered: \`${W3}\` · 🔒 tightens`);
    expect(s.markdown).toContain(`- workspaces no longer covered: \`${W2}\` · 🔓 **loosens**`);
    expect(s.markdown).toContain(`- workspaces opted out: \`${W2}\` · 🔓 **loosens**`);
    expect(s.markdown).not.toMatch(
      /workspaces (covered|opted out|no longer covered): `3f2b8c1e-0000-4000-8000-000000000001`/,
    );
  });
});
