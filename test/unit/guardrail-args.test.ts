/** The Guardrail's args as `check` enforces them before any call (issue 31). */
import { describe, expect, it } from "vitest";
import { guardrailArgsSchema, guardrailSettingsShape } from "../../src/core/args/guardrail-args";
import { issuesToFailures } from "../../src/core/args/messages";
import { FIELD_NAMES } from "../../src/core/fields/fields";

const ID = "3f2b8c1e-0000-4000-8000-000000000000";

/** The failures `check` reports for these args. */
function failures(args: Record<string, unknown>) {
  const parsed = guardrailArgsSchema.safeParse(args, { reportInput: true });
  return parsed.success ? [] : issuesToFailures(parsed.error);
}

describe("guardrailArgsSchema", () => {
  it("lists the settings where users read them: name, description, workspaceId, then the table's fields", () => {
    const rest = FIELD_NAMES.filter((k) => k !== "name" && k !== "description");
    expect(Object.keys(guardrailSettingsShape)).toEqual(["name", "description", "workspaceId", ...rest]);
    expect(Object.keys(guardrailArgsSchema.shape)).toEqual([...Object.keys(guardrailSettingsShape), "adoptId"]);
  });

  it("needs a name; every other arg may be omitted, and null means not set", () => {
    expect(failures({})).toEqual([{ property: "name", reason: "is required" }]);
    const parsed = guardrailArgsSchema.parse({ name: "eng", description: null, workspaceId: null, adoptId: null });
    expect(parsed).toEqual({ name: "eng" });
    expect(parsed.description).toBeUndefined();
    expect(guardrailArgsSchema.parse({ name: "eng", allowedProviders: null }).allowedProviders).toBeUndefined();
  });

  it("takes a workspace id and an adopted id that are UUIDs", () => {
    expect(guardrailArgsSchema.parse({ name: "eng", workspaceId: ID, adoptId: ID })).toEqual({
      name: "eng",
      workspaceId: ID,
      adoptId: ID,
    });
  });

  it("says what a workspace id and an adopted id must be", () => {
    expect(failures({ name: "eng", workspaceId: 5, adoptId: 5 })).toEqual([
      { property: "workspaceId", reason: "must be a UUID string (got 5)" },
      { property: "adoptId", reason: "must be a guardrail id (UUID) (got 5)" },
    ]);
    expect(failures({ name: "eng", workspaceId: "ws-1", adoptId: "g-1" })).toEqual([
      { property: "workspaceId", reason: 'must be a UUID such as 3f2b8c1e-0000-4000-8000-000000000000 (got "ws-1")' },
      { property: "adoptId", reason: 'must be a guardrail id (UUID) (got "g-1")' },
    ]);
  });

  it("refuses an arg it does not know", () => {
    expect(failures({ name: "eng", colour: "red" })).toEqual([{ property: "colour", reason: "unknown property" }]);
  });
});

describe("a spending limit and its reset interval come together (rule 14)", () => {
  it("a limit without an interval is reported on the limit, beside every other failure", () => {
    expect(failures({ name: "", limitUsd: 5 })).toEqual([
      { property: "name", reason: 'must be 1 to 200 characters (got "")' },
      {
        property: "limitUsd",
        reason:
          "limitUsd and resetInterval go together: set resetInterval too (daily, weekly or monthly), or drop limitUsd (got 5)",
      },
    ]);
    expect(failures({ name: "eng", limitUsd: 5, resetInterval: null }).map((f) => f.property)).toEqual(["limitUsd"]);
  });

  it("an interval without a limit is reported on the interval", () => {
    for (const limitUsd of [undefined, null])
      expect(failures({ name: "eng", limitUsd, resetInterval: "daily" })).toEqual([
        {
          property: "resetInterval",
          reason: 'resetInterval and limitUsd go together: set limitUsd too, or drop resetInterval (got "daily")',
        },
      ]);
  });

  it("reports standard zod custom issues, which the declarative loader tells apart by their code", () => {
    const parsed = guardrailArgsSchema.safeParse({ name: "eng", limitUsd: 5 });
    const interval = guardrailArgsSchema.safeParse({ name: "eng", resetInterval: "daily" });
    expect(parsed.error?.issues).toMatchObject([{ code: "custom", path: ["limitUsd"] }]);
    expect(interval.error?.issues).toMatchObject([{ code: "custom", path: ["resetInterval"] }]);
  });

  it("both or neither pass, a limit of 0 included", () => {
    expect(failures({ name: "eng", limitUsd: 0, resetInterval: "monthly" })).toEqual([]);
    expect(failures({ name: "eng", limitUsd: null, resetInterval: null })).toEqual([]);
  });
});
