#!/usr/bin/env node
// Writes schema/guardrails.schema.json from the zod schema (provider/declarative/file-schema.ts).
// `npm run schema` after changing the zod schema; test/unit/schema-sync.test.ts fails until then.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { guardrailFileJsonSchema } = require("../dist/provider/declarative/file-schema.js");
const out = new URL("../schema/guardrails.schema.json", import.meta.url);
writeFileSync(out, JSON.stringify(guardrailFileJsonSchema(), null, 2) + "\n");
console.log(`wrote ${out.pathname}`);
