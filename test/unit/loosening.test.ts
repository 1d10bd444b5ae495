/**
 * The loosening table (core/fields/loosening.ts), field by field: every field of the field
 * table has an entry there and cases here, and each case is judged through the summary's own
 * comparison (preview/judge.ts: the core's diff, then the table). A field added to fields.ts
 * without an entry fails to compile and fails here.
 */
import { describe, expect, it } from "vitest";
import { FIELD_NAMES, type FieldName } from "../../src/core/fields/fields";
import { judgeElement, judgeWhole, LOOSENING, type Direction } from "../../src/core/fields/loosening";
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

/** What each judgement says, as `what direction` (and the element, where there is one). */
const said = (js: ReturnType<typeof judgeWhole>) =>
  js.map((j) => `${j.element === undefined ? "" : `${j.element}: `}${j.what} ${j.direction}`);

describe("a setting changed as a whole: the words the summary shows and the verdict", () => {
  it("a neutral setting is changed, with its values before and after", () => {
    expect(judgeWhole("description", "a", "b")).toStrictEqual([
      { field: "description", what: "changed", before: "a", after: "b", direction: N },
    ]);
  });

  it("a limit removed loosens, set tightens, raised loosens, lowered tightens", () => {
    expect(said(judgeWhole("limitUsd", 100, null))).toEqual(["limit removed loosening"]);
    expect(said(judgeWhole("limitUsd", null, 100))).toEqual(["limit set tightening"]);
    expect(said(judgeWhole("limitUsd", 100, 250))).toEqual(["raised loosening"]);
    expect(said(judgeWhole("limitUsd", 250, 100))).toEqual(["lowered tightening"]);
    expect(judgeWhole("limitUsd", 250, 100)[0]).toMatchObject({ field: "limitUsd", before: 250, after: 100 });
  });

  it("a limit written as text ranks by its amount", () => {
    expect(said(judgeWhole("limitUsd", "100", 250))).toEqual(["raised loosening"]);
    expect(said(judgeWhole("limitUsd", 250, "100"))).toEqual(["lowered tightening"]);
  });

  it("a limit that is no amount is unknown and not called lowered, on either side", () => {
    expect(said(judgeWhole("limitUsd", 100, "lots"))).toEqual(["changed unknown"]);
    expect(said(judgeWhole("limitUsd", 100, true))).toEqual(["changed unknown"]);
    expect(said(judgeWhole("limitUsd", { v: 1 }, 100))).toEqual(["changed unknown"]);
  });

  it("a reset interval made longer loosens, shorter tightens, dropped is the loosest", () => {
    expect(said(judgeWhole("resetInterval", "daily", "weekly"))).toEqual(["longer loosening"]);
    expect(said(judgeWhole("resetInterval", "monthly", "daily"))).toEqual(["shorter tightening"]);
    expect(said(judgeWhole("resetInterval", "daily", null))).toEqual(["no longer set loosening"]);
    expect(said(judgeWhole("resetInterval", null, "monthly"))).toEqual(["shorter tightening"]);
  });

  it("a reset interval this version does not know is unknown, before or after", () => {
    expect(said(judgeWhole("resetInterval", "daily", "hourly"))).toEqual(["changed unknown"]);
    expect(said(judgeWhole("resetInterval", "hourly", "daily"))).toEqual(["changed unknown"]);
    expect(said(judgeWhole("resetInterval", 1, "daily"))).toEqual(["changed unknown"]);
  });

  it("a protection turned off or unset loosens, turned on tightens; unset to off is neutral", () => {
    expect(said(judgeWhole("enforceZdrOther", true, false))).toEqual(["turned off loosening"]);
    expect(said(judgeWhole("enforceZdrOther", true, null))).toEqual(["no longer set loosening"]);
    expect(said(judgeWhole("enforceZdrOther", false, true))).toEqual(["turned on tightening"]);
    expect(said(judgeWhole("enforceZdrOther", null, true))).toEqual(["turned on tightening"]);
    expect(said(judgeWhole("includeByokInBudgets", null, false))).toEqual(["turned off neutral"]);
    expect(said(judgeWhole("includeByokInBudgets", false, null))).toEqual(["no longer set neutral"]);
  });

  it("a permission turned on loosens, off tightens; unset is the service's setting, between the two", () => {
    expect(said(judgeWhole("enableFreeModelTraining", false, true))).toEqual(["turned on loosening"]);
    expect(said(judgeWhole("enableFreeModelTraining", null, true))).toEqual(["turned on loosening"]);
    expect(said(judgeWhole("enableFreeModelTraining", false, null))).toEqual(["no longer set loosening"]);
    expect(said(judgeWhole("enableFreeModelTraining", true, false))).toEqual(["turned off tightening"]);
    expect(said(judgeWhole("enableFreeModelTraining", true, null))).toEqual(["no longer set tightening"]);
    expect(said(judgeWhole("enableFreeModelTraining", null, false))).toEqual(["turned off tightening"]);
  });

  it("a flag that is neither true, false nor unset is unknown, never a guess, and not worded as one", () => {
    expect(said(judgeWhole("enforceZdrVendorA", false, "yes"))).toEqual(["changed unknown"]);
    expect(said(judgeWhole("enforceZdrVendorA", "yes", false))).toEqual(["turned off unknown"]);
    expect(said(judgeWhole("enablePaidModelTraining", 1, true))).toEqual(["turned on unknown"]);
  });

  it("an allow list set restricts, dropped removes the restriction, replaced whole is unknown", () => {
    expect(said(judgeWhole("allowedProviders", null, ["p"]))).toEqual(["restricted to tightening"]);
    expect(said(judgeWhole("allowedProviders", ["p"], null))).toEqual(["restriction removed loosening"]);
    expect(said(judgeWhole("allowedProviders", ["p"], ["q"]))).toEqual(["changed unknown"]);
  });

  it("a deny list set or dropped is judged element by element; replaced whole is unknown", () => {
    expect(judgeWhole("ignoredProviders", null, ["p", "q"])).toEqual([
      { field: "ignoredProviders", element: "p", what: "added", direction: T },
      { field: "ignoredProviders", element: "q", what: "added", direction: T },
    ]);
    expect(said(judgeWhole("ignoredModels", ["m"], null))).toEqual(["m: removed loosening"]);
    expect(said(judgeWhole("ignoredModels", ["m"], ["n"]))).toEqual(["changed unknown"]);
  });

  it("filters set or dropped are judged filter by filter, by slug or pattern, with their actions", () => {
    expect(judgeWhole("contentFilterBuiltins", null, [{ slug: "email", action: "block" }])).toEqual([
      { field: "contentFilterBuiltins", element: "email", what: "added", direction: T, after: "block" },
    ]);
    expect(judgeWhole("contentFilters", [{ pattern: "a+", action: "flag" }], null)).toEqual([
      { field: "contentFilters", element: "a+", what: "removed", direction: L, before: "flag" },
    ]);
    expect(said(judgeWhole("contentFilters", [{ pattern: "a" }], [{ pattern: "b" }]))).toEqual(["changed unknown"]);
  });

  it("a list set or dropped that is not a list is unknown, not passed over", () => {
    expect(said(judgeWhole("ignoredProviders", null, "p"))).toEqual(["changed unknown"]);
    expect(said(judgeWhole("contentFilterBuiltins", { slug: "email" }, null))).toEqual(["changed unknown"]);
  });
});

describe("one element of a list: the words the summary shows and the verdict", () => {
  it("an allowed element added loosens and removed tightens; a denied one the other way round", () => {
    expect(judgeElement("allowedModels", "m/a", "add")).toStrictEqual([
      { field: "allowedModels", element: "m/a", what: "added", before: undefined, after: undefined, direction: L },
    ]);
    expect(said(judgeElement("allowedModels", "m/a", "delete"))).toEqual(["m/a: removed tightening"]);
    expect(said(judgeElement("ignoredModels", "m/a", "add"))).toEqual(["m/a: added tightening"]);
    expect(said(judgeElement("ignoredModels", "m/a", "delete"))).toEqual(["m/a: removed loosening"]);
  });

  it("an element of an allow or deny list updated in place is unknown", () => {
    expect(judgeElement("allowedDataRegions", "us", "update").map((j) => j.direction)).toEqual([U]);
    expect(judgeElement("ignoredProviders", "p", "update").map((j) => j.direction)).toEqual([U]);
  });

  it("an element of a setting that has none is unknown", () => {
    expect(said(judgeElement("limitUsd", "x", "add"))).toEqual(["x: changed unknown"]);
  });

  it("a filter added tightens and removed loosens, with its action", () => {
    expect(judgeElement("contentFilterBuiltins", "ssn", "add", undefined, { action: "redact" })).toStrictEqual([
      {
        field: "contentFilterBuiltins",
        element: "ssn",
        what: "added",
        before: undefined,
        after: "redact",
        direction: T,
      },
    ]);
    expect(judgeElement("contentFilters", "a+", "delete", { action: "block" })).toStrictEqual([
      { field: "contentFilters", element: "a+", what: "removed", before: "block", after: undefined, direction: L },
    ]);
  });

  it("a filter's action made weaker loosens, stronger tightens, unknown is unknown", () => {
    const update = (was: object, now: object) => judgeElement("contentFilterBuiltins", "email", "update", was, now);
    expect(update({ action: "block" }, { action: "flag" })).toStrictEqual([
      {
        field: "contentFilterBuiltins",
        element: "email",
        what: "weaker",
        before: "block",
        after: "flag",
        direction: L,
      },
    ]);
    expect(said(update({ action: "redact" }, { action: "flag" }))).toEqual(["email: weaker loosening"]);
    expect(said(update({ action: "flag" }, { action: "redact" }))).toEqual(["email: stronger tightening"]);
    expect(said(update({ action: "block" }, { action: "quarantine" }))).toEqual(["email: action unknown"]);
    expect(said(update({ action: "block" }, { action: Object.create(null) }))).toEqual(["email: action unknown"]);
  });

  it("the prompt-injection scan narrowed loosens, widened tightens, an unknown scope is unknown", () => {
    const update = (was: unknown, now: unknown) =>
      judgeElement("contentFilterBuiltins", "regex-prompt-injection", "update", was, now);
    const scope = (s: unknown) => ({ action: "flag", scanScope: s });
    expect(update(scope("all_messages"), scope("user_only"))).toEqual([
      {
        field: "contentFilterBuiltins",
        element: "regex-prompt-injection",
        what: "narrower scan",
        before: "all_messages",
        after: "user_only",
        direction: L,
      },
    ]);
    expect(said(update(scope("user_only"), scope("all_messages")))).toEqual([
      "regex-prompt-injection: scan scope tightening",
    ]);
    expect(said(update(scope("all_messages"), scope("tools")))).toEqual(["regex-prompt-injection: scan scope unknown"]);
    expect(said(update(scope("user_only"), scope(null)))).toEqual(["regex-prompt-injection: scan scope unknown"]);
  });

  it("a label changed is neutral; action, scope and label changed at once are each judged", () => {
    expect(
      said(judgeElement("contentFilters", "a", "update", { action: "block", label: "x" }, { action: "block" })),
    ).toEqual(["a: label neutral"]);
    expect(
      said(
        judgeElement(
          "contentFilterBuiltins",
          "regex-prompt-injection",
          "update",
          { action: "block", scanScope: "all_messages", label: "x" },
          { action: "flag", scanScope: "user_only", label: "y" },
        ),
      ),
    ).toEqual([
      "regex-prompt-injection: weaker loosening",
      "regex-prompt-injection: narrower scan loosening",
      "regex-prompt-injection: label neutral",
    ]);
  });

  it("a filter updated with nothing of its own changed has moved, which is unknown", () => {
    expect(
      said(judgeElement("contentFilters", "a", "update", { action: "block", label: null }, { action: "block" })),
    ).toEqual(["a: moved (the order decides which filter acts first) unknown"]);
    expect(said(judgeElement("contentFilters", "a", "update"))).toEqual([
      "a: moved (the order decides which filter acts first) unknown",
    ]);
  });
});
