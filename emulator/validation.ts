/**
 * Request validation: every body and query the emulator accepts is checked here with zod,
 * and a failure becomes one 400 whose message names each field and why.
 */
import { z } from "zod";
import {
  BUILTIN_SLUGS,
  DESCRIPTION_MAX,
  FILTER_ACTIONS,
  FILTER_LABEL_MAX,
  MAX_PAGE_SIZE,
  NAME_MAX,
  RESET_INTERVALS,
  SCAN_SCOPES,
  UUID_RE,
  regexCompiles,
} from "../provider/args/constants";
import { builtinViolations } from "../provider/args/filter-rules";
import { badRequest, HttpError } from "./http-error";

const list = (what: string) =>
  z
    .array(z.string({ error: `items must be ${what} strings` }).min(1, { error: `items must be non-empty ${what} strings` }), {
      error: `must be an array of ${what} strings or null`,
    })
    .min(1, { error: "must be null or a non-empty array ([] is not allowed)" })
    .nullable();

const zdrFlag = z.boolean({ error: "must be a boolean or null" }).nullable();

const builtin = z.strictObject({
  slug: z.enum(BUILTIN_SLUGS, { error: `must be one of ${BUILTIN_SLUGS.join(", ")}` }),
  action: z.enum(FILTER_ACTIONS, { error: `must be one of ${FILTER_ACTIONS.join(", ")}` }),
  scan_scope: z.enum(SCAN_SCOPES, { error: `must be one of ${SCAN_SCOPES.join(", ")}` }).optional(),
  // Accepted and ignored: the service sets the label (API-CONTRACT.md, Records).
  label: z.unknown().optional(),
});

const builtins = z
  .array(builtin, { error: "must be an array of objects or null" })
  .min(1, { error: "must be null or a non-empty array ([] is not allowed)" })
  .superRefine((items, ctx) => {
    for (const v of builtinViolations(items.map((b) => ({ slug: b.slug, action: b.action, scanScope: b.scan_scope })))) {
      ctx.addIssue({ code: "custom", path: [v.index, v.field === "scanScope" ? "scan_scope" : v.field], message: v.message.replace("scan scope", "scan_scope") });
    }
  })
  .nullable();

const customFilter = z.strictObject({
  pattern: z
    .string({ error: "must be a string" })
    .min(1, { error: "must be a non-empty regular expression" })
    .refine(regexCompiles, { error: "must be a regular expression that compiles" }),
  action: z.enum(FILTER_ACTIONS, { error: `must be one of ${FILTER_ACTIONS.join(", ")}` }),
  label: z.string({ error: "must be a string" }).max(FILTER_LABEL_MAX, { error: `must be at most ${FILTER_LABEL_MAX} characters` }).nullable().optional(),
});

const customFilters = z
  .array(customFilter, { error: "must be an array of objects or null" })
  .min(1, { error: "must be null or a non-empty array ([] is not allowed)" })
  .nullable();

const uuid = z.string({ error: "must be a UUID string" }).regex(UUID_RE, { error: "must be a UUID" });

const writable = {
  name: z
    .string({ error: "must be a string" })
    .min(1, { error: `must be 1 to ${NAME_MAX} characters` })
    .max(NAME_MAX, { error: `must be 1 to ${NAME_MAX} characters` }),
  description: z.string({ error: "must be a string or null" }).max(DESCRIPTION_MAX, { error: `must be at most ${DESCRIPTION_MAX} characters` }).nullable(),
  allowed_models: list("model identifier"),
  allowed_providers: list("provider id"),
  ignored_models: list("model identifier"),
  ignored_providers: list("provider id"),
  limit_usd: z.number({ error: "must be a number or null" }).nullable(),
  reset_interval: z.enum(RESET_INTERVALS, { error: `must be one of ${RESET_INTERVALS.join(", ")}` }).nullable(),
  enforce_zdr_vendor_a: zdrFlag,
  enforce_zdr_vendor_b: zdrFlag,
  enforce_zdr_vendor_c: zdrFlag,
  enforce_zdr_other: zdrFlag,
  enforce_zdr: zdrFlag,
  content_filter_builtins: builtins,
  content_filters: customFilters,
};

const unknownKeys = { error: (issue: { code?: string; keys?: string[] }) => issue.code === "unrecognized_keys" ? `unknown field(s): ${(issue.keys ?? []).join(", ")}` : undefined };

export const createBody = z.strictObject(
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
  },
  unknownKeys,
);
export type CreateBody = z.infer<typeof createBody>;

export const updateBody = createBody.partial();
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
        ctx.addIssue({ code: "custom", message: `${name} must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`} (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

export const pageQuery = z.object({
  offset: intParam("offset", 0, Number.MAX_SAFE_INTEGER, 0),
  limit: intParam("limit", 1, MAX_PAGE_SIZE, 50),
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
  return path.reduce<string>((acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), "");
}

/** A path segment that must be a UUID (API-CONTRACT.md: not a UUID is 400). */
export function requireUuid(value: string, what: string): string {
  if (!UUID_RE.test(value)) throw new HttpError(400, `${what}: must be a UUID (got "${value.slice(0, 80)}")`);
  return value;
}
