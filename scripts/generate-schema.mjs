#!/usr/bin/env node
// Writes schema/guardrails.schema.json and schema/policy.schema.json from the zod schemas
// (src/declarative/file-schema.ts, src/policy/options.ts).
// `npm run schema` after changing a zod schema; test/unit/schema-sync.test.ts fails until then.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { guardrailFileJsonSchema } = require("../dist/src/declarative/file-schema.js");
const { policyFileJsonSchema } = require("../dist/src/policy/policy-file.js");
for (const [file, schema] of [
  ["guardrails.schema.json", guardrailFileJsonSchema()],
  ["policy.schema.json", policyFileJsonSchema()],
]) {
  const out = new URL(`../schema/${file}`, import.meta.url);
  writeFileSync(out, JSON.stringify(schema, null, 2) + "\n");
  console.log(`wrote ${out.pathname}`);
}
