/**
 * The Guardrail's args as zod: what `check` enforces before any call. camelCase, the user's
 * names. Omitted and `null` both mean "not set". Built from the field table (fields.ts).
 */
import { z } from "zod";
import { UUID_RE } from "./constants";
import { FIELD_NAMES, FIELDS, spec, type AnySchema, type FieldName } from "./fields";

const optional = <T extends AnySchema>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

type Fields = typeof FIELDS;
type ArgSchema<K extends FieldName> = Fields[K] extends { required: true } ? Fields[K]["arg"] : Fields[K]["arg"] extends infer S extends AnySchema ? ReturnType<typeof optional<S>> : never;

const fieldShape = Object.fromEntries(FIELD_NAMES.map((k) => [k, spec(k).required ? spec(k).arg : optional(spec(k).arg)])) as { [K in FieldName]: ArgSchema<K> };
const { name, description, ...settings } = fieldShape;

/** Settings of a guardrail (shared by `Guardrail` and the declarative files): the table's fields and `workspaceId`. */
export const guardrailSettingsShape = {
  name,
  description,
  // Listed where users read it: after the description, before the settings.
  workspaceId: optional(z.string({ error: "must be a UUID string" }).regex(UUID_RE, { error: "must be a UUID such as 3f2b8c1e-0000-4000-8000-000000000000" })),
  ...settings,
};

export const guardrailArgsSchema = z.strictObject({
  ...guardrailSettingsShape,
  adoptId: optional(z.string({ error: "must be a guardrail id (UUID)" }).regex(UUID_RE, { error: "must be a guardrail id (UUID)" })),
});

export type GuardrailInputs = z.output<typeof guardrailArgsSchema>;
