import { describe, expect, it } from "vitest";
import { checkGuardrailArgs } from "../../src/core/guardrail/check";
import { UNKNOWN } from "../../src/core/markers";

describe("Guardrail check", () => {
  it("reports every failure of one bad args object at once, each with its camelCase path", () => {
    const { failures } = checkGuardrailArgs({
      __provider: "serialized provider text",
      name: "",
      description: "d".repeat(1001),
      workspaceId: "not-a-uuid",
      allowedModels: [],
      ignoredProviders: ["ok", ""],
      limitUsd: -5,
      resetInterval: "hourly",
      enforceZdrVendorA: "yes",
      contentFilterBuiltins: [
        { slug: "email", action: "flag" },
        { slug: "phone", action: "block", scanScope: "user_only" },
        { slug: "email", action: "block" },
        { slug: "passport", action: "block" },
      ],
      contentFilters: [{ pattern: "(unclosed", action: "block", label: "l".repeat(101) }],
      colour: "blue",
      limitUSD: 5,
    });
    expect(failures.length).toBeGreaterThanOrEqual(8);
    expect(failures.map((f) => `${f.property}: ${f.reason}`)).toMatchInlineSnapshot(`
      [
        "name: must be 1 to 200 characters (got "")",
        "description: must be at most 1000 characters (got "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd...)",
        "workspaceId: must be a UUID such as 3f2b8c1e-0000-4000-8000-000000000000 (got "not-a-uuid")",
        "allowedModels: must not be empty: omit the property instead of passing [] (got [])",
        "ignoredProviders[1]: each item must be a non-empty provider id (got "")",
        "limitUsd: must be >= 0 (got -5)",
        "resetInterval: must be one of daily, weekly, monthly (got "hourly")",
        "enforceZdrVendorA: must be true or false (got "yes")",
        "contentFilterBuiltins[3].slug: must be one of email, phone, ssn, credit-card, ip-address, person-name, address, regex-prompt-injection (got "passport")",
        "contentFilters[0].pattern: must be a regular expression that compiles (got "(unclosed")",
        "contentFilters[0].label: must be at most 100 characters (got "llllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllllll...)",
        "colour: unknown property",
        "limitUSD: unknown property; did you mean "limitUsd"?",
      ]
    `);
  });

  it("checks the builtin rules once the list is well-formed", () => {
    const { failures } = checkGuardrailArgs({
      name: "cf",
      contentFilterBuiltins: [
        { slug: "email", action: "flag" },
        { slug: "phone", action: "block", scanScope: "user_only" },
        { slug: "email", action: "block" },
        { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" },
      ],
    });
    expect(failures.map((f) => `${f.property}: ${f.reason}`)).toMatchInlineSnapshot(`
      [
        "contentFilterBuiltins[0].action: "flag" is supported only for regex-prompt-injection; email takes block or redact (got "flag")",
        "contentFilterBuiltins[1].scanScope: only regex-prompt-injection takes a scan scope (got "user_only")",
        "contentFilterBuiltins[2].slug: duplicate slug "email"; list each builtin once (got "email")",
      ]
    `);
  });

  it("accepts a valid object, null as omitted, and every kind of setting", () => {
    expect(
      checkGuardrailArgs({
        name: "ok",
        description: null,
        limitUsd: 0,
        resetInterval: "weekly",
        enforceZdr: true,
        allowedModels: ["vendor-a/model-x"],
        contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag", scanScope: "all_messages" }],
        contentFilters: [{ pattern: "^a+$", action: "redact" }],
      }).failures,
    ).toEqual([]);
  });

  it("passes values unknown during preview without a false failure", () => {
    expect(
      checkGuardrailArgs({
        name: UNKNOWN,
        workspaceId: UNKNOWN,
        allowedModels: [UNKNOWN, "vendor-a/model-x"],
        limitUsd: UNKNOWN,
      }).failures,
    ).toEqual([]);
    expect(
      checkGuardrailArgs({ name: UNKNOWN, limitUsd: -1, resetInterval: "daily" }).failures.map((f) => f.property),
    ).toEqual(["limitUsd"]);
  });
});

describe("a spending limit and its reset interval go together (docs/api-contract.md rule 14)", () => {
  const lines = (args: Record<string, unknown>) =>
    checkGuardrailArgs(args).failures.map((f) => `${f.property}: ${f.reason}`);
  it.each([
    ["a limit without an interval", { name: "n", limitUsd: 10 }],
    ["an interval without a limit", { name: "n", resetInterval: "daily" }],
    ["a limit with a null interval", { name: "n", limitUsd: 0, resetInterval: null }],
  ])("%s fails, naming both", (_name, args) => {
    const found = lines(args);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/limitUsd/);
    expect(found[0]).toMatch(/resetInterval/);
  });
  it("both, or neither, pass; the message is reported beside every other failure", () => {
    expect(lines({ name: "n", limitUsd: 10, resetInterval: "monthly" })).toEqual([]);
    expect(lines({ name: "n" })).toEqual([]);
    expect(lines({ name: "", limitUsd: 10 })).toMatchInlineSnapshot(`
      [
        "name: must be 1 to 200 characters (got "")",
        "limitUsd: limitUsd and resetInterval go together: set resetInterval too (daily, weekly or monthly), or drop limitUsd (got 10)",
      ]
    `);
    expect(lines({ name: "n", resetInterval: "weekly" })).toMatchInlineSnapshot(`
      [
        "resetInterval: resetInterval and limitUsd go together: set limitUsd too, or drop resetInterval (got "weekly")",
      ]
    `);
  });
  it("an unknown value during preview is not judged", () => {
    expect(lines({ name: "n", limitUsd: UNKNOWN })).toEqual([]);
    expect(lines({ name: "n", limitUsd: 5, resetInterval: UNKNOWN })).toEqual([]);
  });
});

describe("the fields of the real service (docs/api-contract.md rule 13)", () => {
  it("are checked like the others: closed values, no empty list, booleans", () => {
    const lines = checkGuardrailArgs({
      name: "n",
      allowedDataRegions: ["europe", "mars"],
      includeByokInBudgets: "yes",
      enableFreeModelTraining: 1,
      enablePaidModelTraining: null,
      enableFreeModelPublication: false,
    }).failures.map((f) => `${f.property}: ${f.reason}`);
    expect(lines).toMatchInlineSnapshot(`
      [
        "enableFreeModelTraining: must be true or false (got 1)",
        "allowedDataRegions[1]: must be one of global, europe, us (got "mars")",
        "includeByokInBudgets: must be true or false (got "yes")",
      ]
    `);
    expect(checkGuardrailArgs({ name: "n", allowedDataRegions: [] }).failures.map((f) => f.reason)).toEqual([
      "must not be empty: omit the property instead of passing [] (got [])",
    ]);
  });
});
