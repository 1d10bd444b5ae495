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
import { inUserNames } from "../../src/core/guardrail/lifecycle";
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
