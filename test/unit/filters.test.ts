/**
 * Content filters both ways (core/fields/filters.ts): the args a program writes (closed enums,
 * the spec's rules, messages a person can act on), the records the service answers (open), and
 * the conversions between them and the comparison keys diff uses.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  builtinFromWire,
  builtinListArgs,
  builtinsKey,
  builtinToArg,
  builtinToWire,
  customFromWire,
  customListArgs,
  customToWire,
  filtersKey,
  wireBuiltinFilter,
  wireCustomFilter,
} from "../../src/core/fields/filters";

/** Each issue of a failed parse as `path: message` (with the refused input where zod keeps it). */
function issues(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  if (r.success) return [];
  return r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("contentFilterBuiltins as a program writes it", () => {
  it("accepts each builtin once, with its action and, for prompt injection, a scan scope", () => {
    const value = [
      { slug: "email", action: "redact" },
      { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" },
    ];
    expect(builtinListArgs.parse(value)).toEqual(value);
  });

  it("names the allowed values when a slug, action or scan scope is unknown", () => {
    expect(issues(builtinListArgs, [{ slug: "secret", action: "quarantine", scanScope: "everything" }])).toEqual([
      "0.slug: must be one of email, phone, ssn, credit-card, ip-address, person-name, address, regex-prompt-injection",
      "0.action: must be one of block, redact, flag",
      "0.scanScope: must be one of user_only, all_messages",
    ]);
  });

  it("refuses a label or any other key the service sets itself", () => {
    expect(issues(builtinListArgs, [{ slug: "email", action: "block", label: "[MAIL]" }])).toHaveLength(1);
  });

  it("refuses [] (omit the property instead) and a value that is not a list", () => {
    expect(issues(builtinListArgs, [])).toEqual([": must not be empty: omit the property instead of passing []"]);
    expect(issues(builtinListArgs, { slug: "email" })).toEqual([": must be a list of {slug, action, scanScope?}"]);
  });

  it("reports a rule broken by one item at that item's property, with the refused value for check's message", () => {
    const items = [
      { slug: "email", action: "block" },
      { slug: "phone", action: "flag" },
    ];
    const r = builtinListArgs.safeParse(items, { reportInput: true });
    expect(r.success).toBe(false);
    expect(r.error?.issues).toMatchObject([
      {
        code: "custom",
        path: [1, "action"],
        message: '"flag" is supported only for regex-prompt-injection; phone takes block or redact',
      },
    ]);
    expect(r.error?.issues[0]).toHaveProperty("input", "flag");
  });
});

describe("contentFilters as a program writes it", () => {
  it("accepts a compiling pattern, an action and a label of up to 100 characters", () => {
    const value = [
      { pattern: "a+", action: "block", label: "x".repeat(100) },
      { pattern: "b", action: "flag" },
    ];
    expect(customListArgs.parse(value)).toEqual(value);
  });

  it("says what is wrong with a pattern: not a string, empty, or not compiling", () => {
    expect(issues(customListArgs, [{ pattern: 7, action: "block" }])).toEqual([
      "0.pattern: must be a regular expression string",
    ]);
    expect(issues(customListArgs, [{ pattern: "", action: "block" }])).toEqual([
      "0.pattern: must be a non-empty regular expression",
    ]);
    expect(issues(customListArgs, [{ pattern: "(a", action: "block" }])).toEqual([
      "0.pattern: must be a regular expression that compiles",
    ]);
  });

  it("says what is wrong with an action or a label", () => {
    expect(issues(customListArgs, [{ pattern: "a", action: "drop", label: 1 }])).toEqual([
      "0.action: must be one of block, redact, flag",
      "0.label: must be a string",
    ]);
    expect(issues(customListArgs, [{ pattern: "a", action: "block", label: "x".repeat(101) }])).toEqual([
      "0.label: must be at most 100 characters",
    ]);
  });

  it("refuses [] (omit the property instead) and a value that is not a list", () => {
    expect(issues(customListArgs, [])).toEqual([": must not be empty: omit the property instead of passing []"]);
    expect(issues(customListArgs, "a+")).toEqual([": must be a list of {pattern, action, label?}"]);
  });
});

describe("filters as the service answers them", () => {
  it("keeps a slug, action or scope this version does not know, and reads a null scope or label", () => {
    const b = { slug: "secrets", action: "quarantine", scan_scope: "tools", label: null };
    expect(wireBuiltinFilter.parse(b)).toEqual(b);
    expect(wireBuiltinFilter.parse({ slug: "email", action: "block", scan_scope: null })).toEqual({
      slug: "email",
      action: "block",
      scan_scope: null,
    });
    expect(wireCustomFilter.parse({ pattern: "a", action: "shadow", label: null })).toEqual({
      pattern: "a",
      action: "shadow",
      label: null,
    });
  });
});

describe("comparison keys", () => {
  it("builtins compare as a set by slug: the program's order does not matter", () => {
    const a = [
      { slug: "ssn", action: "block" },
      { slug: "email", action: "redact" },
    ];
    expect(builtinsKey(a)).toStrictEqual([
      { slug: "email", action: "redact", scanScope: null },
      { slug: "ssn", action: "block", scanScope: null },
    ]);
    expect(builtinsKey(a)).toStrictEqual(builtinsKey([...a].reverse()));
    expect(a[0]?.slug).toBe("ssn");
  });

  it("prompt injection without a scope compares as the service's default, all_messages", () => {
    expect(builtinsKey([{ slug: "regex-prompt-injection", action: "flag" }])).toStrictEqual([
      { slug: "regex-prompt-injection", action: "flag", scanScope: "all_messages" },
    ]);
    expect(builtinsKey([{ slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" }])).toStrictEqual([
      { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" },
    ]);
  });

  it("a scope the service answers on another builtin is kept, so it is not hidden from diff", () => {
    expect(builtinsKey([{ slug: "email", action: "block", scanScope: "user_only" }])).toStrictEqual([
      { slug: "email", action: "block", scanScope: "user_only" },
    ]);
  });

  it("custom filters compare in order, a missing or null label as no label", () => {
    expect(
      filtersKey([
        { pattern: "b", action: "flag" },
        { pattern: "a", action: "block", label: null },
        { pattern: "c", action: "redact", label: "C" },
      ]),
    ).toStrictEqual([
      { pattern: "b", action: "flag", label: null },
      { pattern: "a", action: "block", label: null },
      { pattern: "c", action: "redact", label: "C" },
    ]);
  });
});

describe("conversions", () => {
  it("a request carries a builtin's scan scope only when the program gives one, and never a label", () => {
    expect(
      builtinToWire([
        { slug: "email", action: "block" },
        { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" },
      ]),
    ).toStrictEqual([
      { slug: "email", action: "block" },
      { slug: "regex-prompt-injection", action: "flag", scan_scope: "user_only" },
    ]);
  });

  it("outputs record a builtin's scope and label only where the service answers one", () => {
    expect(
      builtinFromWire([
        { slug: "email", action: "block", scan_scope: null, label: null },
        { slug: "regex-prompt-injection", action: "flag", scan_scope: "user_only", label: "[PROMPT_INJECTION]" },
      ]),
    ).toStrictEqual([
      { slug: "email", action: "block" },
      { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only", label: "[PROMPT_INJECTION]" },
    ]);
  });

  it("a recorded builtin in the program's form drops the service's label", () => {
    expect(
      builtinToArg([{ slug: "regex-prompt-injection", action: "flag", scanScope: "user_only", label: "[P]" }]),
    ).toStrictEqual([{ slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" }]);
  });

  it("a request carries a custom filter's label when given, even empty, and no label key otherwise", () => {
    expect(
      customToWire([
        { pattern: "a", action: "block", label: "A" },
        { pattern: "b", action: "flag", label: "" },
        { pattern: "c", action: "redact", label: null },
        { pattern: "d", action: "block" },
      ]),
    ).toStrictEqual([
      { pattern: "a", action: "block", label: "A" },
      { pattern: "b", action: "flag", label: "" },
      { pattern: "c", action: "redact" },
      { pattern: "d", action: "block" },
    ]);
  });

  it("outputs record a custom filter's label when the service answers one, even empty", () => {
    expect(
      customFromWire([
        { pattern: "a", action: "block", label: "A" },
        { pattern: "b", action: "flag", label: "" },
        { pattern: "c", action: "redact", label: null },
        { pattern: "d", action: "block" },
      ]),
    ).toStrictEqual([
      { pattern: "a", action: "block", label: "A" },
      { pattern: "b", action: "flag", label: "" },
      { pattern: "c", action: "redact" },
      { pattern: "d", action: "block" },
    ]);
  });
});
