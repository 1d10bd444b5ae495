/**
 * The inputs `read` reports hold no null (issue 31: mutation testing found the filter removable
 * with every test passing). State is read tolerantly: args recorded by an earlier release, or
 * edited by hand, can hold `null` for a setting, and Pulumi shows an input of `null` as a value
 * the program does not give, a diff on every preview after a refresh. What omission means is
 * reported by leaving the property out.
 */
import { describe, expect, it } from "vitest";
import { guardrailArgsSchema, type GuardrailInputs } from "../../src/core/args/guardrail-args";
import { wireGuardrail, type WireGuardrail } from "../../src/core/client/wire";
import { importedInputs, outputsFromWire, refreshedInputs } from "../../src/core/guardrail/model";

const wire = (over: Partial<WireGuardrail> = {}): WireGuardrail =>
  wireGuardrail.parse({
    id: "3f2b8c1e-0000-4000-8000-000000000001",
    name: "eng",
    workspace_id: "00000000-0000-4000-8000-000000000001",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: null,
    description: null,
    allowed_models: null,
    allowed_providers: ["p1"],
    ignored_models: null,
    ignored_providers: null,
    limit_usd: null,
    reset_interval: null,
    enforce_zdr: null,
    content_filter_builtins: null,
    content_filters: null,
    ...over,
  });
const args = guardrailArgsSchema.parse({ name: "eng", allowedProviders: ["p1"] });
const recorded = outputsFromWire(wire(), args);
/** The same state with args as an earlier release or a hand edit may have left them. */
const withArgs = (extra: Record<string, unknown>) => ({ ...recorded, args: { ...args, ...extra } as GuardrailInputs });

describe("refreshedInputs: no null among the inputs read reports", () => {
  it("a recorded null setting that did not drift is left out, not reported as null", () => {
    const state = withArgs({ description: null, limitUsd: null, workspaceId: null });
    const inputs = refreshedInputs(state, outputsFromWire(wire(), undefined, state));
    expect(inputs).toStrictEqual({ name: "eng", allowedProviders: ["p1"] });
  });

  it("a recorded undefined is left out too", () => {
    const state = withArgs({ description: undefined });
    expect(Object.keys(refreshedInputs(state, outputsFromWire(wire(), undefined, state)))).toEqual([
      "name",
      "allowedProviders",
    ]);
  });

  it("a setting cleared on the service is left out, one set there is reported", () => {
    const live = outputsFromWire(wire({ allowed_providers: null, description: "by hand" }), undefined, recorded);
    expect(refreshedInputs(recorded, live)).toStrictEqual({ name: "eng", description: "by hand" });
  });

  it("an import reports only what differs from omission, named workspace included", () => {
    const live = outputsFromWire(wire({ description: "d" }), undefined);
    expect(importedInputs(live)).toStrictEqual({
      name: "eng",
      description: "d",
      allowedProviders: ["p1"],
      workspaceId: "00000000-0000-4000-8000-000000000001",
    });
  });

  it("an import leaves out a setting at what omission means, even where that is not null", () => {
    // include_byok_in_budgets omitted means false; an empty list means the same as none.
    const live = outputsFromWire(wire({ include_byok_in_budgets: false, allowed_providers: [] }), undefined);
    expect(importedInputs(live)).toStrictEqual({ name: "eng", workspaceId: "00000000-0000-4000-8000-000000000001" });
  });
});
