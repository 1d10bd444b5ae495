/**
 * Every row of the kind table (src/core/kinds.ts) reaches every place a user meets a kind
 * (issue 39): the dynamic face's class, exported from the package's root under its type name
 * with its dynamic token; the native schema's resource under its native token; and each
 * generated SDK's file for it. The compiler leads a new row to the tables typed
 * `Record<ResourceTypeName, ...>`; this leads it to the rest, which no type can see.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_PATH } from "../../codegen/pulumi-schema";
import { KINDS, type ResourceTypeName, TYPE_NAMES } from "../../src/core/kinds";
import * as lib from "../../src/index";

const root = join(__dirname, "../..");

/** The kinds `surface` (a module's exports) has no class for, under the type name and with the kind's dynamic token. */
const missingClasses = (surface: Record<string, unknown>): string[] =>
  TYPE_NAMES.filter((t) => {
    const c = surface[t];
    return typeof c !== "function" || (c as { __pulumiType?: unknown }).__pulumiType !== KINDS[t].dynamicToken;
  });

/** The native tokens the kind table has, in its order. */
const NATIVE_TOKENS = TYPE_NAMES.map((t) => KINDS[t].nativeToken);

/** Where each generated SDK keeps a resource (codegen/gensdk names them so). */
const lowerFirst = (t: string) => t[0]!.toLowerCase() + t.slice(1);
const snake = (t: string) => t.replace(/(?<!^)([A-Z])/g, "_$1").toLowerCase();
const SDK_FILES: Record<string, (t: ResourceTypeName) => string> = {
  nodejs: (t) => `sdk/nodejs/${lowerFirst(t)}.ts`,
  python: (t) => `sdk/python/pulumi_guardrails/${snake(t)}.py`,
  go: (t) => `sdk/go/guardrails/${lowerFirst(t)}.go`,
};

/** The kinds with no SDK file (as `read` finds it) naming the kind's native token. */
function missingSdkFiles(read: (path: string) => string | undefined): string[] {
  return TYPE_NAMES.flatMap((t) =>
    Object.entries(SDK_FILES)
      .map(([sdk, file]) => [sdk, file(t)] as const)
      .filter(([, file]) => !new RegExp(`["']${KINDS[t].nativeToken}["']`).test(read(file) ?? ""))
      .map(([sdk, file]) => `${t} (${sdk}): ${file}`),
  );
}
/** The kinds whose page (`docsPage`) the docs index does not link. */
const unindexed = (index: string) =>
  TYPE_NAMES.filter((t) => !index.includes(`](${KINDS[t].docsPage.replace(/^docs\//, "")})`));
/** The folders of src/core, by name. */
const coreFolders = () =>
  readdirSync(join(root, "src/core"), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
const readRepo = (p: string) => (existsSync(join(root, p)) ? readFileSync(join(root, p), "utf8") : undefined);

describe("every kind of the kind table reaches the package's surface", () => {
  it("src/index.ts exports a class under each type name, with the kind's dynamic token", () => {
    expect(missingClasses(lib as Record<string, unknown>)).toEqual([]);
  });

  it("a planted kind with no class fails (a row added to the table, its class forgotten)", () => {
    const { WorkspaceDefaultGuardrail: _, ...withoutOne } = lib as Record<string, unknown>;
    expect(missingClasses(withoutOne)).toEqual(["WorkspaceDefaultGuardrail"]);
    const wrongToken = { ...lib, Guardrail: Object.assign(() => {}, { __pulumiType: KINDS.Guardrail.nativeToken }) };
    expect(missingClasses(wrongToken)).toEqual(["Guardrail"]);
  });

  it("the native schema has a resource for each kind's native token, in the table's order, and no other", () => {
    const schema = JSON.parse(readFileSync(join(root, SCHEMA_PATH), "utf8")) as { resources: object };
    expect(Object.keys(schema.resources)).toEqual(NATIVE_TOKENS);
  });

  it("each SDK has a file for each kind, naming its native token", () => {
    expect(missingSdkFiles(readRepo)).toEqual([]);
  });

  it("a planted kind with no SDK file fails", () => {
    const planted = (p: string) => (p.endsWith("workspace_default_guardrail.py") ? undefined : readRepo(p));
    expect(missingSdkFiles(planted)).toEqual([
      "WorkspaceDefaultGuardrail (python): sdk/python/pulumi_guardrails/workspace_default_guardrail.py",
    ]);
  });

  it("docs/README.md's index links each kind's page, and CONTRIBUTING.md's layout names each core folder", () => {
    expect(unindexed(readRepo("docs/README.md") ?? "")).toEqual([]);
    expect(unindexed("- [Guardrail](resources/guardrail.md)")).toContain("WorkspaceDefaultGuardrail");
    const layout = readRepo("CONTRIBUTING.md") ?? "";
    expect(coreFolders().filter((f) => !new RegExp(`^\\s+${f}/\\s`, "m").test(layout))).toEqual([]);
    expect(/^\s+widget\/\s/m.test(layout)).toBe(false);
  });
});
