/**
 * The data sources' part of the package schema: the `functions` map (one entry per invoke
 * token, inputs and outputs in the program's names, each described) and the object types their
 * answers list (`types`). schema.ts merges both into the package schema.
 */
import { NAME_REGEX_MAX } from "../core/data-sources/args";
import { FIELD_NAMES } from "../core/fields/fields";
import { FUNCTION_TOKENS } from "./invoke";
import { accessFunctions, accessFunctionTypes } from "./schema-access-functions";
import { policyFunctions, policyFunctionTypes } from "./schema-policy-functions";

type Property = Record<string, unknown>;
type Properties = Record<string, Property>;

/** The object type of one guardrail in `getGuardrails`' answer. */
export const GUARDRAIL_INFO_TYPE = "guardrails:index:getGuardrailsGuardrail";
/** The object type of one workspace in `getWorkspaces`' answer. */
export const WORKSPACE_INFO_TYPE = "guardrails:index:getWorkspacesWorkspace";

const str = (description: string) => ({ type: "string", description });
const ids = (description: string) => ({ type: "array", items: { type: "string" }, description });

/** A guardrail as every lookup answers it: the resource's settings plus its id, workspace and timestamps. */
function guardrailInfo(guardrailProperties: Properties): { properties: Properties; required: string[] } {
  const settings = Object.fromEntries(
    FIELD_NAMES.filter((k) => guardrailProperties[k]).map((k) => [k, guardrailProperties[k]!]),
  );
  return {
    properties: {
      id: str("The guardrail's id."),
      ...settings,
      workspaceId: str("The guardrail's workspace (absent only for a guardrail older than workspaces)."),
      createdAt: str("When the guardrail was created (ISO 8601)."),
      updatedAt: str("When the guardrail was last updated (ISO 8601); absent when never."),
    },
    required: ["id", "name", "createdAt"],
  };
}

/** A workspace as both workspace lookups answer it (docs/api-contract.md rule 17). */
const workspaceInfo = {
  properties: {
    id: str("The workspace's id (UUID): what a guardrail's `workspaceId` takes."),
    name: str("The workspace's name."),
    slug: str("The workspace's slug (lowercase words joined by hyphens)."),
    description: str("The workspace's description; absent when it has none."),
    createdAt: str("When the workspace was created (ISO 8601)."),
    updatedAt: str("When the workspace was last updated (ISO 8601); absent when never."),
    defaultGuardrailId: str(
      "The id of the workspace's default guardrail, which covers every member and API key of the workspace without a guardrail of its own. It exists (with no restriction) even before anything wrote it.",
    ),
  },
  required: ["id", "defaultGuardrailId"],
};

/** The object types the functions' outputs refer to (`getGuardrails`' list), for the schema's `types`. */
export function functionTypes(guardrailProperties: Properties): Record<string, unknown> {
  return {
    [GUARDRAIL_INFO_TYPE]: {
      type: "object",
      description: "A guardrail found by getGuardrails.",
      ...guardrailInfo(guardrailProperties),
    },
    [WORKSPACE_INFO_TYPE]: { type: "object", description: "A workspace found by getWorkspaces.", ...workspaceInfo },
    ...policyFunctionTypes(guardrailProperties),
    ...accessFunctionTypes(),
  };
}

/**
 * The schema's `functions` map, given the Guardrail resource's properties (a setting's type and
 * description are the resource's own). Its outputs refer to `functionTypes`, which go in `types`.
 */
export function functionSpecs(guardrailProperties: Properties): Record<string, unknown> {
  const info = guardrailInfo(guardrailProperties);
  const guardrailId = str("The guardrail's id (UUID).");
  const workspaceId = str("The workspace to look in (UUID). Default: the organization's default workspace.");
  return {
    [FUNCTION_TOKENS.getGuardrail]: {
      description:
        "One guardrail, by `id`, or by exact `name` (within `workspaceId`). Give exactly one of `id` and `name`. " +
        "Fails when nothing matches, and when a name matches more than one guardrail (the message names every id).",
      inputs: {
        properties: {
          id: str("The guardrail's id (UUID). Give this or `name`."),
          name: str("The guardrail's exact name. Give this or `id`."),
          workspaceId: str("With `name`: the workspace to look in (UUID). Default: the default workspace."),
        },
      },
      outputs: info,
    },
    [FUNCTION_TOKENS.getGuardrails]: {
      description:
        "The guardrails of a workspace, sorted by name then id, optionally those whose name matches `nameRegex`.",
      inputs: {
        properties: {
          workspaceId,
          nameRegex: str(
            `An RE2 regular expression (https://github.com/google/re2/wiki/Syntax: no lookarounds, no backreferences), matched in linear time, unanchored (\`^eng-\` for a prefix), at most ${NAME_REGEX_MAX} characters. Default: every guardrail.`,
          ),
        },
      },
      outputs: {
        properties: {
          guardrails: {
            type: "array",
            items: { $ref: `#/types/${GUARDRAIL_INFO_TYPE}` },
            description: "The guardrails found.",
          },
          ids: ids("Their ids, in the same order."),
        },
        required: ["guardrails", "ids"],
      },
    },
    [FUNCTION_TOKENS.getGuardrailMembers]: {
      description: "The member user ids assigned to a guardrail (as `GuardrailMemberAssignment` names them).",
      inputs: { properties: { guardrailId }, required: ["guardrailId"] },
      outputs: {
        properties: { guardrailId, memberUserIds: ids("The member user ids assigned, sorted.") },
        required: ["guardrailId", "memberUserIds"],
      },
    },
    [FUNCTION_TOKENS.getGuardrailKeys]: {
      description: "The API key hashes assigned to a guardrail (as `GuardrailKeyAssignment` names them).",
      inputs: { properties: { guardrailId }, required: ["guardrailId"] },
      outputs: {
        properties: { guardrailId, keyHashes: ids("The key hashes assigned, sorted.") },
        required: ["guardrailId", "keyHashes"],
      },
    },
    ...workspaceFunctions(),
    ...policyFunctions(guardrailProperties),
    ...accessFunctions(),
  };
}

/** `getWorkspace` and `getWorkspaces`: a workspace's id from its name or slug, with its default guardrail's id. */
function workspaceFunctions(): Record<string, unknown> {
  return {
    [FUNCTION_TOKENS.getWorkspace]: {
      description:
        "One workspace, by `id`, `slug` or exact `name` (give exactly one), with the id of its default guardrail. " +
        "Fails when nothing matches, and when a name matches more than one workspace (the message names every id).",
      inputs: {
        properties: {
          id: str("The workspace's id (UUID). Give this, `slug` or `name`."),
          slug: str("The workspace's slug. Give this, `id` or `name`."),
          name: str("The workspace's exact name. Give this, `id` or `slug`."),
        },
      },
      outputs: workspaceInfo,
    },
    [FUNCTION_TOKENS.getWorkspaces]: {
      description: "Every workspace of the organization, sorted by name then id, each with its default guardrail's id.",
      inputs: { properties: {} },
      outputs: {
        properties: {
          workspaces: {
            type: "array",
            items: { $ref: `#/types/${WORKSPACE_INFO_TYPE}` },
            description: "The workspaces, sorted by name then id (a workspace without a name last).",
          },
          ids: ids("Their ids, in the same order."),
        },
        required: ["workspaces", "ids"],
      },
    },
  };
}
