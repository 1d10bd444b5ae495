/**
 * The assignment sets' part of the package schema: their inputs in the program's names (the
 * id list), and the outputs beside them (the status map). Descriptions as the dynamic face's
 * classes say them (src/dynamic/assignments.ts).
 */
import { KEY_KIND, MEMBER_KIND, type AssignmentSetKind } from "../core/assignments/kind";
import { NATIVE_KEY_ASSIGNMENT_TYPE, NATIVE_MEMBER_ASSIGNMENT_TYPE } from "../core/type-tokens";

const LIST_DESCRIPTION = {
  member: "Organization member user ids (`user_...`); a set: order and duplicates do not matter.",
  key: "API key hashes; a set: order and duplicates do not matter.",
} as const;

const RESOURCE_DESCRIPTION = {
  member:
    "Members of one guardrail. A member holds at most one guardrail per workspace: assigning it here moves it off any other guardrail of this guardrail's workspace. Import with the id `<guardrail id>/members`.",
  key: "API keys of one guardrail. A key holds at most one guardrail at all. Import with the id `<guardrail id>/keys`.",
} as const;

function setSchema(kind: AssignmentSetKind) {
  const inputs = {
    guardrailId: {
      type: "string",
      description:
        "The guardrail (its id, e.g. `guardrail.id`). **Changing it replaces the resource**; the ids end up on the new guardrail either way.",
    },
    [kind.argName]: { type: "array", items: { type: "string" }, description: LIST_DESCRIPTION[kind.noun] },
    exclusive: {
      type: "boolean",
      description:
        "`false` (additive): manage exactly the listed ids and never touch others. `true` (exclusive): own the guardrail's whole set; ids assigned out of band are removed. Changing it updates in place. Default: false.",
    },
  };
  return {
    description: RESOURCE_DESCRIPTION[kind.noun],
    inputProperties: inputs,
    requiredInputs: ["guardrailId", kind.argName],
    properties: {
      ...inputs,
      [kind.argName]: { ...inputs[kind.argName], description: `The listed ${kind.noun}s assigned here, sorted.` },
      [kind.stateKey]: {
        type: "object",
        additionalProperties: { $ref: "pulumi.json#/Any" },
        description: `Each listed ${kind.noun}'s status: \`true\` when assigned here, else where it went.`,
      },
    },
    required: ["guardrailId", kind.argName, kind.stateKey, "exclusive"],
  };
}

/** The schema's `resources` entries of the two set kinds. */
export function setResourceSchemas(): Record<string, unknown> {
  return {
    [NATIVE_MEMBER_ASSIGNMENT_TYPE]: setSchema(MEMBER_KIND),
    [NATIVE_KEY_ASSIGNMENT_TYPE]: setSchema(KEY_KIND),
  };
}
