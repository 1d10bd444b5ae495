/**
 * The Guardrail's args as zod: what `check` enforces before any call. camelCase, the user's
 * names. Omitted and `null` both mean "not set". Built from the field table (fields.ts).
 */
import { z } from "zod";
import type { ArgDoc } from "../arg-doc";
import { UUID_RE } from "../fields/constants";
import type { AnySchema } from "../fields/field-spec";
import { FIELD_NAMES, type FIELDS, spec, type FieldName } from "../fields/fields";

const optional = <T extends AnySchema>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

type Fields = typeof FIELDS;
type ArgSchema<K extends FieldName> = Fields[K] extends { required: true }
  ? Fields[K]["arg"]
  : Fields[K]["arg"] extends infer S extends AnySchema
    ? ReturnType<typeof optional<S>>
    : never;

const fieldShape = Object.fromEntries(
  FIELD_NAMES.map((k) => [k, spec(k).required ? spec(k).arg : optional(spec(k).arg)]),
) as { [K in FieldName]: ArgSchema<K> };
const { name, description, ...settings } = fieldShape;

/** Settings of a guardrail (shared by `Guardrail` and the declarative files): the table's fields and `workspaceId`. */
export const guardrailSettingsShape = {
  name,
  description,
  // Listed where users read it: after the description, before the settings.
  workspaceId: optional(
    z
      .string({ error: "must be a UUID string" })
      .regex(UUID_RE, { error: "must be a UUID such as 3f2b8c1e-0000-4000-8000-000000000000" }),
  ),
  ...settings,
};

/**
 * A spending limit and its reset interval come together or not at all (docs/api-contract.md
 * rule 14: the service answers 400 to a create with one of them). Reported on the one given,
 * naming both, beside every other failure. Runs on the parsed settings, where the fields'
 * `optional` has already made a `null` undefined.
 */
export function limitNeedsInterval(v: { limitUsd?: unknown; resetInterval?: unknown }, ctx: z.RefinementCtx): void {
  const limit = v.limitUsd !== undefined;
  const interval = v.resetInterval !== undefined;
  if (limit && !interval)
    ctx.addIssue({
      code: "custom",
      path: ["limitUsd"],
      input: v.limitUsd,
      message:
        "limitUsd and resetInterval go together: set resetInterval too (daily, weekly or monthly), or drop limitUsd",
    });
  if (interval && !limit)
    ctx.addIssue({
      code: "custom",
      path: ["resetInterval"],
      input: v.resetInterval,
      message: "resetInterval and limitUsd go together: set limitUsd too, or drop resetInterval",
    });
}

export const guardrailArgsSchema = z
  .strictObject({
    ...guardrailSettingsShape,
    // The string's error is every check's too: one message for a non-string and a non-UUID.
    adoptId: optional(z.string({ error: "must be a guardrail id (UUID)" }).regex(UUID_RE)),
  })
  .superRefine(limitNeedsInterval);

export type GuardrailInputs = z.output<typeof guardrailArgsSchema>;

/**
 * The docs of the Guardrail's args that are not the field table's (whose docs are its JSDoc):
 * a new one does not compile until it is described here. src/dynamic/guardrail.ts repeats them
 * as JSDoc for the IDE (test/unit/arg-docs.test.ts holds the copies equal).
 */
export const GUARDRAIL_ARG_DOCS: Record<Exclude<keyof typeof guardrailArgsSchema.shape, FieldName>, ArgDoc> = {
  workspaceId: {
    text: "Workspace (UUID, any case) that holds the guardrail. Omitting it and writing the default workspace's id are the same value. **Moving to another workspace replaces the guardrail.**",
    fallback: "the default workspace",
  },
  adoptId: {
    text: "Bring an existing guardrail (its UUID) under management instead of creating one: the first `up` reads it and PATCHes what differs from these args. Pulumi's `import` option does not work for dynamic providers (pulumi/pulumi issues 16175, 3550). Read at create only: dropping it later is no change, and changing it to another guardrail fails the preview, since a resource manages one guardrail for its whole life.",
    fallback: "create a new guardrail",
    native:
      "Bring an existing guardrail (its UUID) under management instead of creating one: the first `up` reads it and updates what differs from these args. Read at create only. On this face the `import` resource option and `pulumi import` do the same and are the usual way.",
  },
};
