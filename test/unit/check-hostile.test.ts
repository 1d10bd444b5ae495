/**
 * `check` failures that were masked, dropped or badly worded (issue 13): each a case. Unknown
 * values (outputs not known during preview) hide nothing but themselves.
 */
import { describe, expect, it } from "vitest";
import { checkGuardrailArgs } from "../../src/core/guardrail/check";
import { memberAssignment } from "../../src/dynamic/internal";
import { MAX_REQUEST_BODY_BYTES } from "../../src/core/fields/constants";
import { UNKNOWN } from "../../src/core/markers";

const lines = (news: Record<string, unknown>) =>
  checkGuardrailArgs({ __provider: "serialized", ...news }).failures.map((f) => `${f.property}: ${f.reason}`);

describe("check: nothing masked by unknowns", () => {
  it("a missing name is reported even when another value is unknown", () => {
    expect(lines({ description: UNKNOWN })).toEqual(["name: is required"]);
    expect(lines({ allowedModels: ["vendor-a/model-x", UNKNOWN] })).toEqual(["name: is required"]);
  });

  it("an unknown name is not reported, and nothing is parsed for create", () => {
    expect(checkGuardrailArgs({ name: UNKNOWN, limitUsd: 5, resetInterval: "daily" })).toEqual({ failures: [] });
  });

  it("a list item with one unknown field still has its other fields checked", () => {
    expect(
      lines({
        name: "x",
        contentFilters: [
          { pattern: "(", action: UNKNOWN },
          { pattern: UNKNOWN, action: "explode" },
        ],
      }),
    ).toEqual([
      'contentFilters[0].pattern: must be a regular expression that compiles (got "(")',
      'contentFilters[1].action: must be one of block, redact, flag (got "explode")',
    ]);
    expect(
      lines({
        name: "x",
        contentFilterBuiltins: [
          { slug: UNKNOWN, action: "block" },
          { slug: UNKNOWN, action: "block" },
          { slug: "sin", action: UNKNOWN },
        ],
      }),
    ).toEqual([expect.stringMatching(/^contentFilterBuiltins\[2\]\.slug: must be one of .* \(got "sin"\)$/)]);
  });

  it("a wholly unknown list or value is skipped", () => {
    expect(lines({ name: "x", allowedModels: UNKNOWN, limitUsd: UNKNOWN, contentFilters: [UNKNOWN] })).toEqual([]);
  });
});

describe("check: nothing dropped", () => {
  it("a user property starting with __ is reported, only Pulumi's __provider is ignored", () => {
    expect(lines({ name: "x", __proto_hack: 1, __limitUsd: 5 })).toEqual([
      "__proto_hack: unknown property",
      '__limitUsd: unknown property; did you mean "limitUsd"?',
    ]);
  });
});

describe("check: messages say what was received", () => {
  it.each([
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    // biome-ignore lint/correctness/noPrecisionLoss: the overflow is the case under test.
    [1e309, "Infinity"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
  ])("limitUsd %s reads as %s, not null", (value, text) => {
    expect(lines({ name: "x", limitUsd: value, resetInterval: "daily" })).toEqual([
      `limitUsd: must be a finite number (got ${text})`,
    ]);
  });

  it("did-you-mean never suggests the name it rejected", async () => {
    const { failures } = await memberAssignment.check(
      {},
      { guardrailId: "3f2b8c1e-0000-4000-8000-000000000000", members: { a: true }, memberUserIds: ["a"] },
    );
    expect(failures).toHaveLength(1);
    expect(failures![0]!.reason).not.toContain('did you mean "memberUserIds"');
  });

  it("a pattern too large for the service's body limit fails check, naming the property", () => {
    const pattern = "a".repeat(MAX_REQUEST_BODY_BYTES);
    expect(lines({ name: "x", contentFilters: [{ pattern, action: "block" }] })).toEqual([
      expect.stringMatching(
        /^contentFilters: makes the request body \d+ bytes, over the service's limit of 1048576 bytes \(contentFilters alone is \d+ bytes\); shorten it$/,
      ),
    ]);
    expect(
      lines({ name: "x", contentFilters: [{ pattern: "a".repeat(MAX_REQUEST_BODY_BYTES - 1000), action: "block" }] }),
    ).toEqual([]);
  });
});

describe("check: a value that came in as a secret is never quoted (issue 24)", () => {
  const SECRET = "TOPSECRET-PAT(";
  /** A secret pattern that does not compile, next to another arg's bad value, with `record` as the secret args. */
  const withSecretPattern = (record: unknown) => ({
    name: "x",
    contentFilters: [{ pattern: SECRET, action: "block" }],
    limitUsd: -5,
    resetInterval: "daily",
    __secretArgs: record,
  });

  it("a secret pattern that does not compile: the property and the rule, not the value", () => {
    expect(lines(withSecretPattern(["contentFilters"]))).toEqual([
      "limitUsd: must be >= 0 (got -5)", // another arg's value is still quoted
      "contentFilters[0].pattern: must be a regular expression that compiles",
    ]);
  });

  it("nor when create or update parse the inputs", async () => {
    const { parseInputs } = await import("../../src/core/guardrail/check");
    expect(() =>
      parseInputs({
        name: "x",
        contentFilters: [{ pattern: SECRET, action: "block" }],
        __secretArgs: ["contentFilters"],
      }),
    ).toThrow(/contentFilters\[0\]\.pattern: must be a regular expression that compiles$/);
  });

  it("a record of secret args that cannot be read hides every value", () => {
    for (const record of [UNKNOWN, "contentFilters", [1]]) {
      expect(lines(withSecretPattern(record)).join("\n")).not.toMatch(/got/);
    }
  });

  it("secret member ids: neither the value nor the id in the property path", async () => {
    const { failures } = await memberAssignment.check(
      {},
      {
        guardrailId: "3f2b8c1e-0000-4000-8000-000000000000",
        members: { "": true, "user secret": true },
        __secretArgs: ["members"],
      },
    );
    expect(failures!.length).toBeGreaterThan(0);
    for (const f of failures!) {
      expect(f.property).toBe("");
      expect(f.reason).toMatch(/^memberUserIds: /);
      expect(f.reason).not.toMatch(/secret|got/);
    }
  });

  it("to the engine, a secret's failure names no property: the engine would quote the input there itself", async () => {
    const { guardrail } = await import("../../src/dynamic/internal");
    const { failures } = await guardrail.check(
      {},
      { __provider: "p", name: "x", limitUsd: -7, resetInterval: "daily", __secretArgs: ["limitUsd"] },
    );
    expect(failures).toEqual([{ property: "", reason: "limitUsd: must be >= 0" }]);
  });

  it("the resource classes record which args hold a secret, anywhere inside", async () => {
    const pulumi = await import("@pulumi/pulumi");
    const { secretArgNames } = await import("../../src/dynamic/secret-args");
    const read = (o: unknown) => new Promise((r) => (o as { apply(f: (v: unknown) => void): void }).apply(r));
    const args = {
      name: "x",
      description: pulumi.output("plain"),
      contentFilters: [{ pattern: pulumi.secret(SECRET), action: "block" }],
      limitUsd: pulumi.secret(5),
    };
    expect(await read(secretArgNames(args))).toEqual(["contentFilters", "limitUsd"]);
    expect(await read(secretArgNames({ name: "x", description: pulumi.output("plain") }))).toBeUndefined();
    expect(await read(secretArgNames({ memberUserIds: pulumi.secret(["a"]) }, { memberUserIds: "members" }))).toEqual([
      "members",
    ]);
  });
});
