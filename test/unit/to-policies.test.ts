/**
 * The plan of the move to policies (src/export/to-policies.ts) and its program
 * (policies-program.ts): which kinds a guardrail becomes, the default policies' opt-outs, what
 * is left out with a note, and a program that stays valid TypeScript whatever the names hold.
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { WireGuardrail } from "../../src/core/client/wire";
import { renderPoliciesProgram } from "../../src/export/policies-program";
import { policiesFromGuardrails } from "../../src/export/to-policies";

const WS = "00000000-0000-4000-8000-000000000001";
const g = (id: string, name: string, extra: Record<string, unknown>, ws: string | null = WS) =>
  ({ id, name, workspace_id: ws, description: null, ...extra }) as unknown as WireGuardrail;

describe("policiesFromGuardrails", () => {
  const move = policiesFromGuardrails(
    [
      {
        guardrail: g("11111111-0000-4000-8000-000000000000", "eng", {
          limit_usd: 50,
          reset_interval: "monthly",
          allowed_providers: ["vendor-a"],
          content_filters: [{ pattern: "secret", action: "block" }],
        }),
        members: ["user_b", "user_a", "user_a"],
        keys: ["k1"],
      },
      {
        guardrail: g("22222222-0000-4000-8000-000000000000", "byok", { include_byok_in_budgets: true }),
        members: [],
        keys: [],
      },
      {
        guardrail: g("33333333-0000-4000-8000-000000000000", "old", { limit_usd: 1 }, null),
        members: ["user_c"],
        keys: [],
      },
    ],
    {
      defaults: [
        {
          workspace: { id: WS, name: "main", default_guardrail_id: "d" },
          guardrail: g("dddddddd-0000-4000-8000-000000000000", "Default", {
            limit_usd: 100,
            allowed_data_regions: ["europe"],
          }),
        },
      ],
    },
  );

  it("makes a policy per kind the guardrail sets, on its members and keys", () => {
    expect(move.policies).toEqual([
      {
        type: "BudgetPolicy",
        resourceName: "eng-budget",
        guardrailId: "11111111-0000-4000-8000-000000000000",
        args: {
          workspaceId: WS,
          name: "eng",
          limitUsd: 50,
          resetInterval: "monthly",
          memberUserIds: ["user_a", "user_b"],
          keyHashes: ["k1"],
        },
      },
      expect.objectContaining({
        type: "ModelAccessPolicy",
        args: expect.objectContaining({ allowedProviders: ["vendor-a"] }),
      }),
      expect.objectContaining({ type: "ModerationPolicy", resourceName: "eng-moderation" }),
    ]);
  });

  it("opts out of each default kind whoever holds a guardrail that does not set it", () => {
    expect(
      move.defaults.map((p) => [
        p.resourceName,
        p.args.workspaceDefault,
        p.args.optedOutMemberUserIds,
        p.args.optedOutKeyHashes,
      ]),
    ).toEqual([
      ["workspace-default-00000000-budget", true, [], []],
      ["workspace-default-00000000-model-availability", true, [], []],
    ]);
    const onlyBudget = policiesFromGuardrails(
      [
        {
          guardrail: g("44444444-0000-4000-8000-000000000000", "interns", { limit_usd: 5, reset_interval: "daily" }),
          members: ["user_i"],
          keys: ["k9"],
        },
      ],
      {
        defaults: [
          {
            workspace: { id: WS, name: null, default_guardrail_id: "d" },
            guardrail: g("d", "D", { allowed_providers: ["vendor-a"] }),
          },
        ],
      },
    );
    expect(onlyBudget.defaults[0]?.args).toMatchObject({
      optedOutMemberUserIds: ["user_i"],
      optedOutKeyHashes: ["k9"],
    });
  });

  it("says what it leaves out: nothing set, no workspace", () => {
    expect(move.notes).toEqual([
      'guardrail "byok" (22222222-0000-4000-8000-000000000000) sets nothing a policy holds: it restricts nobody; no policy is planned',
      'guardrail "byok" (22222222-0000-4000-8000-000000000000) is assigned to nobody: its policies are planned unassigned, as it is',
      'guardrail "old" (33333333-0000-4000-8000-000000000000) has no workspace (it is older than workspaces): left out; give defaultWorkspaceId (--workspace <the default workspace\'s id>) to move it',
    ]);
    expect(move.guardrails.map((m) => m.name)).toEqual(["eng", "byok"]);
  });
});

describe("renderPoliciesProgram", () => {
  it("is valid TypeScript whatever a name holds, with step 2 behind a config flag", () => {
    const hostile = 'x"); process.exit(1); //\n*/ `${evil}`\u2028';
    const move = policiesFromGuardrails(
      [
        {
          guardrail: g("55555555-0000-4000-8000-000000000000", hostile, { limit_usd: 3 }),
          members: ["user_a"],
          keys: [],
        },
      ],
      {
        defaults: [
          {
            workspace: { id: WS, name: null, default_guardrail_id: "d" },
            guardrail: g("d", hostile, { limit_usd: 9 }),
          },
        ],
      },
    );
    const text = renderPoliciesProgram(move);
    const out = ts.transpileModule(text, {
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.CommonJS },
    });
    expect(out.diagnostics).toEqual([]);
    // Exactly two resources and one config read: nothing the name holds became code.
    expect(out.outputText.match(/new guardrails\.\w+\(/g)).toHaveLength(2);
    expect(out.outputText).not.toContain("process.exit(1); //\n");
    expect(text).toContain('if (new pulumi.Config().getBoolean("moveWorkspaceDefaults")) {');
  });
});
