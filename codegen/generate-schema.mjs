#!/usr/bin/env node
// Writes schema/guardrails.schema.json and schema/policy.schema.json from the zod schemas
// (src/declarative/file-schema.ts, src/policy/options.ts), and the native face's Pulumi package
// schema from the field table, the args and their JSDoc (codegen/pulumi-schema.ts).
// `npm run schema` after changing a zod schema, an arg or its JSDoc; test/unit/schema-sync.test.ts
// and test/unit/native-schema.test.ts fail until then. `npm run sdk:gen` then regenerates the SDK.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
const require = createRequire(import.meta.url);
const { guardrailFileJsonSchema } = require("../dist/src/declarative/file-schema.js");
const { policyFileJsonSchema } = require("../dist/src/policy/policy-file.js");
const { SCHEMA_PATH, pulumiSchemaAt } = require("../dist/codegen/pulumi-schema.js");
for (const [file, schema] of [
  ["guardrails.schema.json", guardrailFileJsonSchema()],
  ["policy.schema.json", policyFileJsonSchema()],
]) {
  const out = new URL(`../schema/${file}`, import.meta.url);
  writeFileSync(out, JSON.stringify(schema, null, 2) + "\n");
  console.log(`wrote ${out.pathname}`);
}
const pulumiSchema = new URL(`../${SCHEMA_PATH}`, import.meta.url);
writeFileSync(pulumiSchema, pulumiSchemaAt(fileURLToPath(new URL("..", import.meta.url))));
console.log(`wrote ${pulumiSchema.pathname}`);
