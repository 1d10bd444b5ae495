/** zod issues -> failures a person can act on: paths, quoted values, secrets, did-you-mean (issue 31). */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import {
  closest,
  formatPath,
  issuesToFailures,
  markSecret,
  namedInEveryLanguage,
  rootOf,
  secretArgsOf,
  SECRET_ARGS,
  shown,
  type PropertyFailure,
} from "../../src/core/args/messages";

/** The failures of `value` against `schema`, as `check` reports them (inputs reported). */
function failuresOf(
  schema: z.ZodType,
  value: unknown,
  known: readonly string[] = [],
  isSecret?: (root: string) => boolean,
): PropertyFailure[] {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) throw new Error("expected a failure");
  return issuesToFailures(parsed.error, known, isSecret);
}

describe("formatPath", () => {
  it("joins names with dots and puts indexes in brackets, the way a program writes them", () => {
    expect(formatPath([])).toBe("");
    expect(formatPath(["limitUsd"])).toBe("limitUsd");
    expect(formatPath(["contentFilterBuiltins", 1, "action"])).toBe("contentFilterBuiltins[1].action");
    expect(formatPath([0, "name"])).toBe("[0].name");
    expect(formatPath(["a", "b", 2, 3])).toBe("a.b[2][3]");
  });

  it("neutralises a key the program invented: no escape, bidi or line break reaches a terminal", () => {
    const path = formatPath(["contentFilters", 0, "x\u001b[31m\u202eRED\nline"]);
    expect(path).toBe("contentFilters[0].x\\u001b[31m\\u202eRED\\u000aline");
    expect(path).not.toMatch(/[\u001b\u202e\n]/);
    expect(formatPath(["k".repeat(500)])).toBe(`${"k".repeat(77)}...`);
  });
});

describe("shown: a value inside a message", () => {
  it("says nothing for a missing value, and the name of a non-finite number JSON would print as null", () => {
    expect(shown(undefined)).toBe("nothing");
    expect(shown(Number.NaN)).toBe("NaN");
    expect(shown(Number.POSITIVE_INFINITY)).toBe("Infinity");
    expect(shown(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
    expect(shown(-5)).toBe("-5");
  });

  it("marks a bigint with n, and falls back to its text for what JSON cannot hold", () => {
    expect(shown(10n)).toBe("10n");
    expect(shown(Symbol("x"))).toBe("Symbol(x)");
  });

  it("quotes strings and writes objects as JSON", () => {
    expect(shown("eng")).toBe('"eng"');
    expect(shown(null)).toBe("null");
    expect(shown({ a: [1, true] })).toBe('{"a":[1,true]}');
  });

  it("keeps 80 characters whole and cuts a longer text to 77 and an ellipsis", () => {
    const fits = "x".repeat(78); // 80 with its quotes
    expect(shown(fits)).toBe(`"${fits}"`);
    const long = shown("y".repeat(79));
    expect(long).toBe(`"${"y".repeat(76)}...`);
    expect(long).toHaveLength(80);
  });
});

describe("secret args", () => {
  it("without a record no arg is secret; a record names the secret ones", () => {
    expect(secretArgsOf({ limitUsd: 5 })("limitUsd")).toBe(false);
    const isSecret = secretArgsOf({ [SECRET_ARGS]: ["limitUsd"] });
    expect(isSecret("limitUsd")).toBe(true);
    expect(isSecret("name")).toBe(false);
  });

  it("a record that cannot be read (unknown in preview, or not a list of names) makes every arg secret", () => {
    expect(secretArgsOf({ [SECRET_ARGS]: "04da6b54-80e4-46f7-96ec-b56ff0331ba9" })("name")).toBe(true);
    expect(secretArgsOf({ [SECRET_ARGS]: ["limitUsd", 3] })("name")).toBe(true);
    expect(secretArgsOf({ [SECRET_ARGS]: null })("name")).toBe(true);
  });

  it("rootOf is the arg a path starts with", () => {
    expect(rootOf("contentFilterBuiltins[1].action")).toBe("contentFilterBuiltins");
    expect(rootOf("a.b")).toBe("a");
    expect(rootOf("limitUsd")).toBe("limitUsd");
  });

  it("markSecret marks failures under a secret root and keeps the others as they are", () => {
    const under = { property: "limitUsd", reason: "must be >= 0" };
    const other = { property: "name.x", reason: "bad" };
    const marked = { property: "tags[0]", reason: "bad", secret: true as const };
    const out = markSecret([under, other, marked], (root) => root === "limitUsd");
    expect(out).toEqual([{ ...under, secret: true }, other, marked]);
    expect(out[1]).toBe(other);
  });
});

describe("issuesToFailures", () => {
  const schema = z.strictObject({
    name: z.string(),
    limitUsd: z.number().min(0).optional(),
    tags: z.array(z.strictObject({ key: z.string() })).optional(),
  });
  const known = Object.keys(schema.shape);

  it("suggests the nearest known name for an unknown arg", () => {
    expect(failuresOf(schema, { name: "x", limitUSD: 1 }, known)).toEqual([
      { property: "limitUSD", reason: 'unknown property; did you mean "limitUsd"?' },
    ]);
  });

  it("suggests nothing when no known name is near, or for an unknown key below the root", () => {
    expect(failuresOf(schema, { name: "x", colour: 1 }, known)).toEqual([
      { property: "colour", reason: "unknown property" },
    ]);
    expect(failuresOf(schema, { name: "x", tags: [{ key: "a", nam: 1 }] }, known)).toEqual([
      { property: "tags[0].nam", reason: "unknown property" },
    ]);
  });

  it("never suggests the very name that was rejected", () => {
    const nested = z.strictObject({ name: z.string() });
    expect(failuresOf(nested, { name: "x", limitUsd: 1 }, ["limitUsd"])).toEqual([
      { property: "limitUsd", reason: "unknown property" },
    ]);
  });

  it("names an empty or blank key in quotes", () => {
    expect(failuresOf(schema, { name: "x", "": 1, "  ": 2 })).toEqual([
      { property: '""', reason: "unknown property" },
      { property: '"  "', reason: "unknown property" },
    ]);
  });

  it("says a missing arg is required, without quoting it", () => {
    expect(failuresOf(schema, {})).toEqual([{ property: "name", reason: "is required" }]);
  });

  it("quotes the value received beside zod's message", () => {
    expect(failuresOf(schema, { name: "x", limitUsd: -5 })).toEqual([
      { property: "limitUsd", reason: "Too small: expected number to be >=0 (got -5)" },
    ]);
    expect(failuresOf(schema, { name: 3 })).toEqual([
      { property: "name", reason: "Invalid input: expected string, received number (got 3)" },
    ]);
  });

  it("calls NaN and Infinity not finite, where zod says not a number", () => {
    expect(failuresOf(schema, { name: "x", limitUsd: Number.NaN })).toEqual([
      { property: "limitUsd", reason: "must be a finite number (got NaN)" },
    ]);
    expect(failuresOf(schema, { name: "x", limitUsd: Number.POSITIVE_INFINITY })).toEqual([
      { property: "limitUsd", reason: "must be a finite number (got Infinity)" },
    ]);
  });

  it("never quotes a value under a secret arg", () => {
    expect(failuresOf(schema, { name: "x", limitUsd: -5 }, known, (root) => root === "limitUsd")).toEqual([
      { property: "limitUsd", reason: "Too small: expected number to be >=0" },
    ]);
    expect(failuresOf(schema, { name: 3, limitUsd: -5 }, known, (root) => root === "limitUsd")).toEqual([
      { property: "name", reason: "Invalid input: expected string, received number (got 3)" },
      { property: "limitUsd", reason: "Too small: expected number to be >=0" },
    ]);
  });

  it("quotes nothing for an issue that carries no input, and asks the secret check about the root's name", () => {
    const asked: string[] = [];
    const isSecret = (root: string) => {
      asked.push(root);
      return false;
    };
    const noInput: z.core.$ZodIssue = { code: "custom", path: [], message: "must be an object" };
    expect(issuesToFailures({ issues: [noInput] }, [], isSecret)).toEqual([
      { property: "", reason: "must be an object" },
    ]);
    expect(asked).toEqual([]);
    expect(issuesToFailures({ issues: [{ ...noInput, message: "bad", input: 1 }] }, [], isSecret)).toEqual([
      { property: "", reason: "bad (got 1)" },
    ]);
    expect(asked).toEqual([""]);
  });

  it("'is required' and 'not finite' are said only of a wrong type: a rule's own message stays", () => {
    const given = z.strictObject({ a: z.any().refine((v) => v !== undefined, { error: "must be given" }) });
    expect(failuresOf(given, {})).toEqual([{ property: "a", reason: "must be given (got nothing)" }]);
    const small = z.any().refine(() => false, { error: "must be below 10" });
    expect(failuresOf(small, Number.POSITIVE_INFINITY)).toEqual([
      { property: "", reason: "must be below 10 (got Infinity)" },
    ]);
  });

  it("an invalid_type issue for a value that is present is not 'required'", () => {
    expect(failuresOf(z.number(), null)).toEqual([
      { property: "", reason: "Invalid input: expected number, received null (got null)" },
    ]);
  });
});

describe("closest: did you mean", () => {
  it("matches regardless of case and keeps the first of equally near names", () => {
    expect(closest("LIMITUSD", ["name", "limitUsd"])).toBe("limitUsd");
    expect(closest("abcd", ["abce", "abcf"])).toBe("abce");
    expect(closest("abcd", ["zzzz", "abxd", "abcd"])).toBe("abcd");
  });

  it("accepts two edits in a short name and a third of a long one, no more", () => {
    expect(closest("abcdef", ["abXdYf"])).toBe("abXdYf");
    expect(closest("abcdef", ["aXcYeZ"])).toBeUndefined();
    expect(closest("ab", ["XY"])).toBe("XY");
    expect(closest("ab", ["XYZ"])).toBeUndefined();
    expect(closest("abcdefghi", ["XbcXefXhi"])).toBe("XbcXefXhi");
    expect(closest("abcdefghi", ["XbcXefXhX"])).toBeUndefined();
    expect(closest("abcdefghijkl", ["XbcXefXhiXkl"])).toBe("XbcXefXhiXkl");
    expect(closest("abcdefghijkl", ["XbcXefXhiXkX"])).toBeUndefined();
  });

  it("counts insertions, deletions and substitutions as one edit each", () => {
    expect(closest("workspace", ["workspaceId"])).toBe("workspaceId");
    expect(closest("workspaceIdXY", ["workspaceId"])).toBe("workspaceId");
    expect(closest("descrption", ["description"])).toBe("description");
    expect(closest("namee", ["name", "nme"])).toBe("name");
    expect(closest("nme", ["xname", "name"])).toBe("name");
    expect(closest("", ["ab", "a"])).toBe("a");
    expect(closest("abc", [])).toBeUndefined();
  });
});

describe("namedInEveryLanguage (issue 42)", () => {
  it("names a path as the schema, Python and Go write it, each segment converted", () => {
    expect(namedInEveryLanguage("limitUsd")).toBe("limitUsd (limit_usd in Python, LimitUsd in Go)");
    expect(namedInEveryLanguage("contentFilterBuiltins[0].scanScope")).toBe(
      "contentFilterBuiltins[0].scanScope (content_filter_builtins[0].scan_scope in Python, ContentFilterBuiltins[0].ScanScope in Go)",
    );
    expect(namedInEveryLanguage("enforceZdrVendorA")).toMatch(
      /\(enforce_zdr_vendor_a in Python, EnforceZdrVendorA in Go\)$/,
    );
  });

  it("leaves a one-word path (the same in every language but for Go's capital) as it is", () => {
    expect(namedInEveryLanguage("name")).toBe("name");
    expect(namedInEveryLanguage("exclusive")).toBe("exclusive");
    expect(namedInEveryLanguage("")).toBe("");
  });
});
