/**
 * Options of `guardrailsPolicies`, as zod: what a platform team's organization rules are.
 * One option per rule; a rule whose option is not given is in the pack but disabled, so a
 * pack config (`--policy-pack-config`) can still switch it on.
 */
import { z } from "zod";
import { BUILTIN_SLUGS, RESET_INTERVALS, type ResetInterval } from "../core/fields/constants";
import { issuesToFailures } from "../core/args/messages";
import { UserError } from "../core/user-error";
import { isWorkspaceKey } from "../declarative/file-schema";

/** How a violated rule acts: fail the preview/up, warn, or not run. */
export const ENFORCEMENT_LEVELS = ["mandatory", "advisory", "disabled"] as const;
/** One of `ENFORCEMENT_LEVELS`. */
export type EnforcementLevel = (typeof ENFORCEMENT_LEVELS)[number];

/** Vendor groups of the per-vendor ZDR args (`enforceZdrVendorA` ... `enforceZdrOther`). */
export const ZDR_GROUPS = ["vendorA", "vendorB", "vendorC", "other"] as const;
/** One of `ZDR_GROUPS`. */
export type ZdrGroup = (typeof ZDR_GROUPS)[number];

const level = z.enum(ENFORCEMENT_LEVELS, { error: `must be one of ${ENFORCEMENT_LEVELS.join(", ")}` });
const nonEmptyStrings = (what: string) =>
  z
    .array(
      z
        .string({ error: `each item must be a ${what} string` })
        .trim()
        .min(1, { error: `each item must be a non-empty ${what}` }),
      { error: `must be a list of ${what}s` },
    )
    .min(1, { error: "must not be empty: omit the option to disable the rule" });

/** The value each rule takes; the keys are the option names. */
export const ruleValueSchemas = {
  maxLimitUsd: z
    .number({ error: "must be a number of US dollars" })
    .min(0, { error: "must be >= 0" })
    .refine(Number.isFinite, { error: "must be a finite number" }),
  requireResetInterval: z.union([z.boolean(), z.enum(RESET_INTERVALS)], {
    error: `must be true, false, or the longest reset interval allowed (${RESET_INTERVALS.join(", ")})`,
  }),
  requireZdr: z
    .array(z.enum(ZDR_GROUPS, { error: `each item must be one of ${ZDR_GROUPS.join(", ")}` }), {
      error: `must be a list of ${ZDR_GROUPS.join(", ")}`,
    })
    .min(1, { error: "must not be empty: omit the option to disable the rule" }),
  requireBuiltinFilters: z
    .array(z.enum(BUILTIN_SLUGS, { error: `each item must be one of ${BUILTIN_SLUGS.join(", ")}` }), {
      error: "must be a list of builtin filter slugs",
    })
    .min(1, { error: "must not be empty: omit the option to disable the rule" }),
  forbidModels: nonEmptyStrings("model identifier"),
  allowProviders: nonEmptyStrings("provider id"),
  requireMemberSet: z.boolean({ error: "must be true or false" }),
  requireWorkspaceDefault: z
    .array(
      z.string({ error: "each item must be a workspace id or slug string" }).trim().refine(isWorkspaceKey, {
        error: "each item must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters)",
      }),
      { error: "must be a list of workspace ids or slugs" },
    )
    .min(1, { error: "must not be empty: omit the option to disable the rule" }),
  effectiveAccess: z.strictObject(
    {
      models: z
        .record(
          z.string().trim().min(1, { error: "each model must be a non-empty model identifier" }),
          z.strictObject(
            {
              onlyMembers: z.array(z.string().trim().min(1, { error: "each item must be a member user id" }), {
                error: "must be a list of member user ids (empty: no member may reach it)",
              }),
            },
            { error: "each model takes { onlyMembers: [member user ids] }" },
          ),
          { error: "must map each model to { onlyMembers: [...] }" },
        )
        .refine((m) => Object.keys(m).length > 0, { error: "must name at least one model" }),
      keyOwners: z
        .record(z.string().trim().min(1), z.string().trim().min(1, { error: "each owner must be a member user id" }), {
          error: "must map each key hash to its owner's member user id",
        })
        .optional(),
    },
    { error: "must be { models: { <model>: { onlyMembers: [...] } }, keyOwners?: { <key hash>: <member> } }" },
  ),
} as const;

/** The option name of a rule (`maxLimitUsd`, ...), a key of `POLICY_RULES`. */
export type RuleOption = keyof typeof ruleValueSchemas;
export const RULE_OPTIONS = Object.keys(ruleValueSchemas) as RuleOption[];

export const policyOptionsSchema = z.strictObject({
  ...Object.fromEntries(RULE_OPTIONS.map((k) => [k, ruleValueSchemas[k].optional()])),
  /** Level of every rule that `levels` does not name. @default "mandatory" */
  enforcement: level.optional(),
  /** Per-rule levels, keyed by option name. */
  levels: z.partialRecord(z.enum(RULE_OPTIONS as [RuleOption, ...RuleOption[]]), level).optional(),
} as Record<string, z.ZodTypeAny>);

/** Options of `guardrailsPolicies`. Every rule is off unless its option is given. */
export interface GuardrailsPolicyOptions {
  /** Ceiling for `limitUsd`; a guardrail without a spending limit exceeds any ceiling. @default rule disabled */
  maxLimitUsd?: number;
  /**
   * Every guardrail has a spending limit that resets: `resetInterval` is set (`true`), and,
   * given an interval, resets at least that often (`"weekly"` refuses `monthly`). A guardrail
   * without a limit has no interval (the two come together), so it fails this rule too.
   * @default rule disabled
   */
  requireResetInterval?: boolean | ResetInterval;
  /** Vendor groups whose `enforceZdr*` must be `true` (an omitted arg is not true). @default rule disabled */
  requireZdr?: ZdrGroup[];
  /** Builtin filter slugs every guardrail must carry (any action). @default rule disabled */
  requireBuiltinFilters?: (typeof BUILTIN_SLUGS)[number][];
  /**
   * Models no guardrail may allow, in any form the service may accept for them: any case, a
   * dated canonical slug (`-20250901`) or a `:variant` of the name (an alias of another shape
   * needs the catalogue: list it too); `vendor/*` matches a vendor's models. A guardrail must set
   * `allowedModels`: `ignoredModels` cannot reach a model's variants and snapshots. @default rule disabled
   */
  forbidModels?: string[];
  /** Every guardrail must set `allowedProviders`, within this list. @default rule disabled */
  allowProviders?: string[];
  /** Every guardrail must have a `GuardrailMemberAssignment` with at least one member whose `guardrailId` is its id. @default rule disabled */
  requireMemberSet?: boolean;
  /**
   * Workspaces (ids or slugs) whose default guardrail the stack must manage: each needs a
   * `WorkspaceDefaultGuardrail` (either face, or a `workspaceDefaults:` entry of the
   * declarative files) naming it by id or slug. @default rule disabled
   */
  requireWorkspaceDefault?: string[];
  /**
   * Who may reach a model, judged by effective access at preview (issue 41): for each model
   * (any form `forbidModels` takes: a model's dated slugs and `:variant`s count as it, `vendor/*`
   * every model of the vendor), no member outside `onlyMembers`, and no key whose owner is
   * outside it, can reach it after every layer the stack plans applies; nor can anyone without a
   * guardrail of their own (the workspace default guardrail). The service has no key -> owner
   * lookup: `keyOwners` names them. A layer that cannot be known at preview fails the rule,
   * naming it (docs/effective-access.md, "In the policy pack"). @default rule disabled
   */
  effectiveAccess?: {
    models: Record<string, { onlyMembers: string[] }>;
    keyOwners?: Record<string, string>;
  };
  /** Level of each rule that `levels` does not name. @default "mandatory" */
  enforcement?: EnforcementLevel;
  /** Per-rule level, e.g. `{ maxLimitUsd: "advisory" }`. @default `enforcement` */
  levels?: Partial<Record<RuleOption, EnforcementLevel>>;
}

/** A bad option: names every failing field at once. */
export class PolicyOptionsError extends UserError {
  constructor(
    readonly failures: { property: string; reason: string }[],
    where = "guardrailsPolicies options",
  ) {
    super(`${where}: ${failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`);
  }
}

/** Validates options; throws `PolicyOptionsError` listing every bad field. */
export function parsePolicyOptions(input: unknown, where?: string): GuardrailsPolicyOptions {
  const parsed = policyOptionsSchema.safeParse(input ?? {}, { reportInput: true });
  if (!parsed.success)
    throw new PolicyOptionsError(issuesToFailures(parsed.error, Object.keys(policyOptionsSchema.shape)), where);
  return parsed.data as GuardrailsPolicyOptions;
}
