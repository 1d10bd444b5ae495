/**
 * The layers the effective-access tests (issue 41) write through the API, the emulator's own
 * enforcement answer, and both answers in one comparable shape.
 */
import { expect } from "vitest";
import { DEMO_KEY_HASHES } from "../../emulator";
import type { EffectiveAccess } from "../../src/core/access";
import type { GuardrailsClient } from "../../src/core/client/client";
import { PolicyClient } from "../../src/core/client/policies";
import type { Connection } from "../../src/core/connection";
import { policyConfig } from "../../src/core/fields/policy-kinds";
import { DEFAULT_WS, type TestEmulator } from "./emulator";
import { http } from "./spawn-emulator";

export const [K0, K1] = DEMO_KEY_HASHES as [string, string];
export const id: Record<string, string> = {};

/** The layers every access test reads: written through the API, as a program would. */
export async function setUpLayers(emu: TestEmulator): Promise<void> {
  const client = emu.client();
  const pc = new PolicyClient(client);
  const ws = (await client.getWorkspace(DEFAULT_WS))!;
  id.dflt = ws.default_guardrail_id;
  await client.updateGuardrail(id.dflt, { allowed_providers: ["vendor-a", "vendor-b", "vendor-c"] });
  id.eng = (
    await client.createGuardrail({ name: "Eng", workspace_id: DEFAULT_WS, allowed_providers: ["vendor-a"] })
  ).id;
  id.keys = (
    await client.createGuardrail({ name: "Keys", workspace_id: DEFAULT_WS, allowed_data_regions: ["europe"] })
  ).id;
  await client.assignMembers(id.eng, ["user_alice"]);
  await client.assignKeys(id.keys, [K0]);
  const res = await http(emu.url)("POST", "/__emulator/key-info", { key_hashes: [K0], member_user_id: "user_alice" });
  expect(res.status).toBe(200);
  const budget = (limitUsd: number, resetInterval: string) => policyConfig("budget", { limitUsd, resetInterval });
  id.weekly = (
    await pc.createPolicy("budget", {
      name: "everyone weekly",
      config: budget(20, "weekly"),
      workspace_id: DEFAULT_WS,
      member_ids: [],
      api_key_hashes: [],
      is_workspace_default: true,
    })
  ).id;
  id.bob = (
    await pc.createPolicy("budget", {
      name: "bob monthly",
      config: budget(50, "monthly"),
      workspace_id: DEFAULT_WS,
      member_ids: ["user_bob"],
      api_key_hashes: [],
    })
  ).id;
  id.wide = (
    await pc.createWorkspaceWidePolicy("modelAvailability", {
      name: "no vendor-x",
      config: policyConfig("modelAvailability", { ignoredProviders: ["vendor-x"] }),
      is_default: true,
    })
  ).id;
}

export const connectionOf = (client: GuardrailsClient): Connection => ({
  client: () => client,
  settings: () => {
    throw new Error("not used");
  },
});

type Enforced = {
  sources: Array<{ type: string; id: string; legacy_guardrail_ids?: string[] }>;
  budgets: Array<{ limit_usd: number | null; reset_interval: string | null }>;
  model_availability: Record<string, unknown>;
};

/** What the emulator enforces for a subject. */
export async function enforced(emu: TestEmulator, q: string): Promise<Enforced> {
  const res = await http(emu.url)("GET", `/__emulator/enforcement?${q}&workspace=${DEFAULT_WS}`);
  expect(res.status).toBe(200);
  return res.body as Enforced;
}

/** The two answers in one shape: layers (a still-mapped policy is its guardrail), lists, budgets. */
export function comparable(a: EffectiveAccess | Enforced) {
  if ("sources" in a) {
    const m = a.model_availability;
    return {
      layers: [...new Set(a.sources.map((s) => s.legacy_guardrail_ids?.[0] ?? s.id))].sort(),
      allowedProviders: m.allowed_providers ?? null,
      ignoredProviders: m.ignored_providers ?? [],
      regions: m.allowed_data_regions ?? null,
      budgets: a.budgets.map((b) => `${b.limit_usd}/${b.reset_interval}`).sort(),
    };
  }
  return {
    layers: [...new Set(a.layers.map((l) => l.id))].sort(),
    allowedProviders: a.allowedProviders.allowed,
    ignoredProviders: a.ignoredProviders.entries.map((e) => e.id),
    regions: a.allowedDataRegions.allowed,
    budgets: a.budgets.map((b) => `${b.limitUsd}/${b.resetInterval}`).sort(),
  };
}
