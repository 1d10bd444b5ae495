/**
 * The move from guardrails to policies (docs/guides/moving-to-policies.md), run whole against
 * the emulator: the plan is read from the live organization (`readPolicyMove`), the policies are
 * created through the policy resources' core lifecycle (the dynamic face's methods), guardrails
 * are unassigned and deleted through the client. After every step, every member and key involved
 * is asked `GET /__emulator/enforcement`, and none may be looser than before the move
 * (test/helpers/never-looser.ts). At the end, with the default guardrail cleared too, every one
 * is exactly as restricted as before.
 */
import { describe, expect, it } from "vitest";
import { budgetPolicy, moderationPolicy, modelAccessPolicy } from "../../src/dynamic/internal";
import { readPolicyMove, type PlannedPolicy } from "../../src/export/to-policies";
import { renderPoliciesProgram } from "../../src/export/policies-program";
import { DEFAULT_WS, useProviderEmulator, W2 } from "../helpers/emulator";
import { type Enforcement, loosenings } from "../helpers/never-looser";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator();
const admin = () => http(emu.url);

const LIFECYCLE = {
  BudgetPolicy: budgetPolicy,
  ModelAccessPolicy: modelAccessPolicy,
  ModerationPolicy: moderationPolicy,
};

type Subject = { member: string } | { key: string };
const label = (s: Subject) => ("member" in s ? `member ${s.member}` : `key ${s.key}`);

async function enforcement(s: Subject, workspace: string): Promise<Enforcement> {
  const q = "member" in s ? `member=${s.member}` : `key=${s.key}`;
  const r = await admin()("GET", `/__emulator/enforcement?${q}&workspace=${workspace}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Enforcement;
}

/** Every subject's answer, by label. */
async function answers(subjects: Subject[], workspace: string): Promise<Map<string, Enforcement>> {
  return new Map(await Promise.all(subjects.map(async (s) => [label(s), await enforcement(s, workspace)] as const)));
}

/** Each subject's loosenings from `before` to `after`, only those with any. */
function looser(before: Map<string, Enforcement>, after: Map<string, Enforcement>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [who, b] of before) {
    const l = loosenings(b, after.get(who)!);
    if (l.length > 0) out[who] = l;
  }
  return out;
}

const create = (p: PlannedPolicy) => LIFECYCLE[p.type].create(p.args);

describe("moving from guardrails to policies", () => {
  it("leaves no member or key less restricted after any step, and exactly as restricted at the end", async () => {
    const client = emu.client();
    // A guardrail with members and keys and every kind; one with a budget only; the workspace default guardrail.
    const eng = await client.createGuardrail({
      name: "eng",
      workspace_id: DEFAULT_WS,
      limit_usd: 50,
      reset_interval: "monthly",
      allowed_providers: ["vendor-a", "vendor-b"],
      ignored_models: ["vendor-b/model-m-fast"],
      enforce_zdr_vendor_a: true,
      enable_free_model_training: false,
      allowed_data_regions: ["europe"],
      content_filter_builtins: [{ slug: "email", action: "redact" }],
    } as never);
    await client.assignMembers(eng.id, ["user_alice", "user_bob"]);
    await client.assignKeys(eng.id, ["a1b2c3d4e5f60718", "b2c3d4e5f6071829"]);
    const interns = await client.createGuardrail({
      name: "interns",
      workspace_id: DEFAULT_WS,
      limit_usd: 5,
      reset_interval: "daily",
    } as never);
    await client.assignMembers(interns.id, ["user_carol"]);
    await client.assignKeys(interns.id, ["c3d4e5f60718293a"]);
    const ws = await client.getWorkspace(DEFAULT_WS);
    const defaultId = ws!.default_guardrail_id;
    await client.updateGuardrail(defaultId, {
      limit_usd: 100,
      reset_interval: "monthly",
      allowed_providers: ["vendor-a"],
      content_filter_builtins: [{ slug: "phone", action: "block" }],
    } as never);

    const subjects: Subject[] = [
      { member: "user_alice" },
      { member: "user_bob" },
      { member: "user_carol" },
      { member: "user_dave" },
      { key: "a1b2c3d4e5f60718" },
      { key: "b2c3d4e5f6071829" },
      { key: "c3d4e5f60718293a" },
      { key: "d4e5f60718293a4b" },
    ];
    const before = await answers(subjects, DEFAULT_WS);
    // The set-up restricts each of them (else "never looser" would prove little).
    for (const [who, e] of before) expect(e.budgets.length, who).toBeGreaterThan(0);
    const afterStep = async (step: string) => {
      const now = await answers(subjects, DEFAULT_WS);
      expect({ step, looser: looser(before, now) }).toEqual({ step, looser: {} });
      return now;
    };

    // The plan, read from the live organization.
    const move = await readPolicyMove(client, { workspaces: [DEFAULT_WS], only: [] });
    expect(move.policies.map((p) => p.resourceName)).toEqual([
      "eng-budget",
      "eng-model-availability",
      "eng-moderation",
      "interns-budget",
    ]);
    expect(move.defaults.map((p) => [p.type, p.args.optedOutMemberUserIds, p.args.optedOutKeyHashes])).toEqual([
      ["BudgetPolicy", [], []],
      ["ModelAccessPolicy", ["user_carol"], ["c3d4e5f60718293a"]],
      ["ModerationPolicy", ["user_carol"], ["c3d4e5f60718293a"]],
    ]);
    expect(renderPoliciesProgram(move)).toContain('new guardrails.BudgetPolicy("interns-budget", {');

    // 1. Policies equal to each guardrail's parts, on the same members and keys.
    for (const p of move.policies) await create(p);
    await afterStep("1. policies beside the guardrails");
    // 2. The workspace default guardrail as default policies.
    for (const p of move.defaults) await create(p);
    await afterStep("2. workspace default policies");
    // 3. The guardrails' members and keys unassigned.
    for (const g of move.guardrails) {
      await client.unassignMembers(g.id, g.members);
      await client.unassignKeys(g.id, g.keys);
    }
    await afterStep("3. guardrail assignments removed");
    // 4. The guardrails deleted.
    for (const g of move.guardrails) await client.deleteGuardrail(g.id);
    await afterStep("4. guardrails deleted");
    // 5. (optional) The default guardrail, which cannot be deleted, cleared.
    await client.updateGuardrail(defaultId, {
      limit_usd: null,
      reset_interval: null,
      allowed_providers: null,
      content_filter_builtins: null,
    } as never);
    const final = await afterStep("5. default guardrail cleared");
    // Exactly as restricted as before: no stricter either (the opt-outs of step 2 see to that).
    expect(looser(final, before)).toEqual({});
    // Enforced by the new policies alone (and the cleared default guardrail): nothing left of the guardrails.
    for (const [who, e] of final)
      expect(
        (e.sources ?? []).filter((s) => !(s.type === "policy" && s.legacy_guardrail_ids?.length === 0)),
        who,
      ).toEqual([{ type: "guardrail", id: defaultId, via: "workspace_default" }]);
  });

  it("catches a move in the wrong order: guardrails deleted before their policies exist", async () => {
    const client = emu.client();
    const ops = await client.createGuardrail({
      name: "ops",
      workspace_id: W2,
      limit_usd: 20,
      reset_interval: "weekly",
    } as never);
    await client.assignMembers(ops.id, ["user_frank"]);
    const subjects: Subject[] = [{ member: "user_frank" }];
    const before = await answers(subjects, W2);
    await client.deleteGuardrail(ops.id);
    expect(looser(before, await answers(subjects, W2))).toEqual({
      "member user_frank": ["budget 20 USD weekly: no budget as strict remains"],
    });
  });
});
