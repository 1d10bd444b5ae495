/**
 * Request validation (docs/api-contract.md): every body and query the emulator accepts is checked here with zod,
 * and a failure becomes one 400 whose message names each field and why.
 */
import { z } from "zod";
import { badRequest, HttpError } from "./http-error";
import {
  ACTIONS,
  BUILTIN_SLUGS,
  builtinProblems,
  compiles,
  DATA_REGIONS,
  LIMITS,
  RESET_INTERVALS,
  SCAN_SCOPES,
  UUID_PATTERN,
} from "./rules";

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(", ")}` });

const list = (what: string) =>
  z
    .array(
      z.string({ error: `items must be ${what} strings` }).min(1, { error: `items must be non-empty ${what} strings` }),
      {
        error: `must be an array of ${what} strings or null`,
      },
    )
    .min(1, { error: "must be null or a non-empty array ([] is not allowed)" })
    .nullable();

const zdrFlag = z.boolean({ error: "must be a boolean or null" }).nullable();

const builtin = z.strictObject({
  slug: z.enum(BUILTIN_SLUGS, oneOf(BUILTIN_SLUGS)),
  action: z.enum(ACTIONS, oneOf(ACTIONS)),
  scan_scope: z.enum(SCAN_SCOPES, oneOf(SCAN_SCOPES)).optional(),
  // Accepted and ignored: the service sets the label (docs/api-contract.md, Records).
  label: z.unknown().optional(),
});

const builtins = z
  .array(builtin, { error: "must be an array of objects or null" })
  .min(1, { error: "must be null or a non-empty array ([] is not allowed)" })
  .superRefine((items, ctx) => {
    for (const p of builtinProblems(items)) ctx.addIssue({ code: "custom", path: p.path, message: p.message });
  })
  .nullable();

const customFilter = z.strictObject({
  pattern: z
    .string({ error: "must be a string" })
    .min(1, { error: "must be a non-empty regular expression" })
    .refine(compiles, { error: "must be a regular expression that compiles" }),
  action: z.enum(ACTIONS, oneOf(ACTIONS)),
  label: z
    .string({ error: "must be a string" })
    .max(LIMITS.customLabelMax, { error: `must be at most ${LIMITS.customLabelMax} characters` })
    .nullable()
    .optional(),
});

const customFilters = z
  .array(customFilter, { error: "must be an array of objects or null" })
  .min(1, { error: "must be null or a non-empty array ([] is not allowed)" })
  .nullable();

export const uuid = z.string({ error: "must be a UUID string" }).regex(UUID_PATTERN, { error: "must be a UUID" });

/** Every writable guardrail field's rule, by wire name: guardrail bodies and policy configs (rule 31) use the same. */
export const writable = {
  name: z
    .string({ error: "must be a string" })
    .min(1, { error: `must be 1 to ${LIMITS.nameMax} characters` })
    .max(LIMITS.nameMax, { error: `must be 1 to ${LIMITS.nameMax} characters` }),
  description: z
    .string({ error: "must be a string or null" })
    .max(LIMITS.descriptionMax, { error: `must be at most ${LIMITS.descriptionMax} characters` })
    .nullable(),
  allowed_models: list("model identifier"),
  allowed_providers: list("provider id"),
  ignored_models: list("model identifier"),
  ignored_providers: list("provider id"),
  limit_usd: z.number({ error: "must be a number or null" }).nullable(),
  reset_interval: z.enum(RESET_INTERVALS, oneOf(RESET_INTERVALS)).nullable(),
  enforce_zdr_vendor_a: zdrFlag,
  enforce_zdr_vendor_b: zdrFlag,
  enforce_zdr_vendor_c: zdrFlag,
  enforce_zdr_other: zdrFlag,
  enforce_zdr: zdrFlag,
  content_filter_builtins: builtins,
  content_filters: customFilters,
  // Rule 13: the real service's fields beyond the spec.
  include_byok_in_budgets: z.boolean({ error: "must be a boolean" }),
  allowed_data_regions: z
    .array(z.enum(DATA_REGIONS, oneOf(DATA_REGIONS)), { error: "must be an array of data regions or null" })
    .min(1, { error: "must be null or a non-empty array ([] is not allowed)" })
    .nullable(),
  enable_free_model_publication: z.boolean({ error: "must be a boolean or null" }).nullable(),
  enable_free_model_training: z.boolean({ error: "must be a boolean or null" }).nullable(),
  enable_paid_model_training: z.boolean({ error: "must be a boolean or null" }).nullable(),
};

export const unknownKeys = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === "unrecognized_keys" ? `unknown field(s): ${(issue.keys ?? []).join(", ")}` : undefined,
};

const guardrailBody = z.strictObject(
  {
    name: writable.name,
    description: writable.description.optional(),
    workspace_id: uuid.optional(),
    allowed_models: writable.allowed_models.optional(),
    allowed_providers: writable.allowed_providers.optional(),
    ignored_models: writable.ignored_models.optional(),
    ignored_providers: writable.ignored_providers.optional(),
    limit_usd: writable.limit_usd.optional(),
    reset_interval: writable.reset_interval.optional(),
    enforce_zdr_vendor_a: zdrFlag.optional(),
    enforce_zdr_vendor_b: zdrFlag.optional(),
    enforce_zdr_vendor_c: zdrFlag.optional(),
    enforce_zdr_other: zdrFlag.optional(),
    enforce_zdr: zdrFlag.optional(),
    content_filter_builtins: builtins.optional(),
    content_filters: customFilters.optional(),
    include_byok_in_budgets: writable.include_byok_in_budgets.optional(),
    allowed_data_regions: writable.allowed_data_regions.optional(),
    enable_free_model_publication: writable.enable_free_model_publication.optional(),
    enable_free_model_training: writable.enable_free_model_training.optional(),
    enable_paid_model_training: writable.enable_paid_model_training.optional(),
  },
  unknownKeys,
);

/** Create body; rule 14: a spending limit and its reset interval come together or not at all. */
export const createBody = guardrailBody.superRefine((body, ctx) => {
  const issue = limitPairIssue(body);
  if (issue) ctx.addIssue({ code: "custom", ...issue });
});

/** Rule 14's complaint about a body, if any: a spending limit without its interval, or the reverse. */
export function limitPairIssue(body: { limit_usd?: unknown; reset_interval?: unknown }) {
  const limit = body.limit_usd != null;
  if (limit === (body.reset_interval != null)) return undefined;
  return {
    path: [limit ? "limit_usd" : "reset_interval"],
    message: `limit_usd and reset_interval must be given together (got ${limit ? "limit_usd without reset_interval" : "reset_interval without limit_usd"})`,
  };
}
export type CreateBody = z.infer<typeof createBody>;

/** PATCH body: every field optional; rule 14 is a create rule only. */
export const updateBody = guardrailBody.partial();
export type UpdateBody = z.infer<typeof updateBody>;

/** Bulk body: the array is required and non-empty, items non-empty strings (rule 8). */
export function bulkBody(field: "member_user_ids" | "key_hashes", maxBulk: number) {
  return z.strictObject(
    {
      [field]: z
        .array(z.string({ error: "items must be strings" }).min(1, { error: "items must be non-empty strings" }), {
          error: "is required: an array of strings",
        })
        .min(1, { error: "must be a non-empty array" })
        .max(maxBulk, { error: `has more than the maximum of ${maxBulk} items per request` }),
    } as Record<typeof field, z.ZodArray<z.ZodString>>,
    unknownKeys,
  );
}

const intParam = (name: string, min: number, max: number, dflt: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return dflt;
      const n = /^\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isSafeInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`} (got "${v}")`,
        });
        return z.NEVER;
      }
      return n;
    });

export const pageQuery = z.object({
  offset: intParam("offset", 0, Number.MAX_SAFE_INTEGER, 0),
  limit: intParam("limit", 1, LIMITS.pageSizeMax, LIMITS.pageSizeDefault),
});

/** Turns zod issues into one readable 400: `field: why; field: why`. */
export function parseOr400<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message }));
  const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  throw badRequest(message, { issues });
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)),
    "",
  );
}

/** A path segment that must be a UUID (docs/api-contract.md, Operations: not a UUID is 400). */
export function requireUuid(value: string, what: string): string {
  if (!UUID_PATTERN.test(value)) throw new HttpError(400, `${what}: must be a UUID (got "${value.slice(0, 80)}")`);
  return value;
}
