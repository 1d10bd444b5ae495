/**
 * The Guardrail's args as zod: what `check` enforces before any call. camelCase, the user's
 * names. Omitted and `null` both mean "not set" (the service holds null).
 */
import { z } from "zod";
import { BUILTIN_SLUGS, DESCRIPTION_MAX, FILTER_ACTIONS, FILTER_LABEL_MAX, NAME_MAX, RESET_INTERVALS, SCAN_SCOPES, UUID_RE, regexCompiles } from "./constants";
import { builtinViolations } from "./filter-rules";

const optional = <T extends z.ZodTypeAny>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

const idList = (what: string) =>
  z
    .array(z.string({ error: `each item must be a ${what} string` }).min(1, { error: `each item must be a non-empty ${what}` }), { error: `must be a list of ${what}s` })
    .min(1, { error: "must not be empty: omit the property instead of passing []" });

export const builtinFilterArgs = z.strictObject({
  slug: z.enum(BUILTIN_SLUGS, { error: `must be one of ${BUILTIN_SLUGS.join(", ")}` }),
  action: z.enum(FILTER_ACTIONS, { error: `must be one of ${FILTER_ACTIONS.join(", ")}` }),
  scanScope: z.enum(SCAN_SCOPES, { error: `must be one of ${SCAN_SCOPES.join(", ")}` }).optional(),
});

export const customFilterArgs = z.strictObject({
  pattern: z
    .string({ error: "must be a regular expression string" })
    .min(1, { error: "must be a non-empty regular expression" })
    .refine(regexCompiles, { error: "must be a regular expression that compiles" }),
  action: z.enum(FILTER_ACTIONS, { error: `must be one of ${FILTER_ACTIONS.join(", ")}` }),
  label: z.string({ error: "must be a string" }).max(FILTER_LABEL_MAX, { error: `must be at most ${FILTER_LABEL_MAX} characters` }).optional(),
});

const zdr = optional(z.boolean({ error: "must be true or false" }));

/** Settings of a guardrail (shared by `Guardrail` and the declarative files). */
export const guardrailSettingsShape = {
  name: z
    .string({ error: "must be a string" })
    .min(1, { error: `must be 1 to ${NAME_MAX} characters` })
    .max(NAME_MAX, { error: `must be 1 to ${NAME_MAX} characters` }),
  description: optional(z.string({ error: "must be a string" }).max(DESCRIPTION_MAX, { error: `must be at most ${DESCRIPTION_MAX} characters` })),
  workspaceId: optional(z.string({ error: "must be a UUID string" }).regex(UUID_RE, { error: "must be a UUID such as 3f2b8c1e-0000-4000-8000-000000000000" })),
  allowedModels: optional(idList("model identifier")),
  allowedProviders: optional(idList("provider id")),
  ignoredModels: optional(idList("model identifier")),
  ignoredProviders: optional(idList("provider id")),
  limitUsd: optional(z.number({ error: "must be a number of US dollars" }).refine(Number.isFinite, { error: "must be a finite number" }).refine((n) => n >= 0, { error: "must be >= 0" })),
  resetInterval: optional(z.enum(RESET_INTERVALS, { error: `must be one of ${RESET_INTERVALS.join(", ")}` })),
  enforceZdrVendorA: zdr,
  enforceZdrVendorB: zdr,
  enforceZdrVendorC: zdr,
  enforceZdrOther: zdr,
  enforceZdr: zdr,
  contentFilterBuiltins: optional(
    z
      .array(builtinFilterArgs, { error: "must be a list of {slug, action, scanScope?}" })
      .min(1, { error: "must not be empty: omit the property instead of passing []" })
      .superRefine((items, ctx) => {
        for (const v of builtinViolations(items)) ctx.addIssue({ code: "custom", path: [v.index, v.field], message: v.message, input: items[v.index]?.[v.field] });
      }),
  ),
  contentFilters: optional(
    z.array(customFilterArgs, { error: "must be a list of {pattern, action, label?}" }).min(1, { error: "must not be empty: omit the property instead of passing []" }),
  ),
};

export const guardrailArgsSchema = z.strictObject({
  ...guardrailSettingsShape,
  adoptId: optional(z.string({ error: "must be a guardrail id (UUID)" }).regex(UUID_RE, { error: "must be a guardrail id (UUID)" })),
});

export type GuardrailInputs = z.output<typeof guardrailArgsSchema>;
