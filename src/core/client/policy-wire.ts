/**
 * Wire types of the Guardrail Policies operations (docs/api-contract.md rules 22 to 33, with
 * docs/guardrail-policies.openapi.json), both directions. Read as guardrails are (wire.ts): strict
 * on what the client needs (ids, lists of assignees, counts, envelopes), tolerant on the rest
 * (absent reads as null, `policy_type` and `reference` are open enums, extra keys are dropped),
 * and every string bounded. A policy's `config` is read with the field table's own read schemas
 * for the kind's fields (policy-kinds.ts): the names and values are a guardrail's (rule 31).
 */
import { z } from "zod";
import type { AnySchema } from "../fields/field-spec";
import { type FIELDS, spec } from "../fields/fields";
import {
  POLICY_FIELDS,
  POLICY_KINDS,
  type PolicyConfigWrite,
  type PolicyFieldName,
  type PolicyKind,
  policyKindOf,
} from "../fields/policy-kinds";
import { orNull, serviceId, wireId, wireText, wireTime } from "./wire";

type Fields = typeof FIELDS;
/** A kind's `config` as read: each of its fields, null where the service sent none. */
type ConfigShape<P extends PolicyKind> = {
  [K in PolicyFieldName<P> as Fields[K]["wire"]]: Fields[K]["read"] extends infer S extends AnySchema
    ? ReturnType<typeof orNull<S>>
    : never;
};

const configOf = <P extends PolicyKind>(kind: P) =>
  z.object(Object.fromEntries(POLICY_FIELDS[kind].map((k) => [spec(k).wire, orNull(spec(k).read)])) as ConfigShape<P>);

/**
 * Each kind's `config` as the service answers it: the kind's table fields (absent, null and `[]`
 * read as null, as on a guardrail); settings this package does not manage (`pii_filters`,
 * `armor`, ...) are dropped, and a `config` that is absent or null reads as every field null.
 */
export const wirePolicyConfig = {
  budget: configOf("budget"),
  modelAvailability: configOf("modelAvailability"),
  moderation: configOf("moderation"),
} as const;
/** A kind's `config` as the client reads it. */
export type WirePolicyConfig<P extends PolicyKind> = z.output<(typeof wirePolicyConfig)[P]>;

/** A `config` as read: absent or null reads as every field null (the service holds none of them). */
const config = <P extends PolicyKind>(kind: P) =>
  wirePolicyConfig[kind].nullish().transform((v) => v ?? (wirePolicyConfig[kind].parse({}) as WirePolicyConfig<P>));
/** An open enum: kept as the service sent it (rule 23's `rate_limit`). */
const openEnum = wireText;
/** A list of ids or hashes; each bounded. */
const ids = z.array(wireId);
/** An optional list: absent or null reads as null, meaning "the service did not say" (not "none"). */
const maybeIds = ids.nullish().transform((v) => v ?? null);
const maybe = <T extends AnySchema>(s: T) => s.nullish().transform((v) => v ?? null);
const count = z.number().int().nonnegative();

/** What a create or update answers (rule 23): the policy's id, name, type and config. */
const policyShape = <P extends PolicyKind>(kind: P) => ({
  id: serviceId,
  name: wireText,
  policy_type: openEnum,
  config: config(kind),
});

/** A policy as a create or update answers it. */
export const wirePolicy = <P extends PolicyKind>(kind: P) => z.object(policyShape(kind));
/** A policy as a create or update answers it, as the client reads it. */
export type WirePolicy<P extends PolicyKind> = z.output<ReturnType<typeof wirePolicy<P>>>;

/** The legacy mapping fields (rule 30): optional, null when absent. Guardrail ids are UUIDs. */
const legacyShape = {
  is_legacy_mapped: maybe(z.boolean()),
  legacy_guardrail_ids: maybe(z.array(serviceId)),
  replaced_legacy_guardrail_ids: maybe(z.array(serviceId)),
};

/** A row of a kind's list (rule 23's summary). */
export const wirePolicySummary = <P extends PolicyKind>(kind: P) =>
  z.object({
    ...policyShape(kind),
    member_count: count,
    api_key_count: count,
    updated_at: maybe(wireTime),
    is_workspace_default: maybe(z.boolean()),
    ...legacyShape,
  });
/** A row of a kind's list, as the client reads it. */
export type WirePolicySummary<P extends PolicyKind> = z.output<ReturnType<typeof wirePolicySummary<P>>>;

/**
 * One policy with its assignments (rule 23's detail). The four lists the schema requires are
 * required here too: a resource compares them to catch a change made elsewhere, so a missing one
 * must never read as "none". The optional ones read absent as null ("not said").
 */
export const wirePolicyDetail = <P extends PolicyKind>(kind: P) =>
  z.object({
    ...policyShape(kind),
    member_ids: ids,
    api_key_hashes: ids,
    opted_out_api_key_hashes: ids,
    overridden_api_key_hashes: ids,
    opted_out_member_ids: maybeIds,
    overridden_member_ids: maybeIds,
    is_workspace_default: maybe(z.boolean()),
    is_account_policy: maybe(z.boolean()),
    reference: maybe(openEnum),
    updated_at: maybe(wireTime),
    ...legacyShape,
  });
/** One policy with its assignments, as the client reads it. */
export type WirePolicyDetail<P extends PolicyKind> = z.output<ReturnType<typeof wirePolicyDetail<P>>>;

/** The assignment lists and default flag a create or update may carry (rules 24 and 27). */
export interface WirePolicyAssignments {
  /** Complete list; sent with `api_key_hashes` or neither (rule 24). */
  member_ids?: string[];
  api_key_hashes?: string[];
  opted_out_member_ids?: string[];
  opted_out_api_key_hashes?: string[];
  is_workspace_default?: boolean;
}
/** Body of `POST /guardrails/policies/{kind}` (`policy_type` is added by the client). */
export type WirePolicyCreate<P extends PolicyKind> = WirePolicyAssignments & {
  name: string;
  config: PolicyConfigWrite<P>;
  workspace_id: string;
};
/** Body of `PUT /guardrails/policies/{kind}/{id}`: name and config replaced whole. */
export type WirePolicyUpdate<P extends PolicyKind> = WirePolicyCreate<P>;

/** A subject's state for one kind (rule 25): compared as sets by the service. */
export const wireAssignmentState = z.object({
  opted_out: z.boolean(),
  policy_ids: z.array(serviceId),
  workspace_default_policy_ids: z.array(serviceId),
});
/** A subject's state for one kind, as read and as `expected_assignment` sends it back. */
export type WireAssignmentState = z.output<typeof wireAssignmentState>;

/**
 * The keys of a `config` that are not the kind's table fields (`pii_filters`, `armor`, ...), as the
 * service sent them: an update replaces `config` whole (rule 24), so a writer carries these back
 * rather than wipe settings it does not manage (design-40.md, "Late decisions").
 */
function unmanaged(kind: PolicyKind, raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return {};
  const ours = new Set<string>(POLICY_FIELDS[kind].map((k) => spec(k).wire));
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !ours.has(k)));
}

/**
 * A workspace-wide ("account") policy (rule 28). Only `id`, `name` and `policy_type` are required;
 * `config` is read with the schema of the kind `policy_type` names, and is null for a type this
 * package does not know; `unmanagedConfig` keeps the config's other keys as sent. Workspace ids
 * are UUIDs.
 */
export const wireWorkspaceWidePolicy = z
  .object({
    id: serviceId,
    name: wireText,
    policy_type: openEnum,
    config: z.unknown().optional(),
    workspace_ids: maybe(z.array(serviceId)),
    opted_out_workspace_ids: maybe(z.array(serviceId)),
    workspace_count: maybe(count),
    is_default: maybe(z.boolean()),
    is_synced: maybe(z.boolean()),
    is_workspace_default_synced: maybe(z.boolean()),
    created_at: maybe(wireTime),
    updated_at: maybe(wireTime),
  })
  .transform((v, ctx) => {
    const kind = policyKindOf(v.policy_type) ?? null;
    if (kind === null) return { ...v, kind, config: null, unmanagedConfig: {} };
    const read = config(kind).safeParse(v.config);
    if (read.success)
      return {
        ...v,
        kind,
        config: read.data as WirePolicyConfig<PolicyKind>,
        unmanagedConfig: unmanaged(kind, v.config),
      };
    for (const issue of read.error.issues)
      ctx.addIssue({ code: "custom", path: ["config", ...issue.path], message: issue.message });
    return z.NEVER;
  });
/** A workspace-wide policy as the client reads it; `kind` is null for a `policy_type` this package does not know. */
export type WireWorkspaceWidePolicy = z.output<typeof wireWorkspaceWidePolicy>;

/** Body of a workspace-wide create or update (rule 28's choice: the record's own names). */
export interface WireWorkspaceWidePolicyWrite<P extends PolicyKind = PolicyKind> {
  name: string;
  config: PolicyConfigWrite<P>;
  /** Complete list: an update replaces the coverage whole. */
  workspace_ids?: string[];
  opted_out_workspace_ids?: string[];
  /** Covers every workspace (rule 28's reading of `is_default`). */
  is_default?: boolean;
}

/** Answer of a delete (`{data: true}`) and of an assignment change (`{data: <whether it changed>}`). */
export const dataFlag = z.object({ data: z.boolean() });

export { POLICY_KINDS };
