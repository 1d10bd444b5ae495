/**
 * The JSON Schemas shipped in `schema/` for editors (yaml-language-server), generated from the
 * zod schemas that `check` and the loaders use, so the editor and the provider never disagree.
 */
import { z } from "zod";

/** `schema`'s input as JSON Schema, with the `$id`, title and description of `schema/<file>`. */
export function editorJsonSchema(
  schema: z.ZodType,
  file: string,
  title: string,
  description: string,
): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return { ...generated, $id: `https://pulumi-guardrails.invalid/schema/${file}`, title, description };
}
