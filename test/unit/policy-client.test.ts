/**
 * Issue 40: `PolicyClient` makes every Guardrail Policies operation, and each request it sends
 * validates against docs/guardrail-policies.openapi.json with ajv (test/helpers/policy-contract.ts):
 * path, required query parameters and body. A recording server (node:http on port 0) answers each
 * operation with a record that itself validates against the contract's response schema.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GuardrailsClient } from "../../src/core/client";
import { collect } from "../../src/core/client/pagination";
import { PolicyClient } from "../../src/core/client/policies";
import { POLICY_KINDS, type PolicyKind, policyConfig } from "../../src/core/fields/policy-kinds";
import { OPERATIONS, operationOf, requestProblems, responseProblems } from "../helpers/policy-contract";
import { type Answer, type Recorded, type RecordingServer, recordingServer } from "../helpers/recording-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const WS = "0df9e665-d932-4740-b2c7-b52af166bc11";
const PID = "550e8400-e29b-41d4-a716-446655440000";
const TYPE = { budget: "budget", "model-availability": "model_availability", moderation: "moderation" } as const;
const CONFIG: Record<string, Record<string, unknown>> = {
  budget: { limit_usd: 10, reset_interval: "monthly", include_byok_in_budgets: false },
  model_availability: { allowed_models: ["openai/gpt-4o"], enforce_zdr_other: true },
  moderation: { content_filter_builtins: [{ slug: "email", action: "redact" }] },
};
/** Per kind, settings a program may give. */
const SETTINGS: Record<PolicyKind, Record<string, unknown>> = {
  budget: { limitUsd: 25, resetInterval: "weekly" },
  modelAvailability: { allowedModels: ["m/a"], enforceZdr: true, allowedDataRegions: ["europe"] },
  moderation: { contentFilters: [{ pattern: "a+", action: "block" }] },
};

const policy = (policyType: string) => ({ id: PID, name: "p", policy_type: policyType, config: CONFIG[policyType] });
const account = (policyType: string) => ({
  ...policy(policyType),
  created_at: "2026-01-01T00:00:00Z",
  updated_at: null,
  workspace_ids: [WS],
  opted_out_workspace_ids: [],
  workspace_count: 1,
  is_default: false,
  is_synced: true,
  is_workspace_default_synced: false,
});

/** A valid answer for each operation of the contract. */
function answer(req: Recorded): Answer {
  const u = new URL(req.url, "http://x");
  const found = operationOf(req.method, u.pathname);
  if (!found) return { status: 404, body: { error: { code: 404, message: "no such route" } } };
  const op = found.op.operationId;
  const segment = u.pathname.split("/")[5] as keyof typeof TYPE;
  const type = TYPE[segment] ?? String((req.body as { policy_type?: unknown })?.policy_type ?? "budget");
  if (op === "listAccountPolicies") return { status: 200, body: { data: [account("moderation")], total_count: 1 } };
  if (op.endsWith("AccountPolicy") && req.method !== "DELETE") return { status: 200, body: { data: account(type) } };
  if (op.startsWith("list"))
    return {
      status: 200,
      body: {
        data: [{ ...policy(type), member_count: 0, api_key_count: 1, updated_at: null, is_legacy_mapped: false }],
        total_count: 1,
      },
    };
  if (op.startsWith("delete") || op.startsWith("change")) return { status: 200, body: { data: true } };
  if (op.endsWith("Assignment"))
    return { status: 200, body: { data: { opted_out: false, policy_ids: [PID], workspace_default_policy_ids: [] } } };
  if (op.startsWith("get"))
    return {
      status: 200,
      body: {
        data: {
          ...policy(type),
          member_ids: ["user_1"],
          api_key_hashes: [],
          opted_out_api_key_hashes: [],
          overridden_api_key_hashes: [],
          reference: null,
        },
      },
    };
  return { status: 201, body: { data: policy(type) } };
}

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientFor = (url: string) =>
  new PolicyClient(
    new GuardrailsClient({ baseUrl: url, apiKey: KEY, retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 } }),
  );

/** Every operation, once, as a resource or data source would call it. */
async function everyOperation(c: PolicyClient): Promise<void> {
  const expected = { opted_out: false, policy_ids: [], workspace_default_policy_ids: [] };
  for (const kind of POLICY_KINDS) {
    const config = policyConfig(kind, SETTINGS[kind]);
    await collect(c.listPolicies(kind, WS));
    await c.createPolicy(kind, { name: "p", config, workspace_id: WS, member_ids: ["user_1"], api_key_hashes: [] });
    await c.getPolicy(kind, PID, WS);
    await c.updatePolicy(kind, PID, { name: "p", config, workspace_id: WS, is_workspace_default: true });
    await c.deletePolicy(kind, PID, WS);
  }
  const config = policyConfig("moderation", SETTINGS.moderation);
  await collect(c.listWorkspaceWidePolicies());
  await c.createWorkspaceWidePolicy("moderation", { name: "w", config, workspace_ids: [WS] });
  await c.updateWorkspaceWidePolicy("moderation", PID, { name: "w", config, workspace_ids: [] });
  await c.deleteWorkspaceWidePolicy(PID);
  for (const subject of [{ memberId: "user_1" }, { keyHash: "hash-1" }]) {
    await c.getAssignment(subject, "budget", WS);
    await c.changeAssignment(subject, { kind: "budget", policyId: PID, workspaceId: WS, assigned: true, expected });
  }
}

describe("PolicyClient against the extracted contract (docs/api-contract.md rules 22 to 33)", () => {
  it("sends every operation, each request valid against its schemas: 23 of 23 operations", async () => {
    const answered: string[] = [];
    server = await recordingServer((req) => {
      const a = answer(req);
      const found = operationOf(req.method, new URL(req.url, "http://x").pathname);
      if (found) answered.push(...responseProblems(found.op, a.status, a.body));
      return a;
    });
    await everyOperation(clientFor(server.url));
    expect(answered, "the double's answers are themselves valid").toEqual([]);
    const problems = server.requests.flatMap((r) => requestProblems(r.method, r.url, r.body));
    expect(problems).toEqual([]);
    const seen = new Set(
      server.requests.map((r) => operationOf(r.method, new URL(r.url, "http://x").pathname)?.op.operationId),
    );
    const all = OPERATIONS.map((o) => o.operationId);
    const covered = all.filter((id) => seen.has(id));
    console.log(`policy client requests: ${covered.length} of ${all.length} operations validate`);
    expect(covered).toEqual(all);
  });

  it("the check can fail: a request without workspace_id or policy_type is refused by the contract", () => {
    const list = `/api/v1/guardrails/policies/budget?offset=0&limit=100`;
    expect(requestProblems("GET", list, undefined)).toEqual([
      "listBudgetPolicies: query parameter workspace_id is required",
    ]);
    const body = { name: "p", config: policyConfig("budget", {}), workspace_id: WS };
    expect(requestProblems("POST", "/api/v1/guardrails/policies/budget", body)[0]).toMatch(
      /^createBudgetPolicy: body .*policy_type/,
    );
  });

  it("a budget config always carries its three fields (the authoring schema requires them, rule 24 replaces config whole)", () => {
    expect(policyConfig("budget", {})).toEqual({
      limit_usd: null,
      reset_interval: null,
      include_byok_in_budgets: false,
    });
    expect(Object.keys(policyConfig("moderation", {})).sort()).toEqual(["content_filter_builtins", "content_filters"]);
  });
});
