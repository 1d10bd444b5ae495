/**
 * The docs of the args that are not the field table's live in the core, beside their schemas
 * (issue 39): the docs tables and the native schema, and so the SDKs, read them by import. The
 * dynamic face's arg interfaces repeat them as JSDoc, for the IDE; this holds the copies equal,
 * member for member, so a doc changed in one place and not the other fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { argDocs } from "../../codegen/docs-tables";
import type { ArgDoc } from "../../src/core/arg-doc";
import { SET_ARG_DOCS } from "../../src/core/args/assignment-args";
import { GUARDRAIL_ARG_DOCS } from "../../src/core/args/guardrail-args";
import { FILTER_ARG_DOCS } from "../../src/core/fields/filters";
import { WORKSPACE_DEFAULT_ARG_DOCS } from "../../src/core/guardrail/workspace-default-args";
import { POLICY_TYPE_NAMES, type PolicyTypeName, type ResourceTypeName, TYPE_NAMES } from "../../src/core/kinds";
import { POLICY_ARG_DOCS } from "../../src/core/policies/args";
import { WORKSPACE_WIDE_ARG_DOCS } from "../../src/core/policies/workspace-wide-args";

const root = join(__dirname, "../..");

/**
 * Each kind's dynamic source (the module src/index.ts exports its class from), and the
 * interfaces there that copy the core's docs, each with the core's docs of its members by the
 * name the interface uses. Keyed by the kind table: a kind with no entry does not compile.
 */
const KIND_COPIES: Record<ResourceTypeName, { source: string; copies: Record<string, Record<string, ArgDoc>> }> = {
  Guardrail: {
    source: "src/dynamic/guardrail.ts",
    copies: {
      GuardrailPlacementArgs: GUARDRAIL_ARG_DOCS,
      BuiltinFilterArgs: FILTER_ARG_DOCS.builtin,
      CustomFilterArgs: FILTER_ARG_DOCS.custom,
    },
  },
  GuardrailMemberAssignment: {
    source: "src/dynamic/assignments.ts",
    copies: {
      AssignmentArgsBase: { guardrailId: SET_ARG_DOCS.guardrailId, exclusive: SET_ARG_DOCS.exclusive },
      GuardrailMemberAssignmentArgs: { memberUserIds: SET_ARG_DOCS.members },
    },
  },
  GuardrailKeyAssignment: {
    source: "src/dynamic/assignments.ts",
    copies: { GuardrailKeyAssignmentArgs: { keyHashes: SET_ARG_DOCS.keys } },
  },
  WorkspaceDefaultGuardrail: {
    source: "src/dynamic/workspace-default.ts",
    copies: { WorkspaceDefaultPlacementArgs: WORKSPACE_DEFAULT_ARG_DOCS },
  },
  ...(Object.fromEntries(
    POLICY_TYPE_NAMES.map((t) => [
      t,
      { source: "src/dynamic/policies.ts", copies: { PolicyPlacementArgs: POLICY_ARG_DOCS } },
    ]),
  ) as unknown as Record<PolicyTypeName, { source: string; copies: Record<string, Record<string, ArgDoc>> }>),
  WorkspaceWidePolicy: {
    source: "src/dynamic/workspace-wide-policy.ts",
    copies: { WorkspaceWideCoverageArgs: WORKSPACE_WIDE_ARG_DOCS },
  },
};

const SOURCES = [...new Set(TYPE_NAMES.map((t) => KIND_COPIES[t].source))];
const COPIES: Record<string, Record<string, ArgDoc>> = Object.assign(
  {},
  ...TYPE_NAMES.map((t) => KIND_COPIES[t].copies),
);

/** The module src/index.ts exports each kind's class from, as a repository path. */
function classModules(index: string): Record<string, string | undefined> {
  const exports = [...index.matchAll(/export\s*\{([^}]*)\}\s*from\s*"\.\/([^"]+)"/g)];
  return Object.fromEntries(
    TYPE_NAMES.map((t) => {
      const found = exports.find((m) => new RegExp(`(^|[\\s,])${t}\\s*(,|$)`).test(m[1]!));
      return [t, found ? `src/${found[2]}.ts` : undefined];
    }),
  );
}

/** The `...Args` interfaces of the sources whose members carry JSDoc and whose copies nobody checks. */
const unchecked = (texts: string[]): string[] =>
  [...new Set([...argDocs(texts).keys()].filter((k) => k.includes(".")).map((k) => k.split(".")[0]!))].filter(
    (iface) => iface.endsWith("Args") && !(iface in COPIES),
  );

/** What the copies' JSDoc says, as `Interface.member` -> text and default. */
function copies(texts: string[]): Record<string, { text: string; fallback?: string }> {
  const docs = argDocs(texts);
  return Object.fromEntries(
    [...docs]
      .filter(([k]) => k.split(".")[0]! in COPIES)
      .map(([k, { text, fallback }]) => [k, { text, ...(fallback !== undefined ? { fallback } : {}) }]),
  );
}

/** What the core says, in the same form (the dynamic face's text, not the native one). */
const expected = Object.fromEntries(
  Object.entries(COPIES).flatMap(([iface, docs]) =>
    Object.entries(docs).map(([k, { text, fallback }]) => [
      `${iface}.${k}`,
      { text, ...(fallback !== undefined ? { fallback } : {}) },
    ]),
  ),
);

const texts = () => SOURCES.map((p) => readFileSync(join(root, p), "utf8"));

describe("the dynamic face's arg JSDoc is a copy of the core's docs", () => {
  it("every member of each arg interface says what the core says, and has a core doc", () => {
    expect(copies(texts())).toEqual(expected);
  });

  it("each kind's entry names the module src/index.ts exports its class from", () => {
    const index = readFileSync(join(root, "src/index.ts"), "utf8");
    expect(classModules(index)).toEqual(Object.fromEntries(TYPE_NAMES.map((t) => [t, KIND_COPIES[t].source])));
    const planted = index.replace(/WorkspaceDefaultGuardrail,/, "");
    expect(classModules(planted).WorkspaceDefaultGuardrail).toBeUndefined();
  });

  it("every documented args interface of the kinds' sources is one whose copies are checked", () => {
    expect(unchecked(texts())).toEqual([]);
    const planted = [...texts(), "export interface PlantedKindArgs {\n  /** The kind's name. */\n  name: string;\n}"];
    expect(unchecked(planted)).toEqual(["PlantedKindArgs"]);
  });

  it("a JSDoc changed on the dynamic face alone fails (a planted edit)", () => {
    const planted = texts().map((t) => t.replace("API key hashes; a set", "API key hashes, planted; a set"));
    expect(planted.join()).not.toBe(texts().join());
    expect(copies(planted)).not.toEqual(expected);
  });

  it("a member with no core doc fails (a planted member)", () => {
    const planted = texts().map((t) =>
      t.replace(
        "export interface CustomFilterArgs {",
        "export interface CustomFilterArgs {\n  /** Planted. */\n  x?: string;",
      ),
    );
    expect(copies(planted)).not.toEqual(expected);
  });
});
