/**
 * Attack on issue 40's library surfaces, part 4b: the move to policies (src/export/to-policies.ts)
 * against a workspace that already holds Guardrail Policies, checked through the emulator's
 * enforcement answer after every step (as moving-to-policies.test.ts does). The bar: no step
 * leaves a member or key less restricted. Attack ids E... are the report's.
 */
import { describe, expect, it } from "vitest";
import { PolicyClient } from "../../src/core/client/policies";
import { budgetPolicy, moderationPolicy, modelAccessPolicy } from "../../src/dynamic/internal";
import { readPolicyMove, type PlannedPolicy } from "../../src/export/to-policies";
import { DEFAULT_WS, useProviderEmulator } from "../helpers/emulator";
import { type Enforcement, loosenings } from "../helpers/never-looser";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator();
const LIFECYCLE = {
  BudgetPolicy: budgetPolicy,
  ModelAccessPolicy: modelAccessPolicy,
  ModerationPolicy: moderationPolicy,
};
const create = (p: PlannedPolicy) => LIFECYCLE[p.type].create(p.args);

async function enforcement(member: string): Promise<Enforcement> {
  const r = await http(emu.url)("GET", `/__emulator/enforcement?member=${member}&workspace=${DEFAULT_WS}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as Enforcement;
}

describe("E: the move over a workspace that already has policies", () => {
  it("E7 step 2 never replaces a stricter default policy the workspace already has", async () => {
    const client = emu.client();
    // The dashboard's default budget policy: 10 USD; the default guardrail: 100 USD. Dave holds neither
    // guardrail nor policy of his own, so both defaults restrict him: 10 USD wins.
    await new PolicyClient(client).createPolicy("budget", {
      name: "dashboard default",
      workspace_id: DEFAULT_WS,
      config: { limit_usd: 10, reset_interval: "daily", include_byok_in_budgets: false },
      is_workspace_default: true,
    } as never);
    const ws = await client.getWorkspace(DEFAULT_WS);
    await client.updateGuardrail(ws!.default_guardrail_id, { limit_usd: 100, reset_interval: "monthly" } as never);
    const eng = await client.createGuardrail({
      name: "eng",
      workspace_id: DEFAULT_WS,
      limit_usd: 50,
      reset_interval: "weekly",
    } as never);
    await client.assignMembers(eng.id, ["user_alice"]);

    const before = await enforcement("user_dave");
    expect(before.budgets.length).toBeGreaterThan(0);
    const move = await readPolicyMove(client, { workspaces: [DEFAULT_WS], only: [] });
    expect(move.notes.join("\n")).toMatch(/already has a default budget policy "dashboard default"/);
    for (const p of move.policies) await create(p);
    expect(loosenings(before, await enforcement("user_dave")), "step 1").toEqual([]);
    for (const p of move.defaults) await create(p);
    expect(loosenings(before, await enforcement("user_dave")), "step 2").toEqual([]);
  });
});
