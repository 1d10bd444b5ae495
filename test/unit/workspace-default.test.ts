import { describe, expect, it } from "vitest";
import type { WireGuardrail } from "../../src/core/client/wire";
import { checkGuardrailArgs } from "../../src/core/guardrail/check";
import * as lifecycle from "../../src/core/guardrail/workspace-default-lifecycle";
import {
  defaultOutputs,
  importedDefaultInputs,
  refreshedDefaultInputs,
  type WorkspaceFacts,
} from "../../src/core/guardrail/workspace-default-model";
import { resourceOfToken } from "../../src/core/type-tokens";
import { UNKNOWN } from "../../src/core/markers";
import { processConfig } from "../../src/core/settings/config";

const WS: WorkspaceFacts = {
  id: "0e0b6c1a-1111-4111-8111-111111111111",
  name: "Production",
  slug: "production",
  default_guardrail_id: "7a7a7a7a-2222-4222-8222-222222222222",
};

/** The default guardrail as the service answers it once written. */
const written = (over: Partial<WireGuardrail> = {}): WireGuardrail =>
  ({
    id: WS.default_guardrail_id,
    name: `Workspace ${WS.id} Default`,
    description: null,
    workspace_id: WS.id,
    allowed_models: null,
    allowed_providers: ["acme"],
    ignored_models: null,
    ignored_providers: null,
    limit_usd: 500,
    reset_interval: "monthly",
    enforce_zdr: null,
    enforce_zdr_vendor_a: true,
    enforce_zdr_vendor_b: null,
    enforce_zdr_vendor_c: null,
    enforce_zdr_other: null,
    content_filter_builtins: null,
    content_filters: null,
    include_byok_in_budgets: false,
    created_at: "2026-11-24T00:00:00Z",
    updated_at: "2026-11-24T00:00:00Z",
    ...over,
  }) as WireGuardrail;

const ARGS = {
  workspaceId: "production",
  allowedProviders: ["acme"],
  limitUsd: 500,
  resetInterval: "monthly",
  enforceZdrVendorA: true,
};
const applied = () => defaultOutputs(WS, written(), lifecycle.parseDefaultInputs(ARGS));

describe("WorkspaceDefaultGuardrail check", () => {
  it("holds the settings to the Guardrail's rules, with the same messages", async () => {
    const bad = { limitUsd: -5, allowedModels: [], contentFilters: [{ pattern: "(x", action: "block" }] };
    const mine = (await lifecycle.check({}, { workspaceId: "production", ...bad })).failures;
    const guardrails = checkGuardrailArgs({ name: "g", ...bad }).failures;
    expect(mine).toEqual(guardrails);
    expect(mine.length).toBe(4); // limitUsd twice: negative, and without resetInterval
  });

  it("needs a workspace id or slug, takes no adoptId, and names an omitted name nothing", async () => {
    const f = async (news: Record<string, unknown>) =>
      (await lifecycle.check({}, news)).failures.map((x) => `${x.property}: ${x.reason}`);
    expect(await f({ name: "x" })).toEqual(["workspaceId: is required"]);
    expect(await f({ workspaceId: "../guardrails" })).toEqual([
      'workspaceId: must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters) (got "../guardrails")',
    ]);
    expect(await f({ workspaceId: WS.id.toUpperCase(), adoptId: WS.id })).toEqual(["adoptId: unknown property"]);
    expect(await f({ workspaceId: "production" })).toEqual([]);
    expect(await f({ workspaceId: UNKNOWN, limitUsd: 5 })).toEqual([
      "limitUsd: limitUsd and resetInterval go together: set resetInterval too (daily, weekly or monthly), or drop limitUsd (got 5)",
    ]);
  });
});

describe("WorkspaceDefaultGuardrail state", () => {
  it("reads an unconfigured default as present with every setting at no restriction", () => {
    const outs = defaultOutputs(WS, undefined, undefined);
    expect(outs).toMatchObject({
      workspaceId: WS.id,
      guardrailId: WS.default_guardrail_id,
      workspaceName: "Production",
      workspaceSlug: "production",
      name: null,
      createdAt: null,
      allowedModels: null,
      limitUsd: null,
      includeByokInBudgets: false,
      resetOnDelete: false,
      args: null,
    });
    expect(importedDefaultInputs(outs)).toEqual({ workspaceId: WS.id });
  });

  it("imports a configured default as the args that hold it, the workspace by id", () => {
    expect(importedDefaultInputs(defaultOutputs(WS, written(), undefined))).toEqual({
      workspaceId: WS.id,
      name: `Workspace ${WS.id} Default`,
      allowedProviders: ["acme"],
      limitUsd: 500,
      resetInterval: "monthly",
      enforceZdrVendorA: true,
    });
  });

  it("refreshes a hand change as the live value, keeping the workspace as the program wrote it", () => {
    const live = defaultOutputs(WS, written({ limit_usd: 9000 }), undefined, applied());
    expect(refreshedDefaultInputs(applied(), live)).toEqual({ ...ARGS, limitUsd: 9000 });
  });

  it("puts every setting back to no restriction on reset, never the name or description", () => {
    const body = lifecycle.resetBody();
    expect(body).not.toHaveProperty("name");
    expect(body).not.toHaveProperty("description");
    expect(body.include_byok_in_budgets).toBe(false);
    expect(Object.entries(body).filter(([k, v]) => v !== null && k !== "include_byok_in_budgets")).toEqual([]);
    expect(Object.keys(body)).toContain("allowed_data_regions");
  });
});

describe("WorkspaceDefaultGuardrail diff (no service call)", () => {
  const diff = (news: Record<string, unknown>) => lifecycle.diff(processConfig, WS.id, applied(), news);

  it("is no change for the same settings, by slug or by id, with the service's name kept", async () => {
    expect((await diff(ARGS)).changes).toEqual([]);
    expect((await diff({ ...ARGS, workspaceId: WS.id.toUpperCase() })).changes).toEqual([]);
  });

  it("names changed entries by key, a renamed default by name, resetOnDelete as an update", async () => {
    expect((await diff({ ...ARGS, allowedProviders: ["acme", "zeta"], name: "Prod default" })).changes).toEqual([
      { path: "name", kind: "update" },
      { path: 'allowedProviders["zeta"]', kind: "add" },
    ]);
    expect((await diff({ ...ARGS, resetOnDelete: true })).changes).toEqual([{ path: "resetOnDelete", kind: "update" }]);
  });

  it("replaces for another workspace's id, and says a workspace still unknown may replace", async () => {
    const other = "0e0b6c1a-3333-4333-8333-333333333333";
    expect((await diff({ ...ARGS, workspaceId: other })).changes).toEqual([{ path: "workspaceId", kind: "replace" }]);
    expect((await diff({ ...ARGS, workspaceId: UNKNOWN })).changes).toEqual([{ path: "workspaceId", kind: "replace" }]);
    expect((await diff({ ...ARGS, limitUsd: UNKNOWN })).changes).toEqual([{ path: "limitUsd", kind: "update" }]);
  });
});

describe("WorkspaceDefaultGuardrail type tokens", () => {
  it("are the package's on both faces", () => {
    expect(resourceOfToken("pulumi-nodejs:dynamic/guardrails:WorkspaceDefaultGuardrail")).toEqual({
      face: "dynamic",
      type: "WorkspaceDefaultGuardrail",
    });
    expect(resourceOfToken("guardrails:index:WorkspaceDefaultGuardrail")?.face).toBe("native");
  });
});
