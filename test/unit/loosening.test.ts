/**
 * The loosening table (core/fields/loosening.ts), field by field: every field of the field
 * table has an entry there and cases here, and each case is judged through the summary's own
 * comparison (preview/judge.ts: the core's diff, then the table). A field added to fields.ts
 * without an entry fails to compile and fails here.
 */
import { describe, expect, it } from "vitest";
import { FIELD_NAMES, type FieldName } from "../../src/core/fields/fields";
import { LOOSENING, type Direction } from "../../src/core/fields/loosening";
import { compareSides } from "../../src/preview/judge";

type Case = [before: unknown, after: unknown, directions: Direction[]];
const [L, T, N, U] = ["loosening", "tightening", "neutral", "unknown"] as const;
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const allowList = (a: string, b: string): Case[] => [
  [[a], [a, b], [L]],
  [[a, b], [a], [T]],
  [[a], undefined, [L]],
  [undefined, [a], [T]],
  [[a], [b], [L, T]],
];
const denyList = (a: string, b: string): Case[] => [
  [[a], [a, b], [T]],
  [[a, b], [a], [L]],
  [[a], undefined, [L]],
  [undefined, [a, b], [T, T]],
];
const zdr: Case[] = [
  [true, false, [L]],
  [true, undefined, [L]],
  [false, true, [T]],
  [undefined, true, [T]],
  [undefined, false, [N]],
];
const permission: Case[] = [
  [false, true, [L]],
  [undefined, true, [L]],
  [false, undefined, [L]],
  [true, false, [T]],
  [true, undefined, [T]],
];

/** Every field, with what each change does. */
const CASES: Record<FieldName, Case[]> = {
  name: [["a", "b", [N]]],
  description: [
    ["a", "b", [N]],
    [undefined, "b", [N]],
    ["[secret]", { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" }, [N]],
  ],
  allowedModels: [...allowList("vendor-a/model-x", "vendor-b/model-m"), [["vendor-a/model-x"], [UNKNOWN], [U]]],
  allowedProviders: allowList("provider-a", "provider-b"),
  ignoredModels: denyList("vendor-a/model-x", "vendor-b/model-m"),
  ignoredProviders: denyList("provider-a", "provider-b"),
  limitUsd: [
    [100, 250, [L]],
    [250, 100, [T]],
    [100, undefined, [L]],
    [undefined, 100, [T]],
    [100, "[secret]", [U]],
    [100, UNKNOWN, [U]],
  ],
  resetInterval: [
    ["daily", "weekly", [L]],
    ["weekly", "monthly", [L]],
    ["monthly", "daily", [T]],
    ["monthly", undefined, [L]],
    [undefined, "monthly", [T]],
  ],
  enforceZdrVendorA: zdr,
  enforceZdrVendorB: zdr,
  enforceZdrVendorC: zdr,
  enforceZdrOther: zdr,
  // The deprecated flag fills each per-vendor flag not given: its change is theirs too.
  enforceZdr: zdr.map(([b, a, d]) => [b, a, Array(5).fill(d[0])] as Case),
  contentFilterBuiltins: [
    [[{ slug: "email", action: "block" }], [{ slug: "email", action: "redact" }], [L]],
    [[{ slug: "email", action: "redact" }], [{ slug: "email", action: "block" }], [T]],
    [
      [
        { slug: "email", action: "redact" },
        { slug: "ssn", action: "block" },
      ],
      [{ slug: "email", action: "redact" }],
      [L],
    ],
    [
      [{ slug: "email", action: "redact" }],
      [
        { slug: "email", action: "redact" },
        { slug: "ssn", action: "redact" },
      ],
      [T],
    ],
    [[{ slug: "regex-prompt-injection", action: "block" }], [{ slug: "regex-prompt-injection", action: "flag" }], [L]],
    [
      [{ slug: "regex-prompt-injection", action: "flag" }],
      [{ slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" }],
      [L],
    ],
    [[{ slug: "email", action: "block" }], undefined, [L]],
    [
      undefined,
      [
        { slug: "email", action: "block" },
        { slug: "ssn", action: "block" },
      ],
      [T, T],
    ],
    [[{ slug: "email", action: "block" }], [{ slug: "email", action: "quarantine" }], [U]],
  ],
  contentFilters: [
    [[{ pattern: "a", action: "block" }], [{ pattern: "a", action: "flag" }], [L]],
    [[{ pattern: "a", action: "flag" }], [{ pattern: "a", action: "redact" }], [T]],
    [[{ pattern: "a", action: "block" }], undefined, [L]],
    [
      [{ pattern: "a", action: "block" }],
      [
        { pattern: "a", action: "block" },
        { pattern: "b", action: "flag" },
      ],
      [T],
    ],
    [[{ pattern: "a", action: "block", label: "x" }], [{ pattern: "a", action: "block", label: "y" }], [N]],
    [
      [
        { pattern: "a", action: "block" },
        { pattern: "b", action: "redact" },
      ],
      [
        { pattern: "b", action: "redact" },
        { pattern: "a", action: "block" },
      ],
      [U],
    ],
  ],
  enableFreeModelTraining: permission,
  enablePaidModelTraining: permission,
  enableFreeModelPublication: permission,
  allowedDataRegions: [
    [["europe"], ["europe", "us"], [L]],
    [["europe", "us"], ["europe"], [T]],
    [["europe"], undefined, [L]],
    [undefined, ["europe"], [T]],
  ],
  includeByokInBudgets: [
    [true, false, [L]],
    [true, undefined, [L]],
    [undefined, true, [T]],
    [false, undefined, []],
  ],
};

const bag = (f: FieldName, v: unknown) => ({ name: "g", ...(v === undefined ? {} : { [f]: v }) });

describe("the loosening table", () => {
  it("has an entry for every field of the field table, and this test has cases for each", () => {
    const missing = FIELD_NAMES.filter((f) => !(f in LOOSENING) || !(f in CASES));
    expect(missing).toEqual([]);
    expect(Object.keys(LOOSENING).sort()).toEqual([...FIELD_NAMES].sort());
  });

  const rows = FIELD_NAMES.flatMap((f) => (CASES[f] ?? []).map(([b, a, d]) => [f, b, a, d] as const));
  it.each(rows)("%s: %j → %j is %j", (f, before, after, directions) => {
    const judged = compareSides(
      { inputs: f === "name" ? { name: before } : bag(f, before) },
      {
        inputs: f === "name" ? { name: after } : bag(f, after),
      },
    );
    expect(judged.map((j) => j.direction).sort()).toEqual([...directions].sort());
  });
});

describe("hostile preview JSON never throws in the judgement", () => {
  // The fuzz test found `limitUsd: {__proto__: null}` (no toString) crashing the summary.
  it("a value with no prototype, or an action named like an Object method, is judged unknown", async () => {
    const { judgeWhole, judgeElement } = await import("../../src/core/fields/loosening");
    const bare = Object.create(null) as object;
    expect(judgeWhole("limitUsd", bare, 5).map((j) => j.direction)).toEqual([U]);
    expect(judgeWhole("resetInterval", bare, "daily").map((j) => j.direction)).toEqual([U]);
    const [action] = judgeElement(
      "contentFilterBuiltins",
      "email",
      "update",
      { action: "block" },
      {
        action: "constructor",
      },
    );
    expect(action?.direction).toBe(U);
  });
});
