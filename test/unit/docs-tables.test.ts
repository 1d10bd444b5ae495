/**
 * The args tables of docs/resources/*.md are generated from the args' schemas and docs in the
 * core (codegen/docs-tables.ts), like the JSON Schemas: a page whose table differs from what
 * `npm run docs` writes fails here, and every page of a resource has one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIELD_NAMES } from "../../src/core/fields/fields";
import {
  WORKSPACE_DEFAULT_ARG_DOCS,
  workspaceDefaultArgsSchema,
} from "../../src/core/guardrail/workspace-default-args";
import { argsTables, argsTablesAt, DOC_SOURCES, PAGES, withTable } from "../../codegen/docs-tables";

const root = join(__dirname, "../..");
const tables = argsTablesAt(root);

describe("docs/resources args tables", () => {
  it.each(Object.entries(PAGES))(
    "%s holds the generated table (run `npm run docs` after changing an arg or its JSDoc)",
    (page, name) => {
      const text = readFileSync(join(root, page), "utf8");
      expect(withTable(text, tables[name], page)).toBe(text);
    },
  );

  it("every resource page has a generated table", () => {
    const pages = readdirSync(join(root, "docs/resources"))
      .filter((f) => f.endsWith(".md") && f !== "README.md")
      .map((f) => `docs/resources/${f}`);
    expect(Object.keys(PAGES).sort()).toEqual(pages.sort());
  });

  it("the WorkspaceDefaultGuardrail table lists the args a Guardrail lacks; the rest are the table's settings", () => {
    const args = [...tables.workspaceDefault.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(args).toEqual(["workspaceId", "name", "resetOnDelete"]);
    const others = Object.keys(workspaceDefaultArgsSchema.shape).filter((k) => !args.includes(k));
    expect(others.sort()).toEqual(FIELD_NAMES.filter((k) => k !== "name").sort());
  });

  it("a changed core doc changes the table, so a stale page cannot pass", () => {
    const doc = WORKSPACE_DEFAULT_ARG_DOCS.resetOnDelete;
    const was = doc.text;
    try {
      doc.text = `${was} Planted.`;
      const planted = argsTablesAt(root).workspaceDefault;
      const page = readFileSync(join(root, "docs/resources/workspace-default-guardrail.md"), "utf8");
      expect(withTable(page, planted, "workspace-default-guardrail.md")).not.toBe(page);
    } finally {
      doc.text = was;
    }
  });

  it("the Guardrail table has a row for every field of the table, workspaceId and adoptId", () => {
    const args = [...tables.guardrail.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(args).toEqual(expect.arrayContaining([...FIELD_NAMES, "workspaceId", "adoptId"]));
    expect(args).toHaveLength(FIELD_NAMES.length + 2);
  });

  it("the assignment tables name the program's args, not the state's keys", () => {
    expect(tables.members).toMatch(/^\| `memberUserIds` \| string\[\] \| required \|/m);
    expect(tables.keys).toMatch(/^\| `keyHashes` \| string\[\] \| required \|/m);
    expect(tables.members).not.toMatch(/`members`/);
  });

  it("a changed JSDoc changes the table, so a stale page cannot pass", () => {
    const sources = DOC_SOURCES.map((p) => readFileSync(join(root, p), "utf8"));
    sources[0] = sources[0]!.replace("/** At most 1000 characters.", "/** At most 1000 characters, planted.");
    const planted = argsTables(sources).guardrail;
    expect(planted).not.toBe(tables.guardrail);
    const page = readFileSync(join(root, "docs/resources/guardrail.md"), "utf8");
    expect(withTable(page, planted, "guardrail.md")).not.toBe(page);
  });

  it("an arg without JSDoc is an error, not an empty cell", () => {
    const sources = DOC_SOURCES.map((p) => readFileSync(join(root, p), "utf8"));
    sources[0] = sources[0]!.replace("/** At most 1000 characters. @default none (null) */", "");
    expect(() => argsTables(sources)).toThrow(/no JSDoc for the arg description/);
  });
});
