/** The JSON Schemas for editors come from the zod schemas `check` and the loaders use (issue 31). */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { editorJsonSchema } from "../../src/core/args/editor-schema";

describe("editorJsonSchema", () => {
  const schema = z.strictObject({
    name: z.string(),
    mode: z.string().default("a"),
    when: z.date().optional(),
  });
  const out = editorJsonSchema(schema, "x.schema.json", "A title", "A description");

  it("carries the $id, title and description of the file in schema/", () => {
    expect(out.$id).toBe("https://pulumi-guardrails.invalid/schema/x.schema.json");
    expect(out.title).toBe("A title");
    expect(out.description).toBe("A description");
    expect(out.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("describes what a user writes: a key with a default is not required", () => {
    expect(out.required).toEqual(["name"]);
    expect(out.additionalProperties).toBe(false);
  });

  it("accepts anything where JSON Schema cannot say what zod checks, instead of failing", () => {
    expect((out.properties as Record<string, unknown>).when).toEqual({});
  });
});
