/**
 * The data sources' args as zod, in the program's names, strict like a resource's: an unknown
 * property, an id that is no UUID or a lookup that names both an id and a name (or, for a
 * workspace, more than one of id, slug and name) fails with its
 * property path before any call. Both faces parse with `parseLookupArgs`.
 */
import { z } from "zod";
import { issuesToFailures, type PropertyFailure, shown } from "../args/messages";
import { NAME_MAX, UUID_RE } from "../fields/constants";
import type { PolicyKind } from "../fields/policy-kinds";
import { compileRe2, RE2_SYNTAX } from "../text/re2";

/** The longest `nameRegex` taken: a pattern is a program's own text, not a document. */
export const NAME_REGEX_MAX = 256;

const uuid = (what: string) =>
  z.string({ error: `must be ${what} (UUID)` }).regex(UUID_RE, { error: `must be ${what} (UUID)` });
const guardrailId = uuid("a guardrail id");
const workspaceId = uuid("a workspace id").optional();

const getGuardrail = z
  .strictObject({
    id: guardrailId.optional(),
    name: z
      .string({ error: "must be a string" })
      .min(1, { error: `must be 1 to ${NAME_MAX} characters` })
      .max(NAME_MAX, { error: `must be 1 to ${NAME_MAX} characters` })
      .optional(),
    workspaceId,
  })
  .superRefine((v, ctx) => {
    if (v.id !== undefined && v.name !== undefined)
      ctx.addIssue({ code: "custom", path: ["name"], message: "give id or name, not both" });
    else if (v.id === undefined && v.name === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["id"],
        message: "give id, or name (with workspaceId when not the default one)",
      });
    else if (v.id !== undefined && v.workspaceId !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["workspaceId"],
        message: "narrows a lookup by name; an id names one guardrail on its own",
      });
  });

/** An RE2 pattern (text/re2.ts): matched in linear time against names the server sends. */
const nameRegex = z
  .string({ error: "must be an RE2 regular expression (a string)" })
  .max(NAME_REGEX_MAX, { error: `must be at most ${NAME_REGEX_MAX} characters` })
  .superRefine((pattern, ctx) => {
    const compiled = compileRe2(pattern);
    if (!compiled.ok)
      ctx.addIssue({
        code: "custom",
        message: `is not an RE2 regular expression (got ${shown(pattern)}: ${compiled.reason}); ${RE2_SYNTAX}`,
      });
  });

/** The longest workspace slug taken. */
export const SLUG_MAX = 200;
/** A workspace slug as the service makes them: lowercase alphanumeric segments joined by single hyphens. */
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const getWorkspace = z
  .strictObject({
    id: uuid("a workspace id").optional(),
    slug: z
      .string({ error: "must be a string" })
      .max(SLUG_MAX, { error: `must be at most ${SLUG_MAX} characters` })
      .regex(SLUG_RE, {
        error: "must be a workspace slug: lowercase letters and digits in words joined by single hyphens",
      })
      .optional(),
    name: z
      .string({ error: "must be a string" })
      .min(1, { error: `must be 1 to ${NAME_MAX} characters` })
      .max(NAME_MAX, { error: `must be 1 to ${NAME_MAX} characters` })
      .optional(),
  })
  .superRefine((v, ctx) => {
    const given = (["id", "slug", "name"] as const).filter((k) => v[k] !== undefined);
    if (given.length === 0) ctx.addIssue({ code: "custom", path: ["id"], message: "give one of id, slug or name" });
    else if (given.length > 1)
      ctx.addIssue({
        code: "custom",
        path: [given[1]!],
        message: `give one of id, slug or name, not ${given.join(" and ")}`,
      });
  });

/** A workspace slug as the policy resources take it: one URL segment as written. */
const POLICY_SLUG_RE = /^[a-z0-9][a-z0-9_-]{0,99}$/i;

/** A policy's workspace, as the policy resources take it: its id (UUID, any case) or its slug. */
export const policyWorkspace = z
  .string({ error: "must be a workspace id (UUID) or slug" })
  .refine((v) => UUID_RE.test(v) || POLICY_SLUG_RE.test(v), {
    error: "must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters)",
  });

/**
 * A policy kind as a program writes it, and the kind it names: the words `WorkspaceWidePolicy`'s
 * `policyType` takes, `modelAccess` as in `ModelAccessPolicy` (the API's `model_availability`).
 */
export const POLICY_TYPE_WORDS = {
  budget: "budget",
  modelAccess: "modelAvailability",
  moderation: "moderation",
} as const satisfies Record<string, PolicyKind>;
/** A `policyType` as a program writes it. */
export type PolicyTypeWord = keyof typeof POLICY_TYPE_WORDS;
const TYPE_WORDS = Object.keys(POLICY_TYPE_WORDS) as PolicyTypeWord[];
/** The program's word for a kind. */
export const typeWordOf = (kind: PolicyKind): PolicyTypeWord => TYPE_WORDS.find((w) => POLICY_TYPE_WORDS[w] === kind)!;

const policyType = z.enum(TYPE_WORDS, { error: `must be one of ${TYPE_WORDS.map((k) => `"${k}"`).join(", ")}` });

/** The longest member id or key hash taken, as the policy resources' id lists. */
export const SUBJECT_ID_MAX = 500;

/** A member id or key hash: no message here quotes it (a program may hold it secret). */
export const subjectId = z
  .string({ error: "must be a string" })
  .refine((v) => v.trim() !== "", { error: "must be a non-empty string" })
  .refine((v) => v.length <= SUBJECT_ID_MAX, { error: `must be at most ${SUBJECT_ID_MAX} characters` });

const getSubjectPolicies = z
  .strictObject({
    workspaceId: policyWorkspace,
    memberId: subjectId.optional(),
    keyHash: subjectId.optional(),
    workspaceWide: z.boolean({ error: "must be true or false" }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.memberId !== undefined && v.keyHash !== undefined)
      ctx.addIssue({ code: "custom", path: ["keyHash"], message: "give memberId or keyHash, not both" });
    else if (v.memberId === undefined && v.keyHash === undefined)
      ctx.addIssue({ code: "custom", path: ["memberId"], message: "give memberId (a member's user id) or keyHash" });
  });

/**
 * The effective-access lookups' args (issue 41): one subject, and for a key the member who owns
 * it (the service does not say). `access.ts` serves them.
 */
export const ACCESS_ARGS = z
  .strictObject({
    memberId: subjectId.optional(),
    keyHash: subjectId.optional(),
    ownerMemberId: subjectId.optional(),
    workspaceId: policyWorkspace.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.memberId !== undefined && v.keyHash !== undefined)
      ctx.addIssue({ code: "custom", path: ["keyHash"], message: "give memberId or keyHash, not both" });
    else if (v.memberId === undefined && v.keyHash === undefined)
      ctx.addIssue({ code: "custom", path: ["memberId"], message: "give memberId (a member's user id) or keyHash" });
    else if (v.memberId !== undefined && v.ownerMemberId !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["ownerMemberId"],
        message: "names a key's owner; give it with keyHash, not memberId",
      });
  });

/** Each data source's args, by the name both faces give it. */
export const LOOKUP_ARGS = {
  getGuardrail,
  getGuardrails: z.strictObject({ workspaceId, nameRegex: nameRegex.optional() }),
  getGuardrailMembers: z.strictObject({ guardrailId }),
  getGuardrailKeys: z.strictObject({ guardrailId }),
  getWorkspace,
  getWorkspaces: z.strictObject({}),
  getPolicies: z.strictObject({ workspaceId: policyWorkspace, policyType: policyType.optional() }),
  getPolicy: z.strictObject({ policyType, id: uuid("a policy id"), workspaceId: policyWorkspace }),
  getSubjectPolicies,
  getEffectiveAccess: ACCESS_ARGS,
  getSubjectGuardrail: ACCESS_ARGS,
} as const;

export type LookupName = keyof typeof LOOKUP_ARGS;
export type LookupArgs<N extends LookupName> = z.output<(typeof LOOKUP_ARGS)[N]>;

/** The args parsed, or every failure with its property path. `null` values count as omitted. */
export function parseLookupArgs<N extends LookupName>(
  name: N,
  raw: unknown,
): { ok: true; args: LookupArgs<N> } | { ok: false; failures: PropertyFailure[] } {
  const bag =
    raw && typeof raw === "object" && !Array.isArray(raw)
      ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null && v !== undefined))
      : raw;
  const schema = LOOKUP_ARGS[name];
  const parsed = schema.safeParse(bag);
  if (parsed.success) return { ok: true, args: parsed.data as LookupArgs<N> };
  return { ok: false, failures: issuesToFailures(parsed.error, Object.keys(schema.shape ?? {})) };
}
