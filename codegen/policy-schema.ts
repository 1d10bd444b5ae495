/**
 * The native schema of a workspace policy (issue 40): its args from the core's schema (the
 * field table's settings of its kind, documented there; the rest from POLICY_ARG_DOCS), the same
 * as outputs, and the outputs the service adds.
 */
import { z } from "zod";
import { FIELDS } from "../src/core/fields/fields";
import { KINDS, type PolicyTypeName } from "../src/core/kinds";
import { POLICY_ARG_DOCS, POLICY_ARGS } from "../src/core/policies/args";
import { type ArgDoc, coreDoc } from "./docs-tables";
import { asOutput, documented, type Json, jsonOf, type PulumiProperty, pulumiType } from "./pulumi-types";

type Properties = Record<string, PulumiProperty>;
const listOf = { type: "array", items: { type: "string" } };

/** The outputs a policy records beside its args. */
const POLICY_OUTPUTS: Record<string, { type: string; description: string }> = {
  policyId: { type: "string", description: "The policy's id (also the resource's id)." },
  overriddenMemberUserIds: {
    type: "array",
    description: "Members with another policy of this kind assigned directly (the API's `overridden_member_ids`).",
  },
  overriddenKeyHashes: {
    type: "array",
    description: "API keys with another policy of this kind assigned directly (the API's `overridden_api_key_hashes`).",
  },
  legacyGuardrailIds: {
    type: "array",
    description: "The guardrails this policy was migrated from (the API's `legacy_guardrail_ids`).",
  },
  reference: {
    type: "string",
    description:
      "`legacy_mapping` while the policy follows a guardrail, `account_default`, or none (the API's `reference`).",
  },
  updatedAt: { type: "string", description: "When the service last changed the policy (ISO 8601)." },
};

/** A workspace policy kind's resource in the native schema. */
export function policyResource(type: PolicyTypeName, docs: Map<string, ArgDoc>) {
  const schema = POLICY_ARGS[type];
  const json = (z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json).properties ?? {};
  const inputs: Properties = {};
  for (const k of Object.keys(schema.shape)) {
    const s = k in FIELDS ? jsonOf(FIELDS[k as keyof typeof FIELDS].arg) : json[k];
    if (!s) throw new Error(`no JSON Schema for the arg ${k}`);
    const doc = k in FIELDS ? docs.get(k) : coreDoc(POLICY_ARG_DOCS, k, "native");
    inputs[k] = { ...pulumiType(s, k), ...documented(doc, k) };
  }
  const properties: Properties = {
    ...Object.fromEntries(Object.entries(inputs).map(([k, p]) => [k, asOutput(p)])),
    workspaceId: { type: "string", description: "The workspace's id (a UUID)." },
    ...Object.fromEntries(
      Object.entries(POLICY_OUTPUTS).map(([k, o]) => [
        k,
        { ...(o.type === "array" ? listOf : { type: o.type }), description: o.description },
      ]),
    ),
  };
  const required =
    KINDS[type].policy.fields === "budget" ? ["workspaceId", "name", "limitUsd"] : ["workspaceId", "name"];
  return {
    description: `A workspace's ${KINDS[type].policy.noun} (Guardrail Policies), with the members and API keys it is assigned to, whether it is the workspace default and who opts out of that. \`workspaceId\` is the one arg whose change replaces it. Import it by \`<workspaceId>/<policyId>\`.`,
    inputProperties: inputs,
    requiredInputs: required,
    properties,
    required: [...required, "policyId", "workspaceDefault"],
  };
}
