/**
 * The core's diff names each changed list entry by key (issue 26): a provider, region or model
 * by itself, a builtin by slug, a custom filter by pattern (moves among the kept ones are
 * updates), and a model's canonical slug for its slug is no change. Pure: the recorded outputs
 * are built from a service record with the core's own model.
 */
import { describe, expect, it } from "vitest";
import type { GuardrailInputs } from "../../src/core/args/guardrail-args";
import { wireGuardrail } from "../../src/core/client/wire";
import { changedProperties, propertyChanges } from "../../src/core/guardrail/changes";
import { outputsFromWire } from "../../src/core/guardrail/model";

const X = "vendor-a/model-x";
const X_C = "vendor-a/model-x-20260115";
const M = "vendor-b/model-m";
const M_C = "vendor-b/model-m-20260201";
const Q = "vendor-c/model-q";

/** The outputs `up` records for `sent`, the service holding `held` (wire names). */
function recorded(sent: Record<string, unknown>, held: Record<string, unknown>) {
  const g = wireGuardrail.parse({
    id: "3f2b8c1e-0000-4000-8000-000000000001",
    name: "n",
    created_at: "t",
    workspace_id: "00000000-0000-4000-8000-000000000001",
    ...held,
  });
  return outputsFromWire(g, { name: "n", ...sent } as GuardrailInputs);
}

function changes(
  sent: Record<string, unknown>,
  held: Record<string, unknown>,
  now: Record<string, unknown>,
  secret = false,
) {
  const outs = recorded(sent, held);
  const inputs = { name: "n", ...now } as GuardrailInputs;
  return propertyChanges(outs, inputs, changedProperties(outs, inputs), () => secret);
}

describe("core diff: list settings by key", () => {
  it("providers and data regions by value; a reorder is no change", () => {
    const sent = { allowedProviders: ["p1", "p2"], allowedDataRegions: ["europe", "us"] };
    const held = { allowed_providers: ["p1", "p2"], allowed_data_regions: ["europe", "us"] };
    expect(changes(sent, held, { allowedProviders: ["p3", "p1"], allowedDataRegions: ["us", "europe"] })).toEqual([
      { path: 'allowedProviders["p2"]', kind: "delete" },
      { path: 'allowedProviders["p3"]', kind: "add" },
    ]);
  });

  it("a list set where there was none is the property added; dropped, deleted", () => {
    expect(changes({}, {}, { ignoredProviders: ["p1"] })).toEqual([{ path: "ignoredProviders", kind: "add" }]);
    expect(changes({ ignoredProviders: ["p1"] }, { ignored_providers: ["p1"] }, {})).toEqual([
      { path: "ignoredProviders", kind: "delete" },
    ]);
  });

  it("models: a canonical slug for its slug is nothing; a new model is added, a dropped one deleted", () => {
    const sent = { allowedModels: [X, M] };
    const held = { allowed_models: [X_C, M_C] };
    expect(changes(sent, held, { allowedModels: [X_C, M] })).toEqual([]);
    expect(changes(sent, held, { allowedModels: [X_C, Q] })).toEqual([
      { path: `allowedModels[${JSON.stringify(M)}]`, kind: "delete" },
      { path: `allowedModels[${JSON.stringify(Q)}]`, kind: "add" },
    ]);
  });

  it("models after drift: against the canonical slugs the service holds", () => {
    // Answered [X_C, M_C], and someone removed M on the service since (a refresh recorded it).
    const outs = {
      ...recorded({ allowedModels: [X, M] }, { allowed_models: [X_C, M_C] }),
      allowedModelsCanonical: [X_C],
    };
    const inputs = { name: "n", allowedModels: [X, M] } as GuardrailInputs;
    // X was answered X_C, which the service still holds: only M is missing.
    expect(propertyChanges(outs, inputs, changedProperties(outs, inputs), () => false)).toEqual([
      { path: `allowedModels[${JSON.stringify(M)}]`, kind: "add" },
    ]);
  });

  it("models drifted to what the program now lists: no entry changed, yet the list is named whole", () => {
    // Answered [X_C, M_C]; M removed on the service since, and the program drops it too.
    const outs = {
      ...recorded({ allowedModels: [X, M] }, { allowed_models: [X_C, M_C] }),
      allowedModelsCanonical: [X_C],
    };
    const inputs = { name: "n", allowedModels: [X] } as GuardrailInputs;
    expect(propertyChanges(outs, inputs, changedProperties(outs, inputs), () => false)).toEqual([
      { path: "allowedModels", kind: "update" },
    ]);
  });

  it("builtins by slug: added, deleted, updated; a reorder alone is no change", () => {
    const list = [
      { slug: "email", action: "redact" },
      { slug: "credit-card", action: "block" },
    ];
    const held = { content_filter_builtins: list };
    expect(changes({ contentFilterBuiltins: list }, held, { contentFilterBuiltins: [...list].reverse() })).toEqual([]);
    expect(
      changes({ contentFilterBuiltins: list }, held, {
        contentFilterBuiltins: [
          { slug: "phone", action: "block" },
          { slug: "email", action: "block" },
        ],
      }),
    ).toEqual([
      { path: 'contentFilterBuiltins["credit-card"]', kind: "delete" },
      { path: 'contentFilterBuiltins["email"]', kind: "update" },
      { path: 'contentFilterBuiltins["phone"]', kind: "add" },
    ]);
  });

  it("custom filters by pattern, applied in order: a filter that moved is updated, the others not", () => {
    const f = (pattern: string, action = "block") => ({ pattern, action });
    const list = [f("a+"), f("b+"), f("c+")];
    const held = { content_filters: list };
    expect(changes({ contentFilters: list }, held, { contentFilters: [f("c+"), f("a+"), f("b+")] })).toEqual([
      { path: 'contentFilters["c+"]', kind: "update" },
    ]);
    expect(changes({ contentFilters: list }, held, { contentFilters: [f("a+"), f("c+", "flag"), f("d+")] })).toEqual([
      { path: 'contentFilters["b+"]', kind: "delete" },
      { path: 'contentFilters["c+"]', kind: "update" },
      { path: 'contentFilters["d+"]', kind: "add" },
    ]);
    // A pattern listed twice has no key of its own: the list is named whole.
    expect(changes({ contentFilters: list }, held, { contentFilters: [f("a+"), f("a+", "flag")] })).toEqual([
      { path: "contentFilters", kind: "update" },
    ]);
  });

  it("a secret arg is named whole, never by a key it holds", () => {
    expect(
      changes({ allowedProviders: ["p1"] }, { allowed_providers: ["p1"] }, { allowedProviders: ["p2"] }, true),
    ).toEqual([{ path: "allowedProviders", kind: "update" }]);
  });
});
