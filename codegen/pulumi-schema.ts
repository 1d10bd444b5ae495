/**
 * The Pulumi package schema of the native face, generated where the facts live: each arg's
 * type from the zod schemas `check` enforces (the field table, src/core/fields/fields.ts, and
 * the resources' arg schemas) and its description from the core, as the docs tables
 * (codegen/docs-tables.ts) take it: the field table's and the provider settings' JSDoc, and the
 * docs beside the other args' schemas, with their native text where it differs. `npm run
 * schema` writes it to src/native/schema.json, which the plugin serves (GetSchema) and the
 * TypeScript SDK is generated from (`npm run sdk:gen`); test/unit/native-schema.test.ts fails
 * when the two drift.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { ArgDoc as CoreArgDoc } from "../src/core/arg-doc";
import { SET_ARG_DOCS, SET_ARGS } from "../src/core/args/assignment-args";
import { GUARDRAIL_ARG_DOCS, guardrailArgsSchema } from "../src/core/args/guardrail-args";
import { KEY_KIND, MEMBER_KIND, type AssignmentSetKind } from "../src/core/assignments/kind";
import { FIELDS, type FieldName } from "../src/core/fields/fields";
import type { GuardrailOutputs } from "../src/core/guardrail/model";
import { WORKSPACE_DEFAULT_ARG_DOCS, workspaceDefaultArgsSchema } from "../src/core/guardrail/workspace-default-args";
import type { WorkspaceDefaultOutputs } from "../src/core/guardrail/workspace-default-model";
import {
  KINDS,
  NATIVE_PACKAGE,
  POLICY_TYPE_NAMES,
  type PolicyTypeName,
  type ResourceTypeName,
  TYPE_NAMES,
} from "../src/core/kinds";
import { BOOLEAN_SETTINGS, NUMERIC_SETTINGS } from "../src/core/settings/config";
import { CHOICE_SETTINGS } from "../src/core/settings/moves-lookup";
import { loadGuardrailFilesSchema } from "../src/native/load-files";
import { functionSpecs, functionTypes } from "../src/native/schema-functions";
import { type ArgDoc, argDocs, coreDoc, DOC_SOURCES } from "./docs-tables";
import { policyResource } from "./policy-schema";
import { workspaceWideResource } from "./workspace-wide-schema";
import { asOutput, documented, type Json, jsonOf, type PulumiProperty, pulumiType, schemaTypes } from "./pulumi-types";

/** Where the JSDoc lives: the docs tables' sources (the field table) and the provider settings. */
export const SCHEMA_DOC_SOURCES = [...DOC_SOURCES, "src/core/settings/config.ts"];

/** Where the committed schema lives, relative to the repository root. */
export const SCHEMA_PATH = "src/native/schema.json";

/** The npm package a TypeScript program imports the native face's SDK from. */
export const SDK_IMPORT = "pulumi-guardrails/native";

/** The Python SDK's distribution and import name (sdk/python). */
export const PYTHON_PACKAGE = "pulumi_guardrails";

/**
 * The Go SDK's import path (sdk/go/guardrails; its module, sdk/go/go.mod, is the folder above):
 * the repository's would-be GitHub path, so that `go get` of a tag `sdk/go/vX.Y.Z` works the day
 * the repository is public, and a module proxy folder (`npm run sdk:pack`) serves it until then.
 */
/** Where the project lives: the Go module's path, the schema's `repository`, and where the engine fetches the plugin. */
export const REPOSITORY = "github.com/pulumi-guardrails/pulumi-guardrails";
export const GO_IMPORT = `${REPOSITORY}/sdk/go/guardrails`;

type Properties = Record<string, PulumiProperty>;

/** One resource of the package schema, as the engine and the SDK generators read it. */
interface ResourceSpec {
  description: string;
  inputProperties: Properties;
  requiredInputs: string[];
  properties: Properties;
  required: string[];
}

/**
 * The outputs a Guardrail records beside its args, described here (the dynamic face documents
 * them on its class). Bookkeeping is listed as such: a new output of the core has to be put in
 * one list or the other, or this does not compile.
 */
const GUARDRAIL_OUTPUTS: Record<Exclude<keyof GuardrailOutputs, FieldName | "workspaceId">, string | null> = {
  guardrailId: "The guardrail's id (a UUID), also the resource's id.",
  createdAt: "When the service created the guardrail (ISO 8601).",
  updatedAt: "When the service last changed the guardrail (ISO 8601); none when it never did.",
  allowedModelsCanonical:
    "The canonical slugs of `allowedModels` as the service holds them; `allowedModels` echoes the program's own identifiers.",
  ignoredModelsCanonical:
    "The canonical slugs of `ignoredModels` as the service holds them; `ignoredModels` echoes the program's own identifiers.",
  modelAnswers: null,
  modelAliases: null,
  defaultWorkspaceId: null,
  args: null,
  unsyncedPolicies:
    "Each kind this guardrail sets whose policy was edited (or deleted) in Guardrail Policies, so the service no longer takes it from the guardrail: recorded by refresh, which warns; absent when none. `pulumi up` cannot repair it (docs/resources/guardrail.md).",
  mappedPolicyIds:
    "Per kind this guardrail sets (`budget`, `modelAvailability`, `moderation`), the id of the policy the last refresh listed as this guardrail's: a policy no longer listed is then reported in `unsyncedPolicies`, never silently. Absent before the first refresh.",
};

/** The type token of one `unsyncedPolicies` entry (src/core/guardrail/policy-drift.ts `UnsyncedPolicy`). */
const UNSYNCED_POLICY = `${NATIVE_PACKAGE}:index:UnsyncedPolicy`;

/** The object types of one `unsyncedPolicies` entry and its settings (each typed as the Guardrail's output of that name). */
function unsyncedPolicyTypes(guardrailProperties: Properties): Record<string, unknown> {
  const settings = Object.fromEntries(
    (Object.keys(FIELDS) as FieldName[])
      .filter((k) => FIELDS[k].policy && guardrailProperties[k])
      .map((k) => [k, guardrailProperties[k]!]),
  );
  return {
    [UNSYNCED_POLICY]: {
      type: "object",
      description:
        "A kind of a guardrail that no longer follows it (its policy was edited or deleted in Guardrail Policies).",
      properties: {
        kind: { type: "string", description: "`budget`, `modelAvailability` or `moderation`." },
        policyId: {
          type: "string",
          description:
            "The policy that now holds the kind (when unlisted: the one last seen); absent when it was deleted.",
        },
        deleted: {
          type: "boolean",
          description: "Whether the policy was deleted (then the kind is not enforced from this guardrail).",
        },
        enforces: {
          $ref: `#/types/${UNSYNCED_POLICY}Settings`,
          description:
            "The settings the policy now holds, in the Guardrail's arg names; absent when deleted or unlisted.",
        },
        unlisted: {
          type: "boolean",
          description:
            "The policy `policyId`, which the last refresh listed as this guardrail's, is no longer listed, and the service does not say whether it was deleted: its enforcement may have changed. Absent when false.",
        },
      },
      required: ["kind", "deleted"],
    },
    [`${UNSYNCED_POLICY}Settings`]: {
      type: "object",
      description: "The settings a policy holds, each as the Guardrail's output of that name; unset ones absent.",
      properties: settings,
    },
  };
}

/** The core's `docs[key]` as this face says it (its own text where the core has one). */
const nativeDoc = (docs: Record<string, CoreArgDoc>, key: string) => coreDoc(docs, key, "native");

const inputJson = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;

function guardrailInputs(docs: Map<string, ArgDoc>): Properties {
  const json = inputJson(guardrailArgsSchema).properties ?? {};
  const properties: Properties = {};
  for (const k of Object.keys(guardrailArgsSchema.shape)) {
    // A table field's value after `check` (its closed sets survive there), else the arg as written.
    const schema = k in FIELDS ? jsonOf(FIELDS[k as FieldName].arg) : json[k];
    if (!schema) throw new Error(`no JSON Schema for the arg ${k}`);
    const doc = k in FIELDS ? docs.get(k) : nativeDoc(GUARDRAIL_ARG_DOCS, k);
    properties[k] = { ...pulumiType(schema, k), ...documented(doc, k) };
  }
  return properties;
}

function guardrailResource(docs: Map<string, ArgDoc>): ResourceSpec {
  const inputs = guardrailInputs(docs);
  const { adoptId: _readAtCreateOnly, ...recorded } = inputs;
  const extras = Object.entries(GUARDRAIL_OUTPUTS).filter((e): e is [string, string] => e[1] !== null);
  const listOf = { type: "array", items: { type: "string" } };
  const unsyncedList = { type: "array", items: { $ref: `#/types/${UNSYNCED_POLICY}` } };
  const properties: Properties = {
    ...Object.fromEntries(Object.entries(recorded).map(([k, p]) => [k, asOutput(p)])),
    ...Object.fromEntries(
      extras.map(([k, description]) => [
        k,
        {
          ...(k.endsWith("Canonical")
            ? listOf
            : k === "unsyncedPolicies"
              ? unsyncedList
              : k === "mappedPolicyIds"
                ? { type: "object", additionalProperties: { type: "string" } }
                : { type: "string" }),
          description,
        },
      ]),
    ),
  };
  const required = Object.keys(guardrailArgsSchema.shape).filter((k) => k in FIELDS && FIELDS[k as FieldName].required);
  return {
    description:
      "A guardrail: model and provider allow and ignore lists, zero-data-retention flags, content filters, data regions and a US dollar spending limit. `workspaceId` is the one arg whose change replaces it.",
    inputProperties: inputs,
    requiredInputs: required,
    properties,
    required: [...required, "guardrailId", "createdAt"],
  };
}

/** The outputs a workspace's default guardrail records beside its args (as GUARDRAIL_OUTPUTS). */
const DEFAULT_OUTPUTS: Record<
  Exclude<keyof WorkspaceDefaultOutputs, FieldName | "workspaceId" | "resetOnDelete">,
  { type: string; description: string } | null
> = {
  guardrailId: { type: "string", description: "The default guardrail's id (the workspace's `default_guardrail_id`)." },
  workspaceName: { type: "string", description: "The workspace's name, as the service last answered it." },
  workspaceSlug: { type: "string", description: "The workspace's slug, as the service last answered it." },
  createdAt: { type: "string", description: "When the guardrail was first written (ISO 8601); none until then." },
  updatedAt: { type: "string", description: "When the service last changed the guardrail (ISO 8601)." },
  allowedModelsCanonical: { type: "array", description: GUARDRAIL_OUTPUTS.allowedModelsCanonical ?? "" },
  ignoredModelsCanonical: { type: "array", description: GUARDRAIL_OUTPUTS.ignoredModelsCanonical ?? "" },
  modelAnswers: null,
  args: null,
};

/**
 * A workspace's default guardrail: the Guardrail's settings (the same field table), `name`
 * optional, `workspaceId` (an id or a slug) and `resetOnDelete`; its id is the workspace's.
 */
function workspaceDefaultResource(docs: Map<string, ArgDoc>): ResourceSpec {
  const json = inputJson(workspaceDefaultArgsSchema).properties ?? {};
  const inputs: Properties = {};
  for (const k of Object.keys(workspaceDefaultArgsSchema.shape)) {
    const schema = k in FIELDS ? jsonOf(FIELDS[k as FieldName].arg) : json[k];
    if (!schema) throw new Error(`no JSON Schema for the arg ${k}`);
    const doc = nativeDoc(WORKSPACE_DEFAULT_ARG_DOCS, k) ?? docs.get(k);
    inputs[k] = { ...pulumiType(schema, k), ...documented(doc, k) };
  }
  const listOf = { type: "array", items: { type: "string" } };
  const extras = Object.entries(DEFAULT_OUTPUTS).filter(
    (e): e is [string, { type: string; description: string }] => e[1] !== null,
  );
  const properties: Properties = {
    ...Object.fromEntries(Object.entries(inputs).map(([k, p]) => [k, asOutput(p)])),
    workspaceId: { type: "string", description: "The workspace's id (a UUID), also the resource's id." },
    ...Object.fromEntries(
      extras.map(([k, o]) => [k, { ...(o.type === "array" ? listOf : { type: o.type }), description: o.description }]),
    ),
  };
  return {
    description:
      "A workspace's default guardrail: it applies to every member and API key of the workspace that has no guardrail of its own. Never created or deleted: create and update PATCH it; a delete leaves its settings in force unless `resetOnDelete` is set. `workspaceId` is the one arg whose change replaces it. Import it by the workspace's id or slug.",
    inputProperties: inputs,
    requiredInputs: ["workspaceId"],
    properties,
    required: ["workspaceId", "guardrailId", "resetOnDelete"],
  };
}

function setResource(kind: AssignmentSetKind): ResourceSpec {
  const json = inputJson(SET_ARGS[kind.stateKey].partial).properties ?? {};
  const properties: Properties = {};
  for (const k of Object.keys(json)) {
    const name = k === kind.stateKey ? kind.argName : k;
    // The id list as a program writes it: the dynamic face's `{id: true}` map is its own bookkeeping.
    const schema = k === kind.stateKey ? { type: "array", items: { type: "string" } } : json[k]!;
    properties[name] = { ...pulumiType(schema, name), ...documented(nativeDoc(SET_ARG_DOCS, k), `SET_ARG_DOCS.${k}`) };
  }
  const required = ["guardrailId", kind.argName];
  return {
    description: `The ${kind.noun}s assigned to one guardrail: additive (only the listed ${kind.noun}s) or exclusive (the guardrail's whole set). Changing \`guardrailId\` replaces it.`,
    inputProperties: properties,
    requiredInputs: required,
    properties,
    required,
  };
}

/**
 * Each kind's resource, keyed by the kind table (core/kinds.ts): a kind with no builder here
 * does not compile, and the schema lists them under their native tokens, in the table's order.
 */
const RESOURCES: Record<ResourceTypeName, (docs: Map<string, ArgDoc>) => ResourceSpec> = {
  Guardrail: guardrailResource,
  GuardrailMemberAssignment: () => setResource(MEMBER_KIND),
  GuardrailKeyAssignment: () => setResource(KEY_KIND),
  WorkspaceDefaultGuardrail: workspaceDefaultResource,
  ...(Object.fromEntries(
    POLICY_TYPE_NAMES.map((t) => [t, (docs: Map<string, ArgDoc>) => policyResource(t, docs)]),
  ) as Record<PolicyTypeName, (docs: Map<string, ArgDoc>) => ResourceSpec>),
  WorkspaceWidePolicy: workspaceWideResource,
};

/**
 * Each setting's env var: the key and URL (config.ts reads them by name), the numbers and flags, in
 * the order of KNOWN_KEYS (test/unit/native-schema.test.ts holds the two equal).
 */
export const SETTING_ENV: Record<
  "apiKey" | "baseUrl" | keyof typeof NUMERIC_SETTINGS | keyof typeof BOOLEAN_SETTINGS | keyof typeof CHOICE_SETTINGS,
  string
> = {
  apiKey: "GUARDRAILS_API_KEY",
  baseUrl: "GUARDRAILS_BASE_URL",
  ...NUMERIC_SETTINGS,
  ...BOOLEAN_SETTINGS,
  ...CHOICE_SETTINGS,
};

/**
 * The settings, as stack config (`place` "config") or an explicit provider's inputs. Each falls
 * back to its env var, but an explicit provider's key is not defaulted from the env by the SDK:
 * it would send the value as a plain input, and provider inputs are kept in state. The plugin
 * reads GUARDRAILS_API_KEY from its own environment instead, so that copy is never stored.
 */
function settings(docs: Map<string, ArgDoc>, place: "config" | "provider"): Properties {
  return Object.fromEntries(
    (Object.keys(SETTING_ENV) as (keyof typeof SETTING_ENV)[]).map((k) => [
      k,
      {
        type: k in NUMERIC_SETTINGS ? "integer" : k in BOOLEAN_SETTINGS ? "boolean" : "string",
        ...documented(docs.get(`ProviderSettings.${k}`), `ProviderSettings.${k}`),
        ...(k === "apiKey" ? { secret: true } : {}),
        ...(k === "apiKey" && place === "provider" ? {} : { defaultInfo: { environment: [SETTING_ENV[k]] } }),
      },
    ]),
  );
}

/** The package schema, from the JSDoc sources' texts (in SCHEMA_DOC_SOURCES' order). */
export function pulumiSchema(version: string, sources: string[]): Record<string, unknown> {
  const docs = argDocs(sources);
  const guardrail = guardrailResource(docs);
  const config = settings(docs, "config");
  const declared = loadGuardrailFilesSchema(guardrail as never);
  return {
    name: NATIVE_PACKAGE,
    displayName: "Guardrails",
    description:
      "Guardrails of an LLM-gateway management API and the members and API keys assigned to them (the native face of pulumi-guardrails).",
    version,
    license: "Apache-2.0",
    keywords: ["pulumi", "guardrails", "category/utility", "kind/native"],
    // As the Registry's community packages do: the repository (Go's codegen takes the module path
    // `pulumi package add` prints from it), and the GitHub release whose assets the engine
    // fetches the plugin from when it is not installed (`pulumi-resource-guardrails-v<version>-
    // <os>-<arch>.tar.gz`, what `npm run release` attaches).
    repository: `https://${REPOSITORY}`,
    publisher: "pulumi-guardrails",
    pluginDownloadURL: `github://api.${REPOSITORY}`,
    config: { variables: config },
    provider: {
      description: "The guardrails provider: where the management API is and its key.",
      inputProperties: settings(docs, "provider"),
    },
    types: {
      ...schemaTypes(),
      ...functionTypes(guardrail.properties),
      ...declared.types,
      ...unsyncedPolicyTypes(guardrail.properties),
    },
    resources: Object.fromEntries(TYPE_NAMES.map((t) => [KINDS[t].nativeToken, RESOURCES[t](docs)])),
    functions: { ...functionSpecs(guardrail.properties), ...declared.function },
    language: {
      // The SDK ships inside this package (`pulumi-guardrails/native`), so generated programs
      // import it from there, and its version is the schema's (no package.json of its own).
      nodejs: { packageName: SDK_IMPORT, respectSchemaVersion: true },
      // Each SDK's version, and the plugin version it declares, is the schema's (the package's).
      python: {
        packageName: PYTHON_PACKAGE,
        requires: { pulumi: ">=3.0.0,<4.0.0" },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: { importBasePath: GO_IMPORT, respectSchemaVersion: true },
    },
  };
}

/** The package schema of the package at `root`, as the committed file holds it. */
export function pulumiSchemaAt(root: string): string {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  const sources = SCHEMA_DOC_SOURCES.map((p) => readFileSync(join(root, p), "utf8"));
  return `${JSON.stringify(pulumiSchema(version, sources), null, 2)}\n`;
}
