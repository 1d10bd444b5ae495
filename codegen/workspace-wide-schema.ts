/**
 * The native schema of a workspace-wide policy (issue 40): its args from the core's schema (every
 * kind's settings, documented in the field table; which ones a policy takes follows its
 * `policyType`, checked by the core; the rest from WORKSPACE_WIDE_ARG_DOCS), the same as
 * outputs, and the outputs the service adds.
 */
import { z } from "zod";
import { FIELDS } from "../src/core/fields/fields";
import { WORKSPACE_WIDE_ARG_DOCS, WORKSPACE_WIDE_ARGS } from "../src/core/policies/workspace-wide-args";
import { type ArgDoc, coreDoc } from "./docs-tables";
import { asOutput, documented, type Json, jsonOf, type PulumiProperty, pulumiType } from "./pulumi-types";

type Properties = Record<string, PulumiProperty>;

/** The outputs a workspace-wide policy records beside its args. */
const OUTPUTS: Properties = {
  policyId: { type: "string", description: "The policy's id (also the resource's id)." },
  workspaceCount: {
    type: "integer",
    description: "How many workspaces the service says the policy covers (the API's `workspace_count`).",
  },
  updatedAt: { type: "string", description: "When the service last changed the policy (ISO 8601)." },
};

/** A workspace-wide policy's resource in the native schema. */
export function workspaceWideResource(docs: Map<string, ArgDoc>) {
  const json = (z.toJSONSchema(WORKSPACE_WIDE_ARGS, { io: "input", unrepresentable: "any" }) as Json).properties ?? {};
  const inputs: Properties = {};
  for (const k of Object.keys(json)) {
    const s = k in FIELDS ? jsonOf(FIELDS[k as keyof typeof FIELDS].arg) : json[k];
    if (!s) throw new Error(`no JSON Schema for the arg ${k}`);
    const doc = k in FIELDS ? docs.get(k) : coreDoc(WORKSPACE_WIDE_ARG_DOCS, k, "native");
    inputs[k] = { ...pulumiType(s, k), ...documented(doc, k) };
  }
  const required = ["name", "policyType"];
  return {
    description:
      "A workspace-wide (\"account\") Guardrail Policy of one kind and the workspaces it covers: it applies to every member and API key of those workspaces, and a workspace's own policies can add restrictions but never loosen one. `policyType` is the one arg whose change replaces it. Import it by the policy's id.",
    inputProperties: inputs,
    requiredInputs: required,
    properties: { ...Object.fromEntries(Object.entries(inputs).map(([k, p]) => [k, asOutput(p)])), ...OUTPUTS },
    required: [...required, "policyId", "workspaceIds", "allWorkspaces", "optedOutWorkspaceIds"],
  };
}
