/**
 * The declarative file format, as zod: the same settings (and messages) as `GuardrailArgs`,
 * plus member and key sets. The JSON Schema that editors use is generated from this.
 */
import { z } from "zod";
import { guardrailSettingsShape, limitNeedsInterval } from "../core/args/guardrail-args";
import { builtinFilterArgs, customFilterArgs } from "../core/fields/filters";
import { editorJsonSchema } from "../core/args/editor-schema";
import { UUID_RE } from "../core/fields/constants";
import { workspaceDefaultArgsSchema } from "../core/guardrail/workspace-default-args";
import { limitNeedsInterval as budgetNeedsInterval } from "../core/args/policy-args";
import { POLICY_ARGS } from "../core/policies/args";
import { typeWordOf, WORKSPACE_WIDE_ARGS } from "../core/policies/workspace-wide-args";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";

/** Stable ids name the Pulumi resources, so they are kept simple. */
export const STABLE_ID_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export const assignmentSetSchema = z.strictObject({
  ids: z.array(
    z.string({ error: "each id must be a string" }).min(1, { error: "each id must be a non-empty string" }),
    { error: "must be a list of ids" },
  ),
  exclusive: z.boolean({ error: "must be true or false" }).optional(),
});

export const declaredGuardrailSchema = z
  .strictObject({
    ...guardrailSettingsShape,
    adoptId: guardrailSettingsShape.workspaceId,
    members: assignmentSetSchema.optional(),
    keys: assignmentSetSchema.optional(),
  })
  .superRefine(limitNeedsInterval);
export type DeclaredGuardrail = z.output<typeof declaredGuardrailSchema>;

/** A workspace as `WorkspaceDefaultGuardrail` takes it: its id (a UUID, any case) or its slug. */
const workspaceRef = workspaceDefaultArgsSchema.shape.workspaceId;

/** Whether a `workspaceDefaults:` key names a workspace as `WorkspaceDefaultGuardrail`'s `workspaceId` takes it. */
export const isWorkspaceKey = (key: string): boolean => workspaceRef.safeParse(key).success;

/**
 * The Pulumi resource name of a workspace's default guardrail, from its `workspaceDefaults:`
 * key: `workspace-default.<key>`, a UUID in lowercase (so its case is no rename). The `.` is
 * outside the stable-id alphabet, so no guardrail (`<id>`, `<id>-members`, `<id>-keys`) can
 * ever take this name, whatever the `namePrefix`.
 */
export const workspaceDefaultName = (key: string): string =>
  `workspace-default.${UUID_RE.test(key) ? key.toLowerCase() : key}`;

/**
 * A workspace's default guardrail (docs/api-contract.md rules 18-21): a guardrail's settings,
 * `name` optional (the service names it `Workspace <id> Default`), no `workspaceId` (the key
 * says it), no `adoptId` (it always exists) and no member or key sets (it covers everyone of
 * the workspace without a guardrail of their own); `resetOnDelete` as the resource takes it.
 */
const { workspaceId: _workspaceId, name: _name, ...defaultSettings } = guardrailSettingsShape;
const { name, resetOnDelete } = workspaceDefaultArgsSchema.shape;
export const declaredWorkspaceDefaultSchema = z
  .strictObject({ name, ...defaultSettings, resetOnDelete })
  .superRefine(limitNeedsInterval);
export type DeclaredWorkspaceDefault = z.output<typeof declaredWorkspaceDefaultSchema>;

const STABLE_ID_ERROR = "ids must be lowercase letters, digits, - or _ (at most 63), starting with a letter or digit";
const stableId = (what: string) => z.string().regex(STABLE_ID_RE, { error: `${what} ${STABLE_ID_ERROR}` });

/**
 * The word a `policies:` workspace entry gives each workspace policy kind: the program's word
 * for its kind (`budget`, `modelAccess`, `moderation`), as a WorkspaceWidePolicy's `policyType`
 * says it. From the kind table, never a list of its own.
 */
export const POLICY_SECTION: Record<PolicyTypeName, string> = Object.fromEntries(
  POLICY_TYPE_NAMES.map((t) => [t, typeWordOf(KINDS[t].policy.fields)]),
) as Record<PolicyTypeName, string>;
/** The kind a section word names. */
export const policyTypeOfSection = (word: string): PolicyTypeName | undefined =>
  POLICY_TYPE_NAMES.find((t) => POLICY_SECTION[t] === word);

/**
 * One workspace policy in a file: the resource's args (core/policies/args.ts) without
 * `workspaceId`, which the `policies:` key says: `name`, the kind's settings, `memberUserIds`,
 * `keyHashes`, `workspaceDefault`, `optedOutMemberUserIds`, `optedOutKeyHashes`.
 */
function declaredPolicySchema(t: PolicyTypeName) {
  const { workspaceId: _w, ...shape } = POLICY_ARGS[t].shape;
  const schema = z.strictObject(shape);
  return KINDS[t].policy.fields === "budget" ? schema.superRefine(budgetNeedsInterval) : schema;
}
export const DECLARED_POLICY_SCHEMAS = Object.fromEntries(
  POLICY_TYPE_NAMES.map((t) => [t, declaredPolicySchema(t)]),
) as Record<PolicyTypeName, ReturnType<typeof declaredPolicySchema>>;
export type DeclaredPolicy = z.output<(typeof DECLARED_POLICY_SCHEMAS)[PolicyTypeName]>;

/** A workspace's entry of `policies:`: per kind, policies by stable id (one default per kind: cross-file.ts). */
const workspacePoliciesSchema = z.strictObject(
  Object.fromEntries(
    POLICY_TYPE_NAMES.map((t) => [
      POLICY_SECTION[t],
      z
        .record(stableId("policy"), DECLARED_POLICY_SCHEMAS[t], {
          error: (issue) =>
            issue.code === "invalid_type" ? `must be a mapping of stable id -> ${KINDS[t].policy.noun}` : undefined,
        })
        .optional(),
    ]),
  ) as Record<string, z.ZodOptional<z.ZodRecord<z.ZodString, (typeof DECLARED_POLICY_SCHEMAS)[PolicyTypeName]>>>,
);

/** A workspace-wide policy in a file: the resource's args as they are. */
export const declaredWorkspaceWideSchema = WORKSPACE_WIDE_ARGS;
export type DeclaredWorkspaceWidePolicy = z.output<typeof WORKSPACE_WIDE_ARGS>;

/**
 * The Pulumi resource name of a declared policy: `policy.<id>` and `workspace-wide-policy.<id>`
 * (the `.` keeps them apart from every guardrail's name, whatever the `namePrefix`). Ids are
 * unique across the files' policies, whatever their workspace or kind, so moving a policy to
 * another workspace replaces it (as the resource does) under the same name.
 */
export const policyName = (id: string): string => `policy.${id}`;
export const workspaceWideName = (id: string): string => `workspace-wide-policy.${id}`;

export const guardrailFileSchema = z
  .strictObject({
    $schema: z.string().optional(),
    guardrails: z
      .record(
        z.string().regex(STABLE_ID_RE, {
          error:
            "guardrail ids must be lowercase letters, digits, - or _ (at most 63), starting with a letter or digit",
        }),
        declaredGuardrailSchema,
        {
          error: (issue) =>
            issue.code === "invalid_type" ? "must be a mapping of stable id -> guardrail settings" : undefined,
        },
      )
      .optional(),
    workspaceDefaults: z
      .record(workspaceRef, declaredWorkspaceDefaultSchema, {
        error: (issue) =>
          issue.code === "invalid_type"
            ? "must be a mapping of workspace id or slug -> default guardrail settings"
            : undefined,
      })
      .optional(),
    policies: z
      .record(workspaceRef, workspacePoliciesSchema, {
        error: (issue) =>
          issue.code === "invalid_type"
            ? `must be a mapping of workspace id or slug -> ${Object.values(POLICY_SECTION).join(", ")} policies`
            : undefined,
      })
      .optional(),
    workspaceWidePolicies: z
      .record(stableId("workspace-wide policy"), declaredWorkspaceWideSchema, {
        error: (issue) =>
          issue.code === "invalid_type" ? "must be a mapping of stable id -> workspace-wide policy" : undefined,
      })
      .optional(),
  })
  .superRefine((file, ctx) => {
    // A file that declares nothing is most likely not a guardrail file at all.
    if (
      file.guardrails === undefined &&
      file.workspaceDefaults === undefined &&
      file.policies === undefined &&
      file.workspaceWidePolicies === undefined
    )
      ctx.addIssue({
        code: "custom",
        path: ["guardrails"],
        message: "is required (or workspaceDefaults:, policies:, workspaceWidePolicies:, or several)",
        params: { missing: true },
      });
  });

/** Keys each level accepts, for did-you-mean suggestions. */
export const KNOWN_KEYS = {
  file: Object.keys(guardrailFileSchema.shape),
  guardrail: Object.keys(declaredGuardrailSchema.shape),
  workspaceDefault: Object.keys(declaredWorkspaceDefaultSchema.shape),
  workspacePolicies: Object.keys(workspacePoliciesSchema.shape),
  policy: Object.fromEntries(
    POLICY_TYPE_NAMES.map((t) => [POLICY_SECTION[t], Object.keys(DECLARED_POLICY_SCHEMAS[t].shape)]),
  ) as Record<string, string[]>,
  workspaceWide: Object.keys(WORKSPACE_WIDE_ARGS.shape),
  set: Object.keys(assignmentSetSchema.shape),
  builtin: Object.keys(builtinFilterArgs.shape),
  filter: Object.keys(customFilterArgs.shape),
};

/** The JSON Schema for editors (yaml-language-server), from the zod schema above. */
export function guardrailFileJsonSchema(): Record<string, unknown> {
  return editorJsonSchema(
    guardrailFileSchema,
    "guardrails.schema.json",
    "pulumi-guardrails declarative guardrail file",
    "Guardrails keyed by a stable id, with the settings of GuardrailArgs and member/key sets; workspace default guardrails keyed by workspace id or slug; Guardrail Policies per workspace and kind, keyed by a stable id; workspace-wide policies keyed by a stable id. See docs/guides/declarative-configs.md.",
  );
}
