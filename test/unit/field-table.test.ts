/**
 * Every field of the table, one sample pair each, through every derived path: the create
 * body, the PATCH body, outputs from a response, diff, the inputs `read` reports, omission,
 * a response without the key, and error messages in the program's names. `SAMPLES` is a
 * Record over the table's keys, so a new field does not compile until it has a sample here.
 */
import { describe, expect, it } from "vitest";
import { FIELD_NAMES, spec, type FieldName } from "../../src/core/fields/fields";
import { guardrailArgsSchema, type GuardrailInputs } from "../../src/core/args/guardrail-args";
import { wireGuardrail } from "../../src/core/client/wire";
import { createBody, patchBody } from "../../src/core/guardrail/bodies";
import { changedProperties } from "../../src/core/guardrail/changes";
import { setsInOldOrder } from "../../src/core/guardrail/arrange";
import { inUserNames } from "../../src/core/resource/annotate";
import { outputsFromWire, refreshedInputs } from "../../src/core/guardrail/model";
import type { GuardrailArgs } from "../../src/dynamic/guardrail";

/** Per field: a value a program may set, and another one. */
const SAMPLES: Record<FieldName, readonly [unknown, unknown]> = {
  name: ["one", "two"],
  description: ["d1", "d2"],
  allowedModels: [["m/a"], ["m/b"]],
  allowedProviders: [["p1", "p2"], ["p3"]],
  ignoredModels: [["m/c"], ["m/d"]],
  ignoredProviders: [["p4"], ["p5", "p6"]],
  limitUsd: [10, 20],
  resetInterval: ["daily", "weekly"],
  enforceZdrVendorA: [true, false],
  enforceZdrVendorB: [true, false],
  enforceZdrVendorC: [true, false],
  enforceZdrOther: [true, false],
  enforceZdr: [true, false],
  contentFilterBuiltins: [[{ slug: "email", action: "block" }], [{ slug: "ssn", action: "redact" }]],
  contentFilters: [[{ pattern: "a+", action: "block" }], [{ pattern: "b+", action: "flag", label: "B" }]],
  enableFreeModelTraining: [true, false],
  enablePaidModelTraining: [false, true],
  enableFreeModelPublication: [true, false],
  allowedDataRegions: [["europe", "us"], ["global"]],
  includeByokInBudgets: [true, false],
};

/** Rule 14 pairs the limit with its interval: a sample of one carries the other. */
const PARTNER: Partial<Record<FieldName, Record<string, unknown>>> = {
  limitUsd: { resetInterval: "daily" },
  resetInterval: { limitUsd: 1 },
};

const args = (k: FieldName, v: unknown): GuardrailInputs =>
  guardrailArgsSchema.parse({ name: "n", ...PARTNER[k], [k]: v });
const base = {
  id: "3f2b8c1e-0000-4000-8000-000000000001",
  name: "n",
  created_at: "2026-01-01T00:00:00.000Z",
  workspace_id: "00000000-0000-4000-8000-000000000001",
};
/** The record a service would answer to a create of `inputs` (models answered as sent). */
const answer = (inputs: GuardrailInputs) => wireGuardrail.parse({ ...base, ...createBody(inputs) });
const wireOf = (k: FieldName, v: unknown) => spec(k).toWire(v as never);
const groupOf = (k: FieldName) =>
  FIELD_NAMES.filter((f) => f === k || (spec(k).group !== undefined && spec(f).group === spec(k).group));

describe.each(FIELD_NAMES)("field %s", (k) => {
  const [a, b] = SAMPLES[k];
  const w = spec(k).wire;

  it("a create sends it under its wire name", () => {
    expect(createBody(args(k, a))[w as keyof ReturnType<typeof createBody>]).toEqual(wireOf(k, a));
  });

  it("a response records it; the same program then has no change", () => {
    const outs = outputsFromWire(answer(args(k, a)), args(k, a));
    expect(changedProperties(outs, args(k, a))).toEqual([]);
  });

  it("a new value is one change, and the PATCH holds it (and its group) only", () => {
    const outs = outputsFromWire(answer(args(k, a)), args(k, a));
    const changed = changedProperties(outs, args(k, b));
    expect(changed).toEqual(
      k === "enforceZdr"
        ? ["enforceZdrVendorA", "enforceZdrVendorB", "enforceZdrVendorC", "enforceZdrOther", "enforceZdr"]
        : [k],
    );
    const body = patchBody(args(k, b), changed);
    expect(Object.keys(body).sort()).toEqual(
      groupOf(k)
        .map((f) => spec(f).wire)
        .sort(),
    );
    expect((body as Record<string, unknown>)[w]).toEqual(wireOf(k, b));
  });

  it("drift: read reports the live value in the program's terms", () => {
    const outs = outputsFromWire(answer(args(k, a)), args(k, a));
    const live = outputsFromWire(answer(args(k, b)), undefined, outs);
    expect(refreshedInputs(outs, live)[k]).toEqual(JSON.parse(JSON.stringify(args(k, b)[k])));
  });

  it.skipIf(spec(k).required)("omitted by the program and absent from a response: no change", () => {
    const record = wireGuardrail.parse({ ...base, [w]: undefined });
    expect(record[w as keyof typeof record]).toBeNull();
    const inputs = guardrailArgsSchema.parse({ name: "n" });
    expect(changedProperties(outputsFromWire(record, inputs), inputs)).toEqual([]);
    expect(createBody(inputs)).not.toHaveProperty(w);
  });

  it("a service message names it as the program does", () => {
    expect(inUserNames(`${w}: bad value`)).toBe(`${k}: bad value`);
  });
});

describe("GuardrailArgs is typed from the table", () => {
  it("accepts each field's values and refuses others (checked by `npm run typecheck`)", () => {
    const ok: GuardrailArgs = {
      name: "n",
      allowedDataRegions: ["us"],
      resetInterval: "daily",
      includeByokInBudgets: true,
      contentFilterBuiltins: [{ slug: "email", action: "block" }],
    };
    // @ts-expect-error not a data region
    const badRegion: GuardrailArgs = { name: "n", allowedDataRegions: ["mars"] };
    // @ts-expect-error name is required
    const noName: GuardrailArgs = { limitUsd: 1 };
    expect([ok, badRegion, noName]).toHaveLength(3);
  });
});

/** The messages `check` gives for one field's value, or [] when the value is accepted. */
const refusals = (k: FieldName, v: unknown) =>
  spec(k)
    .arg.safeParse(v)
    .error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`.replace(/^: /, "")) ?? [];

describe("each field's rules, with the message a person can act on", () => {
  it("name: a string of 1 to 200 characters", () => {
    expect(refusals("name", "x".repeat(200))).toEqual([]);
    expect(refusals("name", "")).toEqual(["must be 1 to 200 characters"]);
    expect(refusals("name", "x".repeat(201))).toEqual(["must be 1 to 200 characters"]);
    expect(refusals("name", 7)).toEqual(["must be a string"]);
  });

  it("description: a string of at most 1000 characters, empty included", () => {
    expect(refusals("description", "")).toEqual([]);
    expect(refusals("description", "x".repeat(1000))).toEqual([]);
    expect(refusals("description", "x".repeat(1001))).toEqual(["must be at most 1000 characters"]);
    expect(refusals("description", ["d"])).toEqual(["must be a string"]);
  });

  it("model and provider lists: non-empty lists of non-empty identifiers", () => {
    expect(refusals("allowedModels", "vendor-a/model-x")).toEqual(["must be a list of model identifiers"]);
    expect(refusals("ignoredModels", [])).toEqual(["must not be empty: omit the property instead of passing []"]);
    expect(refusals("allowedModels", [3])).toEqual(["0: each item must be a model identifier string"]);
    expect(refusals("ignoredModels", [""])).toEqual(["0: each item must be a non-empty model identifier"]);
    expect(refusals("allowedProviders", ["p", ""])).toEqual(["1: each item must be a non-empty provider id"]);
    expect(refusals("ignoredProviders", "p")).toEqual(["must be a list of provider ids"]);
  });

  it("data regions: only the contract's regions", () => {
    expect(refusals("allowedDataRegions", ["europe", "us"])).toEqual([]);
    expect(refusals("allowedDataRegions", ["mars"])).toEqual(["0: must be one of global, europe, us"]);
    expect(refusals("allowedDataRegions", [""])).toEqual(["0: each item must be a non-empty data region"]);
  });

  it("limitUsd: a number of dollars, 0 included, never below", () => {
    expect(refusals("limitUsd", 0)).toEqual([]);
    expect(refusals("limitUsd", -0.01)).toEqual(["must be >= 0"]);
    expect(refusals("limitUsd", "5")).toEqual(["must be a number of US dollars"]);
    // zod refuses these as not numbers; check words them "must be a finite number" (check-hostile.test.ts).
    expect(refusals("limitUsd", Number.POSITIVE_INFINITY)).toEqual(["must be a number of US dollars"]);
    expect(refusals("limitUsd", Number.NaN)).toEqual(["must be a number of US dollars"]);
  });

  it("resetInterval: daily, weekly or monthly", () => {
    expect(refusals("resetInterval", "hourly")).toEqual(["must be one of daily, weekly, monthly"]);
  });

  it("flags: true or false only", () => {
    expect(refusals("enforceZdrVendorB", "true")).toEqual(["must be true or false"]);
    expect(refusals("includeByokInBudgets", 1)).toEqual(["must be true or false"]);
  });
});

describe("how a list field is sent and compared", () => {
  it("a set is sent once per element in the program's order, and compares sorted", () => {
    expect(spec("allowedProviders").toWire(["p2", "p1", "p2"] as never)).toEqual(["p2", "p1"]);
    expect(spec("allowedProviders").compare(["p2", "p1", "p2"] as never)).toEqual(["p1", "p2"]);
  });

  it("a list compared as a set keeps the order the state has when only the order changed; custom filters do not", () => {
    const [e, s] = [
      { slug: "email", action: "block" },
      { slug: "ssn", action: "block" },
    ];
    const [p, q] = [
      { pattern: "p", action: "block" },
      { pattern: "q", action: "block" },
    ];
    const old = {
      allowedModels: ["m/a", "m/b"],
      ignoredModels: ["m/c", "m/d"],
      allowedProviders: ["p1", "p2"],
      ignoredProviders: ["p3", "p4"],
      allowedDataRegions: ["europe", "us"],
      contentFilterBuiltins: [e, s],
      contentFilters: [p, q],
    };
    const reversed = Object.fromEntries(Object.entries(old).map(([k, v]) => [k, [...v].reverse()]));
    expect(setsInOldOrder(old, reversed)).toEqual({ ...old, contentFilters: [q, p] });
  });

  it("a service message names a value's inner field as the program does", () => {
    expect(inUserNames("content_filter_builtins[0].scan_scope: unknown scope")).toBe(
      "contentFilterBuiltins[0].scanScope: unknown scope",
    );
  });

  it("only name is required; includeByokInBudgets omitted means false, the rest null", () => {
    expect(FIELD_NAMES.filter((k) => spec(k).required)).toEqual(["name"]);
    expect(FIELD_NAMES.filter((k) => spec(k).absent !== undefined).map((k) => [k, spec(k).absent])).toEqual([
      ["includeByokInBudgets", false],
    ]);
  });
});
