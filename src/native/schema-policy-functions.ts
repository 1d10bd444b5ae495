/**
 * The Guardrail Policies data sources' part of the package schema (issue 40): `getPolicies`,
 * `getPolicy` and `getSubjectPolicies`, and the object types their answers list. A setting's
 * type and description are the Guardrail resource's own (the field table's `policy` column
 * picks which); schema-functions.ts merges these into the `functions` and `types` maps.
 */
import { POLICY_FIELDS, POLICY_KINDS } from "../core/fields/policy-kinds";
import { FIELD_NAMES } from "../core/fields/fields";
import { FUNCTION_TOKENS } from "./invoke";

type Properties = Record<string, Record<string, unknown>>;
const str = (description: string) => ({ type: "string", description });
const ids = (description: string) => ({ type: "array", items: { type: "string" }, description });
const bool = (description: string) => ({ type: "boolean", description });
const int = (description: string) => ({ type: "integer", description });

/** The object type of one policy in `getPolicies`' answer. */
export const POLICY_SUMMARY_TYPE = "guardrails:index:getPoliciesPolicy";
/** The object type of one kind's state in `getSubjectPolicies`' answer. */
export const SUBJECT_ASSIGNMENT_TYPE = "guardrails:index:getSubjectPoliciesAssignment";
/** The object type of one workspace-wide policy in `getSubjectPolicies`' answer. */
export const WORKSPACE_WIDE_INFO_TYPE = "guardrails:index:getSubjectPoliciesWorkspaceWidePolicy";

const policyTypeText =
  "The policy's kind: `budget`, `modelAccess` (the API's `model_availability`, as in `ModelAccessPolicy`) or `moderation`.";

/** Every policy setting (the field table's rows with a policy kind), with the Guardrail's type and description. */
function policySettings(guardrailProperties: Properties): Properties {
  const names = new Set<string>(POLICY_KINDS.flatMap((k) => POLICY_FIELDS[k]));
  return Object.fromEntries(
    FIELD_NAMES.filter((k) => names.has(k) && guardrailProperties[k]).map((k) => [k, guardrailProperties[k]!]),
  );
}

/** What a policy's summary and detail share. */
function policyCommon(guardrailProperties: Properties): Properties {
  return {
    id: str("The policy's id (UUID)."),
    policyType: str(policyTypeText),
    name: str("The policy's name."),
    ...policySettings(guardrailProperties),
    workspaceDefault: bool("Whether it is its workspace's default for its kind (the API's `is_workspace_default`)."),
    legacyMapped: bool(
      "Whether the service keeps it in sync with a guardrail (the API's `is_legacy_mapped`); absent when the service does not say.",
    ),
    legacyGuardrailIds: ids("The guardrails it was migrated from (`legacy_guardrail_ids`), sorted."),
    replacedLegacyGuardrailIds: ids("The guardrails it replaced (`replaced_legacy_guardrail_ids`), sorted."),
    updatedAt: str("When it was last updated (ISO 8601); absent when never."),
  };
}
const COMMON_REQUIRED = [
  "id",
  "policyType",
  "name",
  "workspaceDefault",
  "legacyGuardrailIds",
  "replacedLegacyGuardrailIds",
];

function policySummary(guardrailProperties: Properties): { properties: Properties; required: string[] } {
  return {
    properties: {
      ...policyCommon(guardrailProperties),
      memberCount: int("How many members it is assigned to directly (`member_count`)."),
      keyCount: int("How many API keys it is assigned to directly (`api_key_count`)."),
    },
    required: [...COMMON_REQUIRED, "memberCount", "keyCount"],
  };
}

function policyDetail(guardrailProperties: Properties): { properties: Properties; required: string[] } {
  return {
    properties: {
      ...policyCommon(guardrailProperties),
      workspaceId: str("The policy's workspace (its id, also when a slug was given)."),
      memberUserIds: ids("The members it is assigned to directly (`member_ids`), sorted."),
      keyHashes: ids("The API keys it is assigned to directly (`api_key_hashes`), sorted."),
      optedOutMemberUserIds: ids(
        "Members that do not inherit it as the workspace default (`opted_out_member_ids`), sorted; absent when the service does not say.",
      ),
      optedOutKeyHashes: ids(
        "API keys that do not inherit it as the workspace default (`opted_out_api_key_hashes`), sorted.",
      ),
      overriddenMemberUserIds: ids(
        "Members with another policy of its kind assigned directly (`overridden_member_ids`), sorted; absent when not said.",
      ),
      overriddenKeyHashes: ids(
        "API keys with another policy of its kind assigned directly (`overridden_api_key_hashes`), sorted.",
      ),
      reference: str(
        "`legacy_mapping` (synced from a guardrail), `account_default`, or absent (the API's `reference`).",
      ),
    },
    required: [
      ...COMMON_REQUIRED,
      "workspaceId",
      "memberUserIds",
      "keyHashes",
      "optedOutKeyHashes",
      "overriddenKeyHashes",
    ],
  };
}

/** One kind's state for a member or key (docs/api-contract.md rule 25). */
const subjectAssignment = {
  properties: {
    policyIds: ids("The policies of the kind assigned to it directly, sorted."),
    workspaceDefaultPolicyIds: ids("The workspace defaults of the kind it inherits, sorted."),
    optedOut: bool("Whether it opted out of the kind's workspace default."),
  },
  required: ["policyIds", "workspaceDefaultPolicyIds", "optedOut"],
};

function workspaceWideInfo(guardrailProperties: Properties): { properties: Properties; required: string[] } {
  return {
    properties: {
      id: str("The policy's id (UUID)."),
      name: str("The policy's name."),
      policyType: str(
        `${policyTypeText} A kind this package does not know keeps the API's \`policy_type\` and no settings.`,
      ),
      ...policySettings(guardrailProperties),
      allWorkspaces: bool("Whether it covers every workspace but the opted-out ones (the API's `is_default`)."),
      workspaceIds: ids("The workspaces it names (`workspace_ids`), sorted; absent when the service does not say."),
      updatedAt: str("When it was last updated (ISO 8601); absent when never."),
    },
    required: ["id", "name", "policyType", "allWorkspaces"],
  };
}

/** The object types the policy functions' answers list, for the schema's `types`. */
export function policyFunctionTypes(guardrailProperties: Properties): Record<string, unknown> {
  return {
    [POLICY_SUMMARY_TYPE]: {
      type: "object",
      description: "A Guardrail Policy found by getPolicies (a summary: its assignees counted, not listed).",
      ...policySummary(guardrailProperties),
    },
    [SUBJECT_ASSIGNMENT_TYPE]: {
      type: "object",
      description: "What applies to a member or API key for one policy kind (the API's assignment state).",
      ...subjectAssignment,
    },
    [WORKSPACE_WIDE_INFO_TYPE]: {
      type: "object",
      description: "A workspace-wide (the API's account) policy covering the workspace.",
      ...workspaceWideInfo(guardrailProperties),
    },
  };
}

/** `getPolicies`, `getPolicy` and `getSubjectPolicies` (issue 40). */
export function policyFunctions(guardrailProperties: Properties): Record<string, unknown> {
  const workspaceId = str(
    "The workspace: its id (UUID, any case) or its slug. A slug costs one more call (`GET /workspaces/{slug}`); answers name the id.",
  );
  const assignment = (what: string) => ({ $ref: `#/types/${SUBJECT_ASSIGNMENT_TYPE}`, description: what });
  return {
    [FUNCTION_TOKENS.getPolicies]: {
      description:
        "The Guardrail Policies of a workspace, summaries sorted by kind, name and id: with `policyType`, that kind's only (one list read, every page), else all three (three lists).",
      inputs: {
        properties: { workspaceId, policyType: str(`${policyTypeText} Default: every kind.`) },
        required: ["workspaceId"],
      },
      outputs: {
        properties: {
          workspaceId: str("The workspace's id."),
          policies: {
            type: "array",
            items: { $ref: `#/types/${POLICY_SUMMARY_TYPE}` },
            description: "The policies found, sorted by kind (budget, modelAccess, moderation), name, id.",
          },
          ids: ids("Their ids, in the same order."),
        },
        required: ["workspaceId", "policies", "ids"],
      },
    },
    [FUNCTION_TOKENS.getPolicy]: {
      description:
        "One Guardrail Policy with its settings, members, keys, opt-outs, default flag, `reference` and legacy fields: one call. Fails, naming the kind, id and workspace, when the workspace has no such policy.",
      inputs: {
        properties: { policyType: str(policyTypeText), id: str("The policy's id (UUID)."), workspaceId },
        required: ["policyType", "id", "workspaceId"],
      },
      outputs: policyDetail(guardrailProperties),
    },
    [FUNCTION_TOKENS.getSubjectPolicies]: {
      description:
        "The Guardrail Policies that apply to one member or API key in a workspace: per kind, the policies assigned to it directly, the workspace defaults it inherits and whether it opted out (one call per kind), and the workspace-wide policies covering the workspace (one list). Give exactly one of `memberId` and `keyHash`; messages never quote it, and a secret one stays secret in the answer.",
      inputs: {
        properties: {
          memberId: str("A member's user id (`user_...`). Give this or `keyHash`."),
          keyHash: str("An API key's hash. Give this or `memberId`."),
          workspaceId,
          workspaceWide: bool(
            "Whether to read the workspace-wide policies covering the workspace (one more call). A workspace-scoped key cannot: pass false with one. Default: true.",
          ),
        },
        required: ["workspaceId"],
      },
      outputs: {
        properties: {
          workspaceId: str("The workspace's id."),
          memberId: str("The member asked about; absent when a key was."),
          keyHash: str("The API key asked about; absent when a member was."),
          budget: assignment("Its budget policies."),
          modelAccess: assignment("Its model access (the API's model availability) policies."),
          moderation: assignment("Its moderation policies."),
          workspaceWidePolicies: {
            type: "array",
            items: { $ref: `#/types/${WORKSPACE_WIDE_INFO_TYPE}` },
            description:
              "The workspace-wide policies covering the workspace, sorted by kind, name, id; absent with `workspaceWide: false`.",
          },
        },
        required: ["workspaceId", "budget", "modelAccess", "moderation"],
      },
    },
  };
}
