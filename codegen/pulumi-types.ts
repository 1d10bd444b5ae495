/**
 * JSON Schema (zod's) to Pulumi package schema types, for codegen/pulumi-schema.ts: strings,
 * numbers, booleans and arrays as they are, a closed set of strings as a named enum type, a
 * content filter as a named object type. A shape with no name here is an error, never
 * `pulumi.json#/Any`: a new closed set or object in the field table has to be named below.
 */
import { z } from "zod";
import {
  BUILTIN_SLUGS,
  DATA_REGIONS,
  FILTER_ACTIONS,
  RESET_INTERVALS,
  SCAN_SCOPES,
} from "../src/core/fields/constants";
import { builtinFilterArgs, customFilterArgs, FILTER_ARG_DOCS } from "../src/core/fields/filters";
import type { ArgDoc } from "./docs-tables";
import { WW_POLICY_TYPES } from "../src/core/policies/workspace-wide-args";

/** A JSON Schema, the parts zod writes for the args. */
export type Json = {
  type?: string | string[];
  enum?: unknown[];
  items?: Json;
  properties?: Record<string, Json>;
  required?: string[];
  anyOf?: Json[];
  additionalProperties?: unknown;
};

/** A Pulumi schema type (a property's type, an array's items). */
export type PulumiType = { type?: string; items?: PulumiType; $ref?: string };
/** A Pulumi schema property. */
export type PulumiProperty = PulumiType & {
  description?: string;
  deprecationMessage?: string;
  secret?: boolean;
  defaultInfo?: { environment: string[] };
};

const TOKEN = (name: string) => `guardrails:index:${name}`;
const ref = (name: string) => `#/types/${TOKEN(name)}`;

/** The closed sets, by name, with what each is. */
const ENUMS: { name: string; values: readonly string[]; description: string }[] = [
  { name: "ResetInterval", values: RESET_INTERVALS, description: "When a spending limit resets." },
  { name: "DataRegion", values: DATA_REGIONS, description: "A region requests may be processed in." },
  { name: "BuiltinFilterSlug", values: BUILTIN_SLUGS, description: "A builtin content filter." },
  { name: "FilterAction", values: FILTER_ACTIONS, description: "What a content filter does with a match." },
  { name: "ScanScope", values: SCAN_SCOPES, description: "Which messages the prompt-injection builtin scans." },
  {
    name: "PolicyType",
    values: Object.keys(WW_POLICY_TYPES),
    description: "A Guardrail Policy's kind, as a workspace-wide policy's `policyType` names it.",
  },
];

/**
 * The object types: the name a program writes (input), the one outputs record (the service's
 * answer read tolerantly: plain strings, and the builtin's label the service sets), the
 * properties' docs (the core's, beside the schema), and the extra output properties.
 */
const OBJECTS = [
  {
    name: "BuiltinFilter",
    schema: builtinFilterArgs,
    docs: FILTER_ARG_DOCS.builtin as Record<string, ArgDoc>,
    description: "A builtin content filter.",
    extraOutputs: { label: { type: "string", description: "The label the service sets, e.g. `[EMAIL]`." } },
  },
  {
    name: "CustomFilter",
    schema: customFilterArgs,
    docs: FILTER_ARG_DOCS.custom as Record<string, ArgDoc>,
    description: "A custom regex content filter.",
    extraOutputs: {},
  },
] as const;

/** A zod schema as JSON Schema (the value after `check` by default), without `$schema`. */
export const jsonOf = (schema: z.ZodType, io: "input" | "output" = "output") => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json & { $schema?: string };
  return json as Json;
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const pascal = (value: string) =>
  value
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("");

/** A property's description from its JSDoc (its text and default) and its deprecation. */
export function documented(
  doc: ArgDoc | undefined,
  where: string,
): Pick<PulumiProperty, "description" | "deprecationMessage"> {
  if (!doc) throw new Error(`no JSDoc for ${where}: document it where it is declared`);
  const description = doc.fallback ? `${doc.text}\n\nDefault: ${doc.fallback}.` : doc.text;
  return { description, ...(doc.deprecated !== undefined ? { deprecationMessage: doc.deprecated } : {}) };
}

/** The Pulumi type of a JSON Schema (input side: enums and input object types by name). */
export function pulumiType(json: Json, where: string): PulumiType {
  const alts = (json.anyOf ?? [json]).filter((a) => a.type !== "null");
  if (alts.length !== 1) throw new Error(`${where}: a union has no Pulumi type`);
  const t = alts[0]!;
  if (t.enum) {
    const named = ENUMS.find((e) => same([...e.values], t.enum));
    if (!named) throw new Error(`${where}: name the closed set ${JSON.stringify(t.enum)} in codegen/pulumi-types.ts`);
    return { $ref: ref(named.name) };
  }
  const type = Array.isArray(t.type) ? t.type.filter((x) => x !== "null")[0] : t.type;
  if (type === "string" || type === "boolean" || type === "integer" || type === "number") return { type };
  if (type === "array" && t.items) return { type: "array", items: pulumiType(t.items, `${where}[]`) };
  if (type === "object") {
    const named = OBJECTS.find((o) => same(jsonOf(o.schema), t));
    if (named) return { $ref: ref(named.name) };
  }
  throw new Error(`${where}: no Pulumi type for ${JSON.stringify(t)}: name it in codegen/pulumi-types.ts`);
}

/** The output side of an input type: enums read as plain strings (tolerant reader), objects as their output types. */
function outputType(t: PulumiType): PulumiType {
  if (t.items) return { type: "array", items: outputType(t.items) };
  if (!t.$ref) return { ...(t.type ? { type: t.type } : {}) };
  const name = t.$ref.slice(ref("").length);
  if (ENUMS.some((e) => e.name === name)) return { type: "string" };
  return { $ref: ref(`${name}Output`) };
}

/** An input property as an output property: its type's output side, its docs as they are. */
export function asOutput(p: PulumiProperty): PulumiProperty {
  const { $ref: _ref, type: _type, items: _items, ...rest } = p;
  return { ...outputType(p), ...rest };
}

/** The schema's `types` map: every enum and object type, the object properties described by the core's docs. */
export function schemaTypes(): Record<string, unknown> {
  const types: Record<string, unknown> = {};
  for (const e of ENUMS)
    types[TOKEN(e.name)] = {
      type: "string",
      description: e.description,
      enum: e.values.map((value) => ({ name: pascal(value), value })),
    };
  for (const o of OBJECTS) {
    const json = jsonOf(o.schema);
    const properties: Record<string, PulumiProperty> = {};
    for (const [k, v] of Object.entries(json.properties ?? {}))
      properties[k] = {
        ...pulumiType(v, `${o.name}.${k}`),
        ...documented(o.docs[k], `FILTER_ARG_DOCS of ${o.name}.${k}`),
      };
    const outputs = Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, asOutput(p)] as const));
    const required = json.required ?? [];
    types[TOKEN(o.name)] = { type: "object", description: o.description, properties, required };
    types[TOKEN(`${o.name}Output`)] = {
      type: "object",
      description: `${o.description} As the service holds it.`,
      properties: { ...outputs, ...o.extraOutputs },
      required,
    };
  }
  return types;
}
