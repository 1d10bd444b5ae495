/**
 * Wire types of the management API, both directions, in the service's snake_case.
 * The client validates every response against these; a surprise shape is an error.
 */
import { z } from "zod";
import { BUILTIN_SLUGS, FILTER_ACTIONS, RESET_INTERVALS, SCAN_SCOPES } from "../args/constants";

export const wireBuiltinFilter = z.object({
  slug: z.enum(BUILTIN_SLUGS),
  action: z.enum(FILTER_ACTIONS),
  scan_scope: z.enum(SCAN_SCOPES).optional(),
  label: z.string().optional(),
});
export type WireBuiltinFilter = z.infer<typeof wireBuiltinFilter>;

export const wireCustomFilter = z.object({
  pattern: z.string(),
  action: z.enum(FILTER_ACTIONS),
  label: z.string().nullable().optional(),
});
export type WireCustomFilter = z.infer<typeof wireCustomFilter>;

const stringList = z.array(z.string()).nullable();

/** A guardrail as the service returns it. */
export const wireGuardrail = z.object({
  id: z.string(),
  name: z.string(),
  workspace_id: z.string(),
  created_at: z.string(),
  updated_at: z.string().nullable(),
  description: z.string().nullable(),
  allowed_models: stringList,
  allowed_providers: stringList,
  ignored_models: stringList,
  ignored_providers: stringList,
  limit_usd: z.number().nullable(),
  reset_interval: z.enum(RESET_INTERVALS).nullable(),
  enforce_zdr_vendor_a: z.boolean().nullable(),
  enforce_zdr_vendor_b: z.boolean().nullable(),
  enforce_zdr_vendor_c: z.boolean().nullable(),
  enforce_zdr_other: z.boolean().nullable(),
  enforce_zdr: z.boolean().nullable(),
  content_filter_builtins: z.array(wireBuiltinFilter).nullable(),
  content_filters: z.array(wireCustomFilter).nullable(),
});
export type WireGuardrail = z.infer<typeof wireGuardrail>;

/** The writable fields of a guardrail, as a create or PATCH body carries them. */
export interface WireGuardrailWrite {
  name?: string;
  description?: string | null;
  workspace_id?: string;
  allowed_models?: string[] | null;
  allowed_providers?: string[] | null;
  ignored_models?: string[] | null;
  ignored_providers?: string[] | null;
  limit_usd?: number | null;
  reset_interval?: (typeof RESET_INTERVALS)[number] | null;
  enforce_zdr_vendor_a?: boolean | null;
  enforce_zdr_vendor_b?: boolean | null;
  enforce_zdr_vendor_c?: boolean | null;
  enforce_zdr_other?: boolean | null;
  enforce_zdr?: boolean | null;
  content_filter_builtins?: Array<Omit<WireBuiltinFilter, "label">> | null;
  content_filters?: WireCustomFilter[] | null;
}
/** Body of `POST /guardrails`: a name is required. */
export type WireGuardrailCreate = WireGuardrailWrite & { name: string };
/** Body of `PATCH /guardrails/{id}`: `workspace_id` cannot change. */
export type WireGuardrailUpdate = Omit<WireGuardrailWrite, "workspace_id">;

export const wireMemberAssignment = z.object({
  id: z.string(),
  user_id: z.string(),
  organization_id: z.string(),
  guardrail_id: z.string(),
  assigned_by: z.string().nullable(),
  created_at: z.string(),
});
export type WireMemberAssignment = z.infer<typeof wireMemberAssignment>;

export const wireKeyAssignment = z.object({
  id: z.string(),
  key_hash: z.string(),
  guardrail_id: z.string(),
  key_name: z.string(),
  key_label: z.string(),
  assigned_by: z.string().nullable(),
  created_at: z.string(),
});
export type WireKeyAssignment = z.infer<typeof wireKeyAssignment>;

/** `{data: T}` envelope. */
export const dataEnvelope = <T extends z.ZodTypeAny>(item: T) => z.object({ data: item });
/** `{data: T[], total_count}` page. */
export const pageEnvelope = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), total_count: z.number().int().nonnegative() });

export const deletedResponse = z.object({ deleted: z.literal(true) });
export const assignedResponse = z.object({ assigned_count: z.number().int().nonnegative() });
export const unassignedResponse = z.object({ unassigned_count: z.number().int().nonnegative() });

/** The error body every 4xx/5xx carries (API-CONTRACT.md, Transport). */
export const wireErrorBody = z.object({
  error: z.object({
    code: z.number(),
    message: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
});
