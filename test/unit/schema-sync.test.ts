/** The shipped JSON Schema must be what the zod schema generates: one source of truth. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guardrailFileJsonSchema } from "../../src/declarative/file-schema";

describe("schema/guardrails.schema.json", () => {
  it("matches the zod schema (run `npm run schema` after changing provider/declarative/file-schema.ts)", () => {
    const shipped = JSON.parse(readFileSync(join(__dirname, "../../schema/guardrails.schema.json"), "utf8"));
    expect(shipped).toEqual(guardrailFileJsonSchema());
  });

  it("describes the settings editors should complete", () => {
    const entry = guardrailFileJsonSchema() as any;
    const props = Object.keys(entry.properties.guardrails.additionalProperties.properties);
    expect(props).toEqual(
      expect.arrayContaining([
        "name",
        "limitUsd",
        "allowedModels",
        "contentFilterBuiltins",
        "members",
        "keys",
        "enforceZdrVendorA",
      ]),
    );
    expect(entry.properties.guardrails.additionalProperties.additionalProperties).toBe(false);
  });
});

describe("schema/policy.schema.json", () => {
  it("matches the zod schema of the policy options (run `npm run schema` after changing provider/policy/options.ts)", async () => {
    const { policyFileJsonSchema } = await import("../../src/policy/policy-file");
    const shipped = JSON.parse(readFileSync(join(__dirname, "../../schema/policy.schema.json"), "utf8"));
    expect(shipped).toEqual(policyFileJsonSchema());
    expect(shipped.additionalProperties).toBe(false);
  });
});
