/**
 * Request validation of the Guardrail Policies operations (docs/api-contract.md rules 22 to 28).
 * A policy's `config` takes the guardrail's own setting names and rules (rule 31), so each kind's
 * config schema is built from `writable` in validation.ts, never a second list.
 */
import { z } from "zod";
import { POLICY_KINDS, POLICY_TYPES, type PolicyType } from "./policy-records";
import { limitPairIssue, pageQuery, parseOr400, unknownKeys, uuid, writable } from "./validation";

type Field = keyof typeof writable;

/** A kind's config: its settings, each optional, with the guardrail's rules; the service-only ones as given. */
function configSchema(kind: PolicyType) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of POLICY_KINDS[kind].fields) shape[field] = writable[field as Field].optional();
  for (const field of POLICY_KINDS[kind].serviceOnly) shape[field] = z.unknown().optional();
  const schema = z.strictObject(shape, unknownKeys);
  if (kind !== "budget") return schema;
  // Rule 14 holds for a budget: a limit and its interval come together.
  return schema.superRefine((config, ctx) => {
    const issue = limitPairIssue(config);
    if (issue) ctx.addIssue({ code: "custom", ...issue });
  });
}

export const CONFIG_SCHEMAS = Object.fromEntries(POLICY_TYPES.map((k) => [k, configSchema(k)])) as unknown as Record<
  PolicyType,
  z.ZodType<Record<string, unknown>>
>;

const ids = (what: string) =>
  z.array(z.string({ error: `items must be ${what}` }).min(1, { error: `items must be non-empty ${what}` }), {
    error: `must be an array of ${what}`,
  });

const policyType = z.enum(POLICY_TYPES, { error: `must be one of ${POLICY_TYPES.join(", ")}` });

/** Fields a create and an update of a workspace policy share. */
function policyBody(kind: PolicyType) {
  return {
    name: writable.name,
    policy_type: z.literal(kind, { error: `must be "${kind}" on this path` }).optional(),
    config: CONFIG_SCHEMAS[kind],
    workspace_id: uuid.optional(),
    member_ids: ids("member user ids").optional(),
    api_key_hashes: ids("API key hashes").optional(),
    opted_out_member_ids: ids("member user ids").optional(),
    opted_out_api_key_hashes: ids("API key hashes").optional(),
    is_workspace_default: z.boolean({ error: "must be a boolean" }).optional(),
  };
}

/** `POST /guardrails/policies/{kind}`. */
export const createPolicyBody = (kind: PolicyType) => z.strictObject(policyBody(kind), unknownKeys);
export type CreatePolicyBody = z.infer<ReturnType<typeof createPolicyBody>>;

/** `PUT /guardrails/policies/{kind}/{id}`: rule 24, the two assignment lists together or neither. */
export const updatePolicyBody = (kind: PolicyType) =>
  z.strictObject(policyBody(kind), unknownKeys).superRefine((body, ctx) => {
    if ((body.member_ids === undefined) === (body.api_key_hashes === undefined)) return;
    const missing = body.member_ids === undefined ? "member_ids" : "api_key_hashes";
    ctx.addIssue({
      code: "custom",
      path: [missing],
      message:
        "member_ids and api_key_hashes are sent together (each the complete new list) or both omitted to keep the stored assignments",
    });
  });

/** Outer shape of a workspace-wide policy body; its config is checked once its `policy_type` is known. */
const accountBody = z.strictObject(
  {
    name: writable.name,
    policy_type: policyType,
    config: z.unknown(),
    workspace_ids: ids("workspace ids").optional(),
    opted_out_workspace_ids: ids("workspace ids").optional(),
    is_default: z.boolean({ error: "must be a boolean" }).optional(),
  },
  unknownKeys,
);
export type AccountBody = z.infer<typeof accountBody> & { config: Record<string, unknown> };

/** A workspace-wide policy's create or update body (rule 28's choice of names), config checked by its kind. */
export function parseAccountBody(body: unknown): AccountBody {
  const outer = parseOr400(accountBody, body);
  const { config } = parseOr400(z.object({ config: CONFIG_SCHEMAS[outer.policy_type] }), { config: outer.config });
  return { ...outer, config };
}

/** The assignment state of rule 25, as a request's `expected_assignment`. */
const assignmentState = z.strictObject(
  {
    opted_out: z.boolean({ error: "must be a boolean" }),
    policy_ids: ids("policy ids"),
    workspace_default_policy_ids: ids("policy ids"),
  },
  unknownKeys,
);

/** `PUT .../assignments/{api-keys/{hash} | members/{member_id}}` (rule 25). */
export const changeAssignmentBody = z.strictObject(
  {
    assigned: z.boolean({ error: "must be a boolean" }),
    expected_assignment: assignmentState,
    policy_id: uuid,
    policy_type: policyType,
    workspace_id: uuid.optional(),
  },
  unknownKeys,
);
export type ChangeAssignmentBody = z.infer<typeof changeAssignmentBody>;

/** `policy_type` of a get-assignment query (required). */
export const policyTypeQuery = z.object({ policy_type: policyType });

/** Rule 23: a policy list pages as guardrail lists do, except that no `offset` and no `limit` is the full list. */
export function policyPage(query: URLSearchParams): { offset: number; limit: number } {
  const offset = query.get("offset") ?? undefined;
  const limit = query.get("limit") ?? undefined;
  if (offset === undefined && limit === undefined) return { offset: 0, limit: Number.MAX_SAFE_INTEGER };
  return parseOr400(pageQuery, { offset, limit });
}
