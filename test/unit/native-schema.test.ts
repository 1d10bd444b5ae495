/**
 * The native face's Pulumi package schema: the committed src/native/schema.json is what the
 * field table, the args and their JSDoc generate (codegen/pulumi-schema.ts), and it is fully
 * typed, documented and marks the key secret.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a build script in JavaScript, with no declarations
import { archiveName } from "../../scripts/plugin-sea.mjs";
import { workspaceDefaultArgsSchema } from "../../src/core/guardrail/workspace-default-args";
import { guardrailArgsSchema } from "../../src/core/args/guardrail-args";
import { KINDS, TYPE_NAMES } from "../../src/core/kinds";
import { KNOWN_KEYS, NUMERIC_SETTINGS } from "../../src/core/settings/config";
import { packageSchema } from "../../src/native/schema";
import {
  GO_IMPORT,
  PYTHON_PACKAGE,
  pulumiSchemaAt,
  SCHEMA_PATH,
  SETTING_ENV,
  SDK_IMPORT,
} from "../../codegen/pulumi-schema";

const root = join(__dirname, "../..");
const committed = readFileSync(join(root, SCHEMA_PATH), "utf8");
const schema = JSON.parse(committed) as any;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Every property spec in the schema, with where it is. */
function properties(): [string, { type?: string; $ref?: string; description?: string; items?: unknown }][] {
  const out: [string, never][] = [];
  const add = (where: string, props: Record<string, never> | undefined) => {
    for (const [k, v] of Object.entries(props ?? {})) out.push([`${where}.${k}`, v]);
  };
  add("config", schema.config.variables);
  add("provider", schema.provider.inputProperties);
  for (const [t, spec] of Object.entries<any>(schema.types)) add(t, spec.properties);
  for (const [t, spec] of Object.entries<any>(schema.resources)) {
    add(`${t} input`, spec.inputProperties);
    add(`${t} output`, spec.properties);
  }
  for (const [t, spec] of Object.entries<any>(schema.functions)) {
    add(`${t} input`, spec.inputs?.properties ?? {}); // a function with no args (getWorkspaces) has no inputs
    add(`${t} output`, spec.outputs.properties);
  }
  return out;
}

describe(SCHEMA_PATH, () => {
  it("is what the field table, the args and their JSDoc generate (run `npm run schema`, then `npm run sdk:gen`)", () => {
    expect(committed).toBe(pulumiSchemaAt(root));
  });

  it("is what GetSchema serves, for this package's version", () => {
    expect(JSON.parse(packageSchema())).toEqual(schema);
    expect(schema).toMatchObject({ name: "guardrails", version: pkg.version });
  });

  it("types every property: no Any, every reference resolves", () => {
    const text = JSON.stringify(schema);
    expect(text).not.toContain("pulumi.json#/Any");
    const refs = [...text.matchAll(/"\$ref":"#\/types\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) expect(Object.keys(schema.types), ref).toContain(ref);
    const untyped = properties().filter(([, p]) => !p.type && !p.$ref);
    expect(untyped.map(([w]) => w)).toEqual([]);
  });

  it("documents every property from its JSDoc", () => {
    expect(
      properties()
        .filter(([, p]) => !p.description)
        .map(([w]) => w),
    ).toEqual([]);
    const g = schema.resources["guardrails:index:Guardrail"];
    expect(g.inputProperties.limitUsd.description).toBe(
      "Spending limit in US dollars, finite and >= 0.\n\nDefault: no limit (null).",
    );
    expect(g.inputProperties.enforceZdr.deprecationMessage).toMatch(/^Use the four `enforceZdr\*`/);
  });

  it("names the closed sets as enums and the filters as object types, tolerant on the output side", () => {
    const g = schema.resources["guardrails:index:Guardrail"];
    expect(g.inputProperties.resetInterval.$ref).toBe("#/types/guardrails:index:ResetInterval");
    expect(g.inputProperties.allowedDataRegions.items.$ref).toBe("#/types/guardrails:index:DataRegion");
    expect(g.inputProperties.contentFilterBuiltins.items.$ref).toBe("#/types/guardrails:index:BuiltinFilter");
    expect(g.properties.resetInterval.type).toBe("string");
    expect(g.properties.contentFilterBuiltins.items.$ref).toBe("#/types/guardrails:index:BuiltinFilterOutput");
    expect(schema.types["guardrails:index:BuiltinFilter"].properties.slug.$ref).toBe(
      "#/types/guardrails:index:BuiltinFilterSlug",
    );
    expect(Object.keys(schema.types["guardrails:index:BuiltinFilter"].properties)).not.toContain("label");
    expect(Object.keys(schema.types["guardrails:index:BuiltinFilterOutput"].properties)).toContain("label");
    expect(schema.types["guardrails:index:BuiltinFilterSlug"].enum).toContainEqual({
      name: "CreditCard",
      value: "credit-card",
    });
  });

  it("has a resource per kind: the program's args in, what a user reads out, no bookkeeping", () => {
    expect(Object.keys(schema.resources)).toEqual(TYPE_NAMES.map((t) => KINDS[t].nativeToken));
    const b = schema.resources["guardrails:index:BudgetPolicy"];
    expect(b.requiredInputs).toEqual(["workspaceId", "name", "limitUsd"]);
    expect(Object.keys(b.inputProperties)).not.toContain("allowedModels");
    for (const bookkeeping of ["args", "written", "__secretArgs"])
      expect(Object.keys(b.properties)).not.toContain(bookkeeping);
    const d = schema.resources["guardrails:index:WorkspaceDefaultGuardrail"];
    expect(Object.keys(d.inputProperties)).toEqual(Object.keys(workspaceDefaultArgsSchema.shape));
    expect(d.requiredInputs).toEqual(["workspaceId"]);
    expect(Object.keys(d.properties)).toEqual(
      expect.arrayContaining(["guardrailId", "workspaceId", "workspaceName", "workspaceSlug", "allowedModels"]),
    );
    for (const bookkeeping of ["args", "modelAnswers", "modelAliases", "defaultWorkspaceId", "adoptId", "__secretArgs"])
      expect(Object.keys(d.properties)).not.toContain(bookkeeping);
    const g = schema.resources["guardrails:index:Guardrail"];
    expect(Object.keys(g.inputProperties)).toEqual(Object.keys(guardrailArgsSchema.shape));
    expect(g.requiredInputs).toEqual(["name"]);
    expect(Object.keys(g.properties)).toEqual(expect.arrayContaining(["guardrailId", "createdAt", "workspaceId"]));
    for (const bookkeeping of ["args", "modelAnswers", "modelAliases", "defaultWorkspaceId", "adoptId", "__secretArgs"])
      expect(Object.keys(g.properties)).not.toContain(bookkeeping);
    const members = schema.resources["guardrails:index:GuardrailMemberAssignment"];
    expect(Object.keys(members.inputProperties)).toEqual(["guardrailId", "memberUserIds", "exclusive"]);
    expect(members.inputProperties.memberUserIds).toMatchObject({ type: "array", items: { type: "string" } });
    expect(schema.resources["guardrails:index:GuardrailKeyAssignment"].requiredInputs).toEqual([
      "guardrailId",
      "keyHashes",
    ]);
    expect(Object.keys(schema.functions)).toContain("guardrails:index:getGuardrail");
  });

  it("has every setting the core reads as config, with its env var; the key is secret everywhere", () => {
    expect(Object.keys(SETTING_ENV)).toEqual([...KNOWN_KEYS]);
    expect(Object.keys(schema.config.variables)).toEqual([...KNOWN_KEYS]);
    for (const [k, env] of Object.entries(NUMERIC_SETTINGS))
      expect(schema.config.variables[k]).toMatchObject({ type: "integer", defaultInfo: { environment: [env] } });
    expect(schema.config.variables.apiKey).toMatchObject({
      secret: true,
      defaultInfo: { environment: ["GUARDRAILS_API_KEY"] },
    });
    expect(schema.config.variables.baseUrl.defaultInfo).toEqual({ environment: ["GUARDRAILS_BASE_URL"] });
    expect(schema.provider.inputProperties.apiKey.secret).toBe(true);
    // An explicit provider's SDK would send an env default as a plain input, which state keeps.
    expect(schema.provider.inputProperties.apiKey.defaultInfo).toBeUndefined();
  });

  it("makes generated programs import the SDK this package ships", () => {
    expect(SDK_IMPORT).toBe(`${pkg.name}/native`);
    expect(schema.language.nodejs.packageName).toBe(SDK_IMPORT);
    expect(pkg.exports["./native"].default).toBe("./dist/sdk/nodejs/index.js");
  });

  it("names the repository, and the GitHub release the engine fetches a missing plugin from", () => {
    expect(schema.repository).toBe("https://github.com/pulumi-guardrails/pulumi-guardrails");
    expect(GO_IMPORT.startsWith(schema.repository.replace(/^https:\/\//, ""))).toBe(true);
    // github://api.github.com/<owner>/<repo>: the release of tag v<version>, whose assets are
    // the archives `npm run release` names (scripts/plugin-sea.mjs archiveName).
    expect(schema.pluginDownloadURL).toBe("github://api.github.com/pulumi-guardrails/pulumi-guardrails");
    expect(archiveName("linux-amd64", "0.6.0")).toBe("pulumi-resource-guardrails-v0.6.0-linux-amd64.tar.gz");
  });

  // The full drift check (every file of sdk/<language> is what the schema generates) needs Go:
  // `npm run sdk:check`, run by .ci/run. This one needs nothing but the committed files.
  it("names each generated SDK's version and plugin after the package, and its download server", () => {
    const sdk = (p: string) => readFileSync(join(root, "sdk", p), "utf8");
    expect(schema.language.python).toMatchObject({ packageName: PYTHON_PACKAGE, respectSchemaVersion: true });
    expect(schema.language.go).toMatchObject({ importBasePath: GO_IMPORT, respectSchemaVersion: true });
    expect(sdk("python/pyproject.toml")).toContain(`name = "${PYTHON_PACKAGE}"`);
    expect(sdk("python/pyproject.toml")).toContain(`version = "${pkg.version}"`);
    const plugin = { resource: true, name: "guardrails", version: pkg.version, server: schema.pluginDownloadURL };
    for (const p of [
      "python/pulumi_guardrails/pulumi-plugin.json",
      "go/pulumi-plugin.json",
      "go/guardrails/pulumi-plugin.json",
    ])
      expect(JSON.parse(sdk(p)), p).toEqual(plugin);
    expect(sdk("nodejs/package.json")).toContain(`"version": "${pkg.version}"`);
    const gomod = sdk("go/go.mod");
    expect(gomod).toMatch(new RegExp(`^module ${GO_IMPORT.slice(0, GO_IMPORT.lastIndexOf("/"))}$`, "m"));
    const codegen = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(
      readFileSync(join(root, "codegen/gensdk/go.mod"), "utf8"),
    )![1];
    expect(gomod).toContain(`github.com/pulumi/pulumi/sdk/v3 ${codegen}\n`);
    expect(sdk("go/guardrails/internal/pulumiUtilities.go")).toContain(`semver.MustParse("${pkg.version}")`);
  });
});
