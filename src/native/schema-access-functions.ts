/**
 * The effective-access lookups' part of the package schema (issue 41): `getEffectiveAccess` and
 * `getSubjectGuardrail`, their args and answers; the answers' object types are in
 * schema-access-types.ts. schema-functions.ts merges both into the `functions` and `types` maps.
 */
import { FUNCTION_TOKENS } from "./invoke";
import { ACCESS_TYPES as T, bool, list, type Properties, ref, str } from "./schema-access-types";

export { accessFunctionTypes } from "./schema-access-types";
/** Both lookups' args and who they answer about. */
function accessArgs(): { inputs: Record<string, unknown>; who: Properties } {
  const secretNote = "Messages never quote it; a secret one stays secret in the answer.";
  return {
    inputs: {
      properties: {
        memberId: str(`A member's user id (\`user_...\`). Give this or \`keyHash\`. ${secretNote}`),
        keyHash: str(`An API key's hash. Give this or \`memberId\`. ${secretNote}`),
        ownerMemberId: str(
          "With `keyHash`: the member who owns the key (the service does not say). Without it, the owner's layers are left out and the answer may claim more access than the service grants.",
        ),
        workspaceId: str(
          "The workspace: its id (UUID) or slug. Default: the organization's only workspace (with more than one, it is required).",
        ),
      },
    },
    who: {
      workspaceId: str("The workspace's id."),
      memberId: str("The member asked about; absent when a key was."),
      keyHash: str("The API key asked about; absent when a member was."),
      ownerMemberId: str("For a key: the owner given; absent when none was."),
      ownerKnown: bool(
        "false for a key whose owner was not given: its owner's layers are left out, and the answer may claim more access than the service grants.",
      ),
    },
  };
}

const CALLS =
  "Each org-wide assignment listing is read once: 11 calls for a member, 15 for a key with its owner (one page each; omitting `workspaceId` costs one more).";

/** `getEffectiveAccess` and `getSubjectGuardrail` (issue 41). */
export function accessFunctions(): Record<string, unknown> {
  const { inputs, who } = accessArgs();
  return {
    [FUNCTION_TOKENS.getEffectiveAccess]: {
      description: `What a member or an API key can use in a workspace after every layer applies: the layers found (guardrails and Guardrail Policies, with ids and names) and the combined access, each part with the layers it comes from. ${CALLS}`,
      inputs,
      outputs: {
        properties: {
          ...who,
          layers: list(T.layer, "Every layer that applies, each once."),
          access: ref(T.access, "What the layers leave."),
        },
        required: ["workspaceId", "ownerKnown", "layers", "access"],
      },
    },
    [FUNCTION_TOKENS.getSubjectGuardrail]: {
      description: `Which guardrails and which Guardrail Policies a member or an API key is on in a workspace. ${CALLS}`,
      inputs,
      outputs: {
        properties: {
          ...who,
          guardrails: list(
            T.layer,
            "The guardrails that apply: the workspace default (when it does), the member's (a key's owner's) and a key's own.",
          ),
          policies: list(
            T.layer,
            "The policies that apply: assigned, inherited as the workspace default, and workspace-wide.",
          ),
        },
        required: ["workspaceId", "ownerKnown", "guardrails", "policies"],
      },
    },
  };
}
