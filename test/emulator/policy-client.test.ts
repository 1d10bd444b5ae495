/**
 * Issue 40: `PolicyClient` against the emulator over real HTTP: every Guardrail Policies
 * operation round-trips (create, list, get, replace, assign per subject with
 * `expected_assignment`, delete), and every request the emulator's request log holds validates
 * against docs/guardrail-policies.openapi.json with ajv (test/helpers/policy-contract.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssignmentConflictError, NotFoundError } from "../../src/core/client";
import { collect } from "../../src/core/client/pagination";
import { PolicyClient } from "../../src/core/client/policies";
import { POLICY_KINDS, policyConfig } from "../../src/core/fields/policy-kinds";
import { DEFAULT_WS, W2, withEmulator } from "../helpers/emulator";
import { OPERATIONS, operationOf, requestProblems } from "../helpers/policy-contract";

let emu: Awaited<ReturnType<typeof withEmulator>>;
let policies: PolicyClient;
beforeAll(async () => {
  emu = await withEmulator();
  policies = new PolicyClient(emu.client());
});
afterAll(() => emu.close());

const SETTINGS = {
  budget: { limitUsd: 50, resetInterval: "monthly" },
  modelAvailability: { allowedModels: ["vendor-a/model-x"], enforceZdr: true },
  moderation: { contentFilterBuiltins: [{ slug: "email", action: "redact" }] },
} as const;
/** What each kind's config reads back as (the emulator canonicalises model slugs, rule 7). */
const READ_BACK = {
  budget: { limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: false },
  modelAvailability: { enforce_zdr_vendor_a: true, enforce_zdr_other: true, ignored_models: null },
  moderation: { content_filter_builtins: [{ slug: "email", action: "redact" }], content_filters: null },
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error("expected a failure"),
    (err: Error) => err,
  );

describe("PolicyClient against the emulator", () => {
  it("every operation round-trips, and each logged request validates: N of N operations", async () => {
    await emu.clearLog();
    for (const kind of POLICY_KINDS) {
      const config = policyConfig(kind, SETTINGS[kind]);
      const made = await policies.createPolicy(kind, {
        name: `${kind} one`,
        config,
        workspace_id: DEFAULT_WS,
        member_ids: ["user_alice"],
        api_key_hashes: [],
      });
      expect(made.config).toMatchObject(READ_BACK[kind]);
      const rows = await collect(policies.listPolicies(kind, DEFAULT_WS));
      expect(rows.map((r) => r.id)).toContain(made.id);
      expect(await collect(policies.listPolicies(kind, W2))).toEqual([]);
      const detail = await policies.getPolicy(kind, made.id, DEFAULT_WS);
      expect(detail).toMatchObject({ id: made.id, member_ids: ["user_alice"], api_key_hashes: [] });
      await policies.updatePolicy(kind, made.id, {
        name: `${kind} two`,
        config,
        workspace_id: DEFAULT_WS,
        member_ids: [],
        api_key_hashes: ["a1b2c3d4e5f60718"],
        is_workspace_default: true,
      });
      const after = await policies.getPolicy(kind, made.id, DEFAULT_WS);
      expect(after).toMatchObject({ name: `${kind} two`, member_ids: [], api_key_hashes: ["a1b2c3d4e5f60718"] });
      expect(after.is_workspace_default).toBe(true);

      // Per subject: read, change with the state read, then the same change on a stale state is a 409.
      const member = { memberId: "user_bob" };
      const state = await policies.getAssignment(member, kind, DEFAULT_WS);
      const change = { kind, policyId: made.id, workspaceId: DEFAULT_WS, assigned: true, expected: state };
      expect(await policies.changeAssignment(member, change)).toBe(true);
      expect((await policies.getAssignment(member, kind, DEFAULT_WS)).policy_ids).toEqual([made.id]);
      const stale = await failure(policies.changeAssignment(member, { ...change, assigned: false }));
      expect(stale).toBeInstanceOf(AssignmentConflictError);
      expect(stale.message).not.toContain("user_bob");
      const key = { keyHash: "b2c3d4e5f6071829" };
      const keyState = await policies.getAssignment(key, kind, DEFAULT_WS);
      expect(await policies.changeAssignment(key, { ...change, expected: keyState })).toBe(true);

      expect(await policies.deletePolicy(kind, made.id, DEFAULT_WS)).toBe(true);
      expect(await failure(policies.getPolicy(kind, made.id, DEFAULT_WS))).toBeInstanceOf(NotFoundError);
    }

    const config = policyConfig("budget", SETTINGS.budget);
    const ww = await policies.createWorkspaceWidePolicy("budget", { name: "org cap", config, workspace_ids: [W2] });
    expect(ww).toMatchObject({ kind: "budget", workspace_ids: [W2] });
    const replaced = await policies.updateWorkspaceWidePolicy("budget", ww.id, {
      name: "org cap",
      config,
      workspace_ids: [DEFAULT_WS, W2],
    });
    expect(new Set(replaced.workspace_ids)).toEqual(new Set([DEFAULT_WS, W2]));
    expect((await collect(policies.listWorkspaceWidePolicies())).map((p) => p.id)).toContain(ww.id);
    expect(await policies.deleteWorkspaceWidePolicy(ww.id)).toBe(true);

    const log = await emu.log();
    const problems = log.entries.flatMap((e) =>
      requestProblems(e.method, `${e.path}${e.query ? `?${e.query.replace(/^\?/, "")}` : ""}`, e.body),
    );
    expect(problems).toEqual([]);
    const seen = new Set(log.entries.map((e) => operationOf(e.method, e.path)?.op.operationId));
    const all = OPERATIONS.map((o) => o.operationId);
    console.log(
      `policy client requests to the emulator: ${all.filter((id) => seen.has(id)).length} of ${all.length} operations validate`,
    );
    expect(all.filter((id) => !seen.has(id))).toEqual([]);
  });
});
