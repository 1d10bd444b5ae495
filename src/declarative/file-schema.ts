/**
 * The declarative file format, as zod: the same settings (and messages) as `GuardrailArgs`,
 * plus member and key sets. The JSON Schema that editors use is generated from this.
 */
import { z } from "zod";
import { guardrailSettingsShape, limitNeedsInterval } from "../core/args/guardrail-args";
import { builtinFilterArgs, customFilterArgs } from "../core/fields/filters";
import { editorJsonSchema } from "../core/args/editor-schema";

/** Stable ids name the Pulumi resources, so they are kept simple. */
export const STABLE_ID_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const assignmentSetSchema = z.strictObject({
  ids: z.array(
    z.string({ error: "each id must be a string" }).min(1, { error: "each id must be a non-empty string" }),
    { error: "must be a list of ids" },
  ),
  exclusive: z.boolean({ error: "must be true or false" }).optional(),
});

export const declaredGuardrailSchema = z
  .strictObject({
    ...guardrailSettingsShape,
    adoptId: guardrailSettingsShape.workspaceId,
    members: assignmentSetSchema.optional(),
    keys: assignmentSetSchema.optional(),
  })
  .superRefine(limitNeedsInterval);
export type DeclaredGuardrail = z.output<typeof declaredGuardrailSchema>;

export const guardrailFileSchema = z.strictObject({
  $schema: z.string().optional(),
  guardrails: z.record(
    z.string().regex(STABLE_ID_RE, {
      error: "guardrail ids must be lowercase letters, digits, - or _ (at most 63), starting with a letter or digit",
    }),
    declaredGuardrailSchema,
    {
      error: (issue) =>
        issue.code === "invalid_type" ? "must be a mapping of stable id -> guardrail settings" : undefined,
    },
  ),
});

/** Keys each level accepts, for did-you-mean suggestions. */
export const KNOWN_KEYS = {
  file: Object.keys(guardrailFileSchema.shape),
  guardrail: Object.keys(declaredGuardrailSchema.shape),
  set: Object.keys(assignmentSetSchema.shape),
  builtin: Object.keys(builtinFilterArgs.shape),
  filter: Object.keys(customFilterArgs.shape),
};

/** The JSON Schema for editors (yaml-language-server), from the zod schema above. */
export function guardrailFileJsonSchema(): Record<string, unknown> {
  return editorJsonSchema(
    guardrailFileSchema,
    "guardrails.schema.json",
    "pulumi-guardrails declarative guardrail file",
    "Guardrails keyed by a stable id, with the settings of GuardrailArgs and member/key sets. See docs/guides/declarative-configs.md.",
  );
}
