#!/usr/bin/env node
// Rewrites the args table of each page of docs/resources/ from the field table and the
// assignment args (codegen/docs-tables.ts, built into dist/), between its marker comments.
// `npm run docs` after changing an arg or its JSDoc; test/unit/docs-tables.test.ts fails until then.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
const require = createRequire(import.meta.url);
const { PAGES, argsTablesAt, withTable } = require("../dist/codegen/docs-tables.js");
const root = fileURLToPath(new URL("..", import.meta.url));
const tables = argsTablesAt(root);
for (const [page, name] of Object.entries(PAGES)) {
  const path = new URL(`../${page}`, import.meta.url);
  const before = readFileSync(path, "utf8");
  const after = withTable(before, tables[name], page);
  if (after !== before) writeFileSync(path, after);
  console.log(`${after === before ? "unchanged" : "wrote"} ${page}`);
}
