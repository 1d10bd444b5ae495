/**
 * Wire types of the management API, both directions, in the service's snake_case.
 * The client validates every response against these: strict on what it needs (ids, counts,
 * envelopes), tolerant on what the service may add or leave out.
 */
import { z } from "zod";
import { UUID_RE } from "../fields/constants";
import type { AnySchema } from "../fields/field-spec";
import { idText } from "../text/terminal";
import { FIELD_NAMES, type FIELDS, spec, type FieldName, type WireName, type WireValue } from "../fields/fields";

/** Content filter records, read tolerantly (core/fields/filters.ts). */
export { wireBuiltinFilter, wireCustomFilter, type WireBuiltinFilter, type WireCustomFilter } from "../fields/filters";

/**
 * An id the service assigns (a guardrail's, a workspace's): a UUID (the spec's "string, UUID";
 * docs/api-contract.md), in either case. Anything else is refused before any use, since it would
 * become a resource id, a path segment and a word in messages; the refusal shows it
 * neutralised (text/terminal.ts), never raw.
 */
export const serviceId = z.string().refine((s) => UUID_RE.test(s), {
  error: (issue) => `must be a UUID, as the service assigns its ids (got ${idText(issue.input)})`,
});

/**
 * Bounds on the strings a response may carry (issue 38): a row is held for the whole read, so a
 * server that sends rows of 50 KB ids inside a list's row bound could fill the heap (100,000 rows
 * of 5 MB pages). A longer string is refused with a `ResponseShapeError` that names the field and
 * the length, never the value. The bounds are the contract's where it gives one, with room.
 */
/** Ids and hashes: above the 500 characters an id in a program may have (args/assignment-args.ts). */
export const WIRE_ID_MAX = 1024;
/** Names, labels, slugs and descriptions: the spec's names are at most 200 characters, descriptions 1,000. */
export const WIRE_TEXT_MAX = 4096;
/** Timestamps (ISO 8601, about 30 characters). */
export const WIRE_TIME_MAX = 64;

/** A string of at most `max` characters; a longer one is refused by its length. */
export const bounded = (max: number) =>
  z.string().max(max, {
    error: (issue) => `must be at most ${max} characters (got ${(issue.input as string).length})`,
  });
/** An id or hash, bounded. */
export const wireId = bounded(WIRE_ID_MAX);
/** A name, label or slug, bounded. */
export const wireText = bounded(WIRE_TEXT_MAX);
/** A timestamp, bounded. */
export const wireTime = bounded(WIRE_TIME_MAX);

/**
 * Absent and `null` both read as null (docs/api-contract.md rule 10), and so does an empty
 * list: the service takes no `[]` (rule 3), so one it answers can only mean "none", which a
 * declarative file says by leaving the setting out. Read this way, `[]` and null are one state
 * everywhere: export, adoption, refresh and diff (issue 24, finding 7).
 */
export const orNull = <T extends AnySchema>(schema: T) =>
  schema.nullish().transform((v) => (v === undefined || (Array.isArray(v) && v.length === 0) ? null : v));

type Fields = typeof FIELDS;
type ReadShape = {
  [K in FieldName as WireName<K>]: Fields[K] extends { required: true }
    ? Fields[K]["read"]
    : Fields[K]["read"] extends infer S extends AnySchema
      ? ReturnType<typeof orNull<S>>
      : never;
};

/**
 * A guardrail as the service returns it, read tolerantly (docs/api-contract.md rules 10-12):
 * only `id` (a UUID, as `workspace_id` when present), `name` and `created_at` are required, every other key absent reads as null, enum
 * values are open (kept as they are) and extra fields are dropped.
 */
export const wireGuardrail = z.object({
  id: serviceId,
  created_at: wireTime,
  workspace_id: orNull(serviceId),
  updated_at: orNull(wireTime),
  ...(Object.fromEntries(
    FIELD_NAMES.map((k) => [spec(k).wire, spec(k).required ? spec(k).read : orNull(spec(k).read)]),
  ) as ReadShape),
  name: wireText,
  description: orNull(wireText),
});
/** A guardrail as the client reads it: every table field present, null where the service sent none. */
export type WireGuardrail = z.infer<typeof wireGuardrail>;

/** The writable fields of a guardrail, as a create or PATCH body carries them. */
export type WireGuardrailWrite = { [K in FieldName as WireName<K>]?: WireValue<K> | null } & { workspace_id?: string };
/** Body of `POST /guardrails`: a name is required. */
export type WireGuardrailCreate = WireGuardrailWrite & { name: string };
/** Body of `PATCH /guardrails/{id}`: `workspace_id` cannot change. */
export type WireGuardrailUpdate = Omit<WireGuardrailWrite, "workspace_id">;

/** Which assignee list a guardrail assignment call is about. */
export type AssigneeKind = "members" | "keys";
/** The request body's field that carries the ids of each kind (the wire's name for them). */
export const BULK_FIELD = { members: "member_user_ids", keys: "key_hashes" } as const;

/** A member assignment as the service returns it. */
export const wireMemberAssignment = z.object({
  id: wireId,
  user_id: wireId,
  organization_id: wireId,
  guardrail_id: serviceId,
  assigned_by: wireId.nullable(),
  created_at: wireTime,
});
/** A member assignment record. */
export type WireMemberAssignment = z.infer<typeof wireMemberAssignment>;

/** A key assignment as the service returns it. */
export const wireKeyAssignment = z.object({
  id: wireId,
  key_hash: wireId,
  guardrail_id: serviceId,
  key_name: wireText,
  key_label: wireText,
  assigned_by: wireId.nullable(),
  created_at: wireTime,
});
/** A key assignment record. */
export type WireKeyAssignment = z.infer<typeof wireKeyAssignment>;

/**
 * A workspace as `GET /workspaces` and `GET /workspaces/{id-or-slug}` answer it
 * (docs/api-contract.md rule 17). `id` and `default_guardrail_id` are required UUIDs: without them
 * the record cannot say which workspace it is or which guardrail is its default (rule 21), so
 * such an answer is refused (`ResponseShapeError` naming the missing key). Every other key
 * may be absent and reads as null (rule 10's tolerance); extra keys are dropped (rule 12).
 */
export const wireWorkspace = z.object({
  id: serviceId,
  default_guardrail_id: serviceId,
  name: wireText.nullish().transform((v) => v ?? null),
  slug: wireText.nullish().transform((v) => v ?? null),
  description: wireText.nullish().transform((v) => v ?? null),
  created_at: wireTime.nullish().transform((v) => v ?? null),
  updated_at: wireTime.nullish().transform((v) => v ?? null),
});
/** A workspace record as the client reads it: absent keys are null. */
export type WireWorkspace = z.infer<typeof wireWorkspace>;

/** `{data: T}` envelope. */
export const dataEnvelope = <T extends z.ZodTypeAny>(item: T) => z.object({ data: item });
/** `{data: T[], total_count}` page. */
export const pageEnvelope = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), total_count: z.number().int().nonnegative() });

/** Answer of `DELETE /guardrails/{id}`. */
export const deletedResponse = z.object({ deleted: z.literal(true) });
/** Answer of a bulk assign. */
export const assignedResponse = z.object({ assigned_count: z.number().int().nonnegative() });
/** Answer of a bulk unassign. */
export const unassignedResponse = z.object({ unassigned_count: z.number().int().nonnegative() });

/** The error body every 4xx/5xx carries (docs/api-contract.md, Transport). */
export const wireErrorBody = z.object({
  error: z.object({
    code: z.number(),
    message: z.string(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
});
