/**
 * The Pulumi package schema of the native face, derived from the args schema (itself derived
 * from the field table, core/fields/fields.ts) through zod's JSON Schema: each arg's type and
 * description. A spike: nested objects are `pulumi.json#/Any`; the full generator names them.
 */
import { z } from "zod";
import { guardrailArgsSchema } from "../core/args/guardrail-args";
import { NATIVE_GUARDRAIL_TYPE } from "../core/type-tokens";
import { functionSpecs } from "./schema-functions";

type JsonSchema = { type?: string | string[]; items?: JsonSchema; description?: string; anyOf?: JsonSchema[] };
type PulumiType = { type?: string; items?: PulumiType; $ref?: string; description?: string };

const ANY = { $ref: "pulumi.json#/Any" };

/** One JSON Schema property as a Pulumi schema property (null in a union is dropped: args are optional). */
function pulumiType(s: JsonSchema): PulumiType {
  const alts = (s.anyOf ?? [s]).filter((a) => a.type !== "null");
  if (alts.length !== 1) return ANY;
  const t = alts[0]!;
  const type = Array.isArray(t.type) ? t.type.filter((x) => x !== "null")[0] : t.type;
  if (type === "string" || type === "boolean" || type === "integer" || type === "number") return { type };
  if (type === "array") return { type: "array", items: t.items ? pulumiType(t.items) : ANY };
  return ANY;
}

function guardrailProperties(): { properties: Record<string, PulumiType>; required: string[] } {
  const json = z.toJSONSchema(guardrailArgsSchema, { io: "input", unrepresentable: "any" }) as {
    properties: Record<string, JsonSchema>;
    required?: string[];
  };
  const properties = Object.fromEntries(
    Object.entries(json.properties).map(([k, v]) => [
      k,
      { ...pulumiType(v), ...(v.description ? { description: v.description } : {}) },
    ]),
  );
  return { properties, required: json.required ?? ["name"] };
}

/** The package schema as the engine's GetSchema returns it. */
export function packageSchema(version: string): string {
  const { properties, required } = guardrailProperties();
  const id = { type: "string", description: "The guardrail's id." };
  return JSON.stringify({
    name: "guardrails",
    displayName: "Guardrails",
    version,
    config: {
      variables: {
        apiKey: { type: "string", secret: true, description: "The management API key." },
        baseUrl: { type: "string", description: "The management API's base URL." },
      },
    },
    provider: {
      inputProperties: {
        apiKey: { type: "string", secret: true },
        baseUrl: { type: "string" },
      },
    },
    resources: {
      [NATIVE_GUARDRAIL_TYPE]: {
        description:
          "A guardrail: model/provider lists, ZDR flags, content filters, data regions and a spending limit.",
        inputProperties: properties,
        requiredInputs: required,
        properties: { ...properties, guardrailId: id },
        required: required,
      },
    },
    functions: functionSpecs(properties),
  });
}
