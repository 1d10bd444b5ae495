/**
 * A workspace-wide policy's args (issue 40, design-40.md "WorkspaceWidePolicy"): its name, its
 * kind (`policyType`), that kind's settings only (the field table's `policy` column, the same
 * strict schemas as a Guardrail's; another kind's setting is refused naming the field and the
 * type), and the workspaces it covers. Pure: no client.
 */
import { z } from "zod";
import type { ArgDoc } from "../arg-doc";
import { guardrailSettingsShape, limitNeedsInterval } from "../args/guardrail-args";
import { POLICY_SETTINGS_SHAPES } from "../args/policy-args";
import { UUID_RE } from "../fields/constants";
import type { FieldName } from "../fields/fields";
import {
  POLICY_FIELDS,
  POLICY_KINDS,
  type PolicyKind,
  policyKindOfField,
  WW_POLICY_TYPES,
} from "../fields/policy-kinds";

export { WW_POLICY_TYPES };
/** A `policyType` as a program writes it. */
export type WorkspaceWidePolicyType = keyof typeof WW_POLICY_TYPES;
const TYPE_WORDS = Object.keys(WW_POLICY_TYPES) as WorkspaceWidePolicyType[];
/** The program's word for a field table kind. */
export const typeWordOf = (kind: PolicyKind): WorkspaceWidePolicyType =>
  TYPE_WORDS.find((t) => WW_POLICY_TYPES[t] === kind)!;

const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** A workspace id as the service's records hold it: a UUID (any case; lower-cased). */
const workspaceId = z
  .string({ error: "workspace ids must be strings" })
  .refine((v) => UUID_RE.test(v), {
    error: "workspace ids must be UUIDs (the getWorkspaces data source lists them; a slug is not taken here)",
  })
  .transform((v) => v.toLowerCase());
const workspaceIds = optional(z.array(workspaceId, { error: "must be a list of workspace ids (UUIDs)" }));

/** Every kind's settings, each optional: which ones a policy may hold depends on its `policyType`. */
const settingsShape = Object.assign({}, ...POLICY_KINDS.map((k) => POLICY_SETTINGS_SHAPES[k])) as {
  [P in PolicyKind]: (typeof POLICY_SETTINGS_SHAPES)[P];
}[PolicyKind];

const commonShape = {
  name: guardrailSettingsShape.name,
  policyType: z.enum(TYPE_WORDS, { error: `must be one of ${TYPE_WORDS.map((t) => `"${t}"`).join(", ")}` }),
  workspaceIds,
  allWorkspaces: optional(z.boolean({ error: "must be true or false" })),
  optedOutWorkspaceIds: workspaceIds,
};

/** The args schema: a kind's settings only; a budget's `limitUsd` (with its `resetInterval`) required. */
export const WORKSPACE_WIDE_ARGS = z.strictObject({ ...commonShape, ...settingsShape }).superRefine((v, ctx) => {
  const kind = WW_POLICY_TYPES[v.policyType];
  const bag = v as Record<string, unknown>;
  for (const k of Object.keys(settingsShape) as FieldName[]) {
    const of = policyKindOfField(k);
    if (of === null || of === kind || bag[k] === undefined || bag[k] === null) continue;
    ctx.addIssue({
      code: "custom",
      path: [k],
      input: bag[k],
      message: `is a setting of a "${typeWordOf(of)}" policy; a policyType "${v.policyType}" policy takes ${POLICY_FIELDS[kind].join(", ")}`,
    });
  }
  if (kind === "budget") {
    if (bag.limitUsd === undefined || bag.limitUsd === null)
      // As zod reports a missing required arg ("is required"), with no value to show.
      ctx.addIssue({ code: "invalid_type", expected: "number", path: ["limitUsd"], input: undefined });
    limitNeedsInterval(bag as { limitUsd?: unknown }, ctx);
  }
  if (v.allWorkspaces === true && v.workspaceIds !== undefined && v.workspaceIds.length > 0)
    ctx.addIssue({
      code: "custom",
      path: ["workspaceIds"],
      input: v.workspaceIds,
      message:
        "is not used when allWorkspaces is true (the policy covers every workspace); list exceptions in optedOutWorkspaceIds instead",
    });
});

/** The args after `check`. */
export type WorkspaceWideInputs = z.output<z.ZodObject<typeof commonShape>> & Partial<Record<FieldName, unknown>>;

/** The arg names a program may write, in the schema's order. */
export const WORKSPACE_WIDE_ARG_NAMES = [...Object.keys(commonShape), ...Object.keys(settingsShape)];

/**
 * The docs of the args that are not the field table's (whose docs are its JSDoc): a new one does
 * not compile until it is described here. src/dynamic/workspace-wide-policy.ts repeats them as
 * JSDoc for the IDE.
 */
export const WORKSPACE_WIDE_ARG_DOCS: Record<Exclude<keyof typeof commonShape, "name">, ArgDoc> = {
  policyType: {
    text: 'The policy\'s kind: `"budget"`, `"modelAccess"` (the API\'s `model_availability`) or `"moderation"`; it takes that kind\'s settings only. **A change replaces the resource.**',
  },
  workspaceIds: {
    text: "The workspaces the policy covers (the API's `workspace_ids`), by id (UUID); a set: order and duplicates do not matter. The complete list: an update replaces the coverage whole. Not used with `allWorkspaces`.",
    fallback: "none",
  },
  allWorkspaces: {
    text: "Whether the policy covers every workspace of the organization, present and future (the API's `is_default`), but those in `optedOutWorkspaceIds`.",
    fallback: "false",
  },
  optedOutWorkspaceIds: {
    text: "Workspaces the policy does not cover even though `allWorkspaces` or `workspaceIds` names them (the API's `opted_out_workspace_ids`), by id (UUID); a set.",
    fallback: "none",
  },
};
