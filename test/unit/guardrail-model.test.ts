/**
 * The pure core of the Guardrail, table-driven: normalise (comparable values), diff
 * (changed properties), the PATCH and create bodies, outputs from a wire record, and the
 * inputs `read` reports. No HTTP: every value is a literal here.
 */
import { describe, expect, it } from "vitest";
import { guardrailArgsSchema, type GuardrailInputs } from "../../src/core/args/guardrail-args";
import { wireGuardrail, type WireGuardrail } from "../../src/core/client/wire";
import { createBody, patchBody } from "../../src/core/guardrail/bodies";
import { changedProperties, settingsMatch } from "../../src/core/guardrail/changes";
import { comparableInputs, outputsFromWire, refreshedInputs } from "../../src/core/guardrail/model";

const args = (a: Record<string, unknown>): GuardrailInputs => guardrailArgsSchema.parse(a);

const X = "vendor-a/model-x";
const X_C = "vendor-a/model-x-20260115";

/** A wire record as the service answers `full` below. */
const wire = (over: Partial<WireGuardrail> = {}): WireGuardrail =>
  wireGuardrail.parse({
    id: "3f2b8c1e-0000-4000-8000-000000000001",
    name: "eng",
    workspace_id: "00000000-0000-4000-8000-000000000001",
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: null,
    description: null,
    allowed_models: [X_C],
    allowed_providers: ["p2", "p1"],
    ignored_models: null,
    ignored_providers: null,
    limit_usd: 10,
    reset_interval: "daily",
    enforce_zdr_vendor_a: true,
    enforce_zdr_vendor_b: true,
    enforce_zdr_vendor_c: true,
    enforce_zdr_other: false,
    enforce_zdr: true,
    content_filter_builtins: [{ slug: "email", action: "redact", label: "[EMAIL]" }],
    content_filters: [{ pattern: "a+", action: "block", label: null }],
    ...over,
  });
const full = args({
  name: "eng",
  allowedModels: [X],
  allowedProviders: ["p2", "p1"],
  limitUsd: 10,
  resetInterval: "daily",
  enforceZdr: true,
  enforceZdrOther: false,
  contentFilterBuiltins: [{ slug: "email", action: "redact" }],
  contentFilters: [{ pattern: "a+", action: "block" }],
});
const recorded = outputsFromWire(wire(), full);

describe("normalise", () => {
  it.each([
    ["sets sorted and deduplicated", { name: "n", allowedProviders: ["b", "a", "b"] }, "allowedProviders", ["a", "b"]],
    ["an omitted property is null", { name: "n" }, "limitUsd", null],
    ["a vendor flag falls back to enforceZdr", { name: "n", enforceZdr: true }, "enforceZdrVendorB", true],
    [
      "an explicit vendor flag wins",
      { name: "n", enforceZdr: true, enforceZdrVendorB: false },
      "enforceZdrVendorB",
      false,
    ],
    [
      "builtins by slug; the prompt-injection scope defaults to all_messages",
      {
        name: "n",
        contentFilterBuiltins: [
          { slug: "regex-prompt-injection", action: "flag" },
          { slug: "email", action: "block" },
        ],
      },
      "contentFilterBuiltins",
      [
        { slug: "email", action: "block", scanScope: null },
        { slug: "regex-prompt-injection", action: "flag", scanScope: "all_messages" },
      ],
    ],
    [
      "custom filters keep their order; no label is null",
      {
        name: "n",
        contentFilters: [
          { pattern: "z", action: "flag" },
          { pattern: "a", action: "block", label: "L" },
        ],
      },
      "contentFilters",
      [
        { pattern: "z", action: "flag", label: null },
        { pattern: "a", action: "block", label: "L" },
      ],
    ],
  ] as const)("%s", (_name, a, property, expected) => {
    expect(comparableInputs(args(a))[property]).toEqual(expected);
  });
});

describe("diff (changed properties)", () => {
  it.each([
    ["the same program", {}, []],
    ["a set in another order", { allowedProviders: ["p1", "p2"] }, []],
    ["a scalar", { limitUsd: 11 }, ["limitUsd"]],
    ["a property removed", { limitUsd: undefined, resetInterval: undefined }, ["limitUsd", "resetInterval"]],
    [
      "enforceZdr dropped changes the vendors it filled",
      { enforceZdr: undefined },
      ["enforceZdrVendorA", "enforceZdrVendorB", "enforceZdrVendorC", "enforceZdr"],
    ],
    ["the canonical slug the service answered", { allowedModels: [X_C] }, []],
    ["another model", { allowedModels: ["vendor-b/model-m"] }, ["allowedModels"]],
    [
      "an explicit default scan scope is no change",
      { contentFilterBuiltins: [{ slug: "email", action: "redact" }] },
      [],
    ],
    ["a custom filter label", { contentFilters: [{ pattern: "a+", action: "block", label: "x" }] }, ["contentFilters"]],
  ] as const)("%s", (_name, change, expected) => {
    expect(changedProperties(recorded, args({ ...full, ...change }))).toEqual(expected);
  });

  it("drift of the live record against the same program", () => {
    const drifted = outputsFromWire(
      wire({ limit_usd: 5, allowed_models: ["vendor-c/model-q-20251111"] }),
      undefined,
      recorded,
    );
    expect(changedProperties(drifted, full)).toEqual(["allowedModels", "limitUsd"]);
  });
});

describe("whether a listed guardrail is what a create would leave (a lost create answer)", () => {
  it.each([
    ["every setting, and the answer to the model identifiers sent", {}, true],
    ["one setting differs", { limit_usd: 11 }, false],
    ["a model list no catalogue answers to the identifiers sent", { allowed_models: [X_C, "vendor-b/m-1"] }, false],
    ["a model list where the program gives none", { ignored_models: [X_C] }, false],
  ] as const)("%s", (_name, over, expected) => {
    expect(settingsMatch(wire(over as Partial<WireGuardrail>), full)).toBe(expected);
  });
});

describe("request bodies", () => {
  it("a PATCH holds only what changed; a collection goes whole; null clears", () => {
    const next = args({ ...full, limitUsd: 1, allowedProviders: ["p3"], contentFilters: undefined });
    expect(patchBody(next, changedProperties(recorded, next))).toMatchInlineSnapshot(`
      {
        "allowed_providers": [
          "p3",
        ],
        "content_filters": null,
        "limit_usd": 1,
      }
    `);
  });

  it("the ZDR flags travel together, every vendor explicit", () => {
    const next = args({ ...full, enforceZdrVendorA: false });
    expect(patchBody(next, changedProperties(recorded, next))).toMatchInlineSnapshot(`
      {
        "enforce_zdr": true,
        "enforce_zdr_other": false,
        "enforce_zdr_vendor_a": false,
        "enforce_zdr_vendor_b": true,
        "enforce_zdr_vendor_c": true,
      }
    `);
  });

  it("a create holds what the program gives, duplicates dropped, nothing it omits", () => {
    expect(
      createBody(
        args({
          name: "n",
          allowedModels: [X, X],
          workspaceId: "00000000-0000-4000-8000-000000000002",
          contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" }],
        }),
      ),
    ).toMatchInlineSnapshot(`
      {
        "allowed_models": [
          "vendor-a/model-x",
        ],
        "content_filter_builtins": [
          {
            "action": "flag",
            "scan_scope": "user_only",
            "slug": "regex-prompt-injection",
          },
        ],
        "name": "n",
        "workspace_id": "00000000-0000-4000-8000-000000000002",
      }
    `);
    expect(createBody(args({ name: "z", enforceZdr: false }))).toMatchInlineSnapshot(`
      {
        "enforce_zdr": false,
        "enforce_zdr_other": false,
        "enforce_zdr_vendor_a": false,
        "enforce_zdr_vendor_b": false,
        "enforce_zdr_vendor_c": false,
        "name": "z",
      }
    `);
  });
});

describe("outputs from the wire", () => {
  it("records every field in the program's names, the answer to the model lists, and the args", () => {
    const { args: recordedArgs, ...outs } = recorded;
    expect(recordedArgs).toEqual(JSON.parse(JSON.stringify(full)));
    expect(outs).toMatchInlineSnapshot(`
      {
        "allowedDataRegions": null,
        "allowedModels": [
          "vendor-a/model-x",
        ],
        "allowedModelsCanonical": [
          "vendor-a/model-x-20260115",
        ],
        "allowedProviders": [
          "p2",
          "p1",
        ],
        "contentFilterBuiltins": [
          {
            "action": "redact",
            "label": "[EMAIL]",
            "slug": "email",
          },
        ],
        "contentFilters": [
          {
            "action": "block",
            "pattern": "a+",
          },
        ],
        "createdAt": "2026-01-01T00:00:00.000Z",
        "defaultWorkspaceId": "00000000-0000-4000-8000-000000000001",
        "description": null,
        "enableFreeModelPublication": null,
        "enableFreeModelTraining": null,
        "enablePaidModelTraining": null,
        "enforceZdr": true,
        "enforceZdrOther": false,
        "enforceZdrVendorA": true,
        "enforceZdrVendorB": true,
        "enforceZdrVendorC": true,
        "guardrailId": "3f2b8c1e-0000-4000-8000-000000000001",
        "ignoredModels": null,
        "ignoredModelsCanonical": null,
        "ignoredProviders": null,
        "includeByokInBudgets": null,
        "limitUsd": 10,
        "modelAnswers": {
          "allowedModels": [
            "vendor-a/model-x-20260115",
          ],
          "ignoredModels": null,
        },
        "name": "eng",
        "resetInterval": "daily",
        "updatedAt": null,
        "workspaceId": "00000000-0000-4000-8000-000000000001",
      }
    `);
  });

  it("a read keeps the recorded answer, args and default workspace", () => {
    const read = outputsFromWire(wire({ allowed_models: ["vendor-c/model-q-20251111"] }), undefined, recorded);
    expect([read.modelAnswers, read.args, read.defaultWorkspaceId]).toEqual([
      recorded.modelAnswers,
      recorded.args,
      recorded.defaultWorkspaceId,
    ]);
    expect(read.allowedModels).toEqual(["vendor-c/model-q-20251111"]);
  });

  it("a read with no drift echoes the program's identifiers, the canonical slugs beside them", () => {
    const read = outputsFromWire(wire(), undefined, recorded);
    expect([read.allowedModels, read.allowedModelsCanonical]).toEqual([[X], [X_C]]);
  });
});

describe("inputs read reports", () => {
  it.each([
    ["nothing drifted: the program's own args", {}, { allowedModels: [X], limitUsd: 10 }],
    ["a drifted scalar: its live value", { limit_usd: 5 }, { limitUsd: 5 }],
    ["a property cleared by hand: gone from the inputs", { reset_interval: null }, { resetInterval: undefined }],
    [
      "a drifted model list: the service's canonical slugs",
      { allowed_models: ["vendor-c/model-q-20251111"] },
      { allowedModels: ["vendor-c/model-q-20251111"] },
    ],
    [
      "drifted builtins: without the service's labels",
      { content_filter_builtins: [{ slug: "ssn", action: "block", label: "[SSN]" }] },
      { contentFilterBuiltins: [{ slug: "ssn", action: "block" }] },
    ],
    [
      "an unknown slug and reset interval are kept as they are",
      { content_filter_builtins: [{ slug: "secrets", action: "flag" }], reset_interval: "hourly" },
      {
        contentFilterBuiltins: [{ slug: "secrets", action: "flag" }],
        resetInterval: "hourly",
      },
    ],
  ] as const)("%s", (_name, change, expected) => {
    const inputs = refreshedInputs(
      recorded,
      outputsFromWire(wire(change as Partial<WireGuardrail>), undefined, recorded),
    );
    for (const [k, v] of Object.entries(expected)) expect(inputs[k], k).toEqual(v);
  });

  it("state without recorded args reports the live values", () => {
    const bare = { ...recorded, args: null };
    expect(refreshedInputs(bare, bare)).toMatchObject({
      name: "eng",
      limitUsd: 10,
      enforceZdr: true,
      allowedModels: [X_C],
    });
  });
});
