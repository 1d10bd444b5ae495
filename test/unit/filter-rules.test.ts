/**
 * The builtin content filter rules (core/fields/filter-rules.ts) the program's args and the
 * declarative files are held to: `flag` and a scan scope only on the prompt-injection builtin,
 * each slug once. Each violation names the item's index and the arg's property.
 */
import { describe, expect, it } from "vitest";
import { builtinViolations } from "../../src/core/fields/filter-rules";

describe("builtinViolations", () => {
  it("accepts every personal-data builtin with block or redact, and prompt injection with flag and a scope", () => {
    expect(
      builtinViolations([
        { slug: "email", action: "block" },
        { slug: "phone", action: "redact" },
        { slug: "address", action: "block", scanScope: undefined },
        { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" },
      ]),
    ).toEqual([]);
  });

  it("refuses flag on a personal-data builtin, naming the slug and what it takes", () => {
    expect(builtinViolations([{ slug: "ssn", action: "flag" }])).toEqual([
      {
        index: 0,
        field: "action",
        message: '"flag" is supported only for regex-prompt-injection; ssn takes block or redact',
      },
    ]);
  });

  it("refuses a scan scope on a personal-data builtin", () => {
    expect(builtinViolations([{ slug: "email", action: "block", scanScope: "user_only" }])).toEqual([
      { index: 0, field: "scanScope", message: "only regex-prompt-injection takes a scan scope" },
    ]);
  });

  it("refuses a slug listed twice at its second place only", () => {
    expect(
      builtinViolations([
        { slug: "email", action: "block" },
        { slug: "phone", action: "block" },
        { slug: "email", action: "redact" },
      ]),
    ).toEqual([{ index: 2, field: "slug", message: 'duplicate slug "email"; list each builtin once' }]);
  });

  it("reports every violation of one list at once, each at its own index", () => {
    expect(
      builtinViolations([
        { slug: "phone", action: "flag", scanScope: "all_messages" },
        { slug: "regex-prompt-injection", action: "block" },
        { slug: "regex-prompt-injection", action: "flag" },
      ]).map(({ index, field }) => [index, field]),
    ).toEqual([
      [0, "action"],
      [0, "scanScope"],
      [2, "slug"],
    ]);
  });
});
