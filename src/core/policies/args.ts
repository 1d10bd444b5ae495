/**
 * A workspace policy's args (issue 40, design "A workspace policy's args"): the workspace, the
 * name, the settings the field table gives the kind (the same strict schemas as a Guardrail's),
 * who it is assigned to, whether it is the workspace default and who opts out of that. Pure:
 * no client. `check` holds a program to these; create and update parse them again.
 */
import { z } from "zod";
import type { ArgDoc } from "../arg-doc";
import type { PropertyFailure } from "../args/messages";
import { guardrailSettingsShape, limitNeedsInterval } from "../args/guardrail-args";
import { POLICY_SETTINGS_SHAPES } from "../args/policy-args";
import { UUID_RE } from "../fields/constants";
import { FIELD_NAMES, FIELDS, type FieldName } from "../fields/fields";
import { policyKindOfField } from "../fields/policy-kinds";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../kinds";

/** A workspace slug as this package sends it: URL-friendly, so it is one path segment as written. */
const SLUG_RE = /^[a-z0-9][a-z0-9_-]{0,99}$/i;

const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** One id of a member or key list: what the service can hold. */
const id = z
  .string({ error: "ids must be strings" })
  .refine((v) => v.trim() !== "", { error: "ids must be non-empty strings" })
  .refine((v) => v.length <= 500, { error: "ids must be at most 500 characters" });
/** A managed list: present (even `[]`) means exactly these; absent leaves the service's list alone. */
const idList = optional(z.array(id, { error: "must be a list of strings" }));

/** The args every kind has, beside its settings. */
const commonShape = {
  workspaceId: z
    .string({ error: "must be a workspace id (UUID) or slug" })
    .refine((v) => UUID_RE.test(v) || SLUG_RE.test(v), {
      error: "must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters)",
    }),
  name: guardrailSettingsShape.name,
  memberUserIds: idList,
  keyHashes: idList,
  workspaceDefault: optional(z.boolean({ error: "must be true or false" })),
  optedOutMemberUserIds: idList,
  optedOutKeyHashes: idList,
};

/** The id lists a policy manages, in the program's names. */
export const ID_LISTS = ["memberUserIds", "keyHashes", "optedOutMemberUserIds", "optedOutKeyHashes"] as const;
export type IdList = (typeof ID_LISTS)[number];

function argsSchema(type: PolicyTypeName) {
  const budget = KINDS[type].policy.fields === "budget";
  // A budget policy is a spending limit: `limitUsd` required (and so, as on a Guardrail, its `resetInterval`).
  const settings = {
    ...POLICY_SETTINGS_SHAPES[KINDS[type].policy.fields],
    ...(budget ? { limitUsd: FIELDS.limitUsd.arg } : {}),
  };
  const schema = z.strictObject({ ...commonShape, ...settings });
  return budget ? schema.superRefine((v, ctx) => limitNeedsInterval(v as { limitUsd?: unknown }, ctx)) : schema;
}

/**
 * The failures of `check` with a setting of another kind said as such: `limitUsd: belongs to a
 * BudgetPolicy, not a ModerationPolicy` rather than "unknown property". The kind a setting
 * belongs to is the field table's `policy` column.
 */
export function placedFailures(type: PolicyTypeName, failures: readonly PropertyFailure[]): PropertyFailure[] {
  return failures.map((f) => {
    if (!f.reason.startsWith("unknown property") || !(FIELD_NAMES as readonly string[]).includes(f.property)) return f;
    const kind = policyKindOfField(f.property as FieldName);
    const owner = POLICY_TYPE_NAMES.find((t) => KINDS[t].policy.fields === kind);
    return owner && owner !== type ? { ...f, reason: `belongs to a ${owner}, not a ${type}` } : f;
  });
}

/** Each kind's args schema. */
export const POLICY_ARGS = Object.fromEntries(POLICY_TYPE_NAMES.map((t) => [t, argsSchema(t)])) as Record<
  PolicyTypeName,
  ReturnType<typeof argsSchema>
>;

/** A policy's args after `check`: the common ones typed, the settings by field name. */
export type PolicyInputs = z.output<z.ZodObject<typeof commonShape>> & Partial<Record<FieldName, unknown>>;

/**
 * The docs of the args that are not the field table's (whose docs are its JSDoc): a new one does
 * not compile until it is described here. src/dynamic/policies.ts repeats them as JSDoc for the
 * IDE.
 */
export const POLICY_ARG_DOCS: Record<Exclude<keyof typeof commonShape, "name">, ArgDoc> = {
  workspaceId: {
    text: "The workspace the policy belongs to (the API's `workspace_id`): its id (UUID, any case) or its slug. State records the id, so a slug that names the same workspace is no change. **Another workspace replaces the resource.**",
  },
  memberUserIds: {
    text: "Organization member user ids (`user_...`) the policy is assigned to directly (the API's `member_ids`); a set: order and duplicates do not matter. When given (even `[]`), exactly these; a member assigned out of band is an error at the next `up` until `pulumi refresh` shows it. When omitted, this resource leaves the policy's members alone.",
    fallback: "the members are not managed",
  },
  keyHashes: {
    text: "API key hashes the policy is assigned to directly (the API's `api_key_hashes`); a set. Given or omitted as `memberUserIds`.",
    fallback: "the keys are not managed",
  },
  workspaceDefault: {
    text: "Whether the policy is its workspace's default for its kind (the API's `is_workspace_default`): every member and key of the workspace without a policy of this kind of its own inherits it. A workspace has one default per kind: making this one the default unsets the previous one.",
    fallback: "false",
  },
  optedOutMemberUserIds: {
    text: "Members that do not inherit the policy when it is the workspace default (the API's `opted_out_member_ids`); a set. Given or omitted as `memberUserIds`.",
    fallback: "the opt-outs are not managed",
  },
  optedOutKeyHashes: {
    text: "API keys that do not inherit the policy when it is the workspace default (the API's `opted_out_api_key_hashes`); a set. Given or omitted as `memberUserIds`.",
    fallback: "the opt-outs are not managed",
  },
};

/** Whether a workspace reference is an id (compared as a UUID) rather than a slug. */
export const isWorkspaceUuid = (ref: string): boolean => UUID_RE.test(ref);
