/**
 * Issue 24, finding 23: what the docs tell a user matches what the package does.
 * - Every subpath export resolves under `module: commonjs` / `moduleResolution: node10`, the
 *   settings of the repository's own examples (tsconfig.json), not only under node16/bundler.
 * - Each example policy pack can load `@pulumi/policy` from where it stands, and the docs say
 *   where to install it in terms that fit both layouts the examples use.
 * - The recovery after a hard kill names the command the CLI itself asks for.
 * - The README's table of imports names every runtime export of each entry point a program imports.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> };
/** The section of a page (repository path) under a heading of any level, up to the next heading of its level or above. */
function section(page: string, heading: string): string {
  const text = `\n${readFileSync(join(root, page), "utf8")}`;
  const match = new RegExp(`\\n(#{1,4}) ${heading.replace(/[()]/g, "\\$&")}\\n`).exec(text);
  expect(match, `${page} has a "${heading}" heading`).not.toBeNull();
  const rest = text.slice(match!.index + match![0].length);
  const next = new RegExp(`\\n#{1,${match![1]!.length}} `).exec(rest);
  return rest.slice(0, next ? next.index : undefined);
}

describe("subpath exports under moduleResolution node10", () => {
  // A consumer folder whose node_modules/pulumi-guardrails is this repository, as `npm install` of the tarball lays it out.
  const consumer = mkdtempSync(join(tmpdir(), "guardrails-resolve-"));
  mkdirSync(join(consumer, "node_modules"));
  symlinkSync(root, join(consumer, "node_modules", "pulumi-guardrails"), "dir");
  const subpaths = Object.keys(manifest.exports).filter((k) => k.startsWith("./") && !k.endsWith(".json"));

  it.each(subpaths)("pulumi-guardrails/%s resolves to its declarations", (subpath) => {
    const spec = `pulumi-guardrails/${subpath.slice(2)}`;
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
    };
    const resolved = ts.resolveModuleName(spec, join(consumer, "index.ts"), options, ts.sys).resolvedModule;
    expect(resolved, `${spec} does not resolve with moduleResolution node10`).toBeDefined();
    const target = (manifest.exports[subpath] as { types: string }).types;
    expect(resolve(ts.sys.realpath!(resolved!.resolvedFileName))).toBe(resolve(root, target));
  });
});

describe("policy packs: where @pulumi/policy is installed", () => {
  /** Example folders holding a PulumiPolicy.yaml. */
  const packs = readdirSync(join(root, "examples"), { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith("PulumiPolicy.yaml") && !p.includes("node_modules"))
    .map((p) => dirname(join(root, "examples", p)));

  it.each(packs.map((p) => [p.slice(root.length + 1), p]))(
    "%s declares @pulumi/policy in the package.json it resolves from",
    (_name, pack) => {
      // Node resolves from the pack folder upwards: the nearest package.json with dependencies must name it.
      let dir = pack;
      let declared: string | undefined;
      while (dir.startsWith(join(root, "examples"))) {
        const file = join(dir, "package.json");
        const deps = existsSync(file)
          ? (JSON.parse(readFileSync(file, "utf8")) as { dependencies?: Record<string, string> }).dependencies
          : undefined;
        if (deps) {
          declared = deps["@pulumi/policy"];
          break;
        }
        dir = dirname(dir);
      }
      expect(declared, `${pack}: no package.json up to examples/ declares @pulumi/policy`).toBeDefined();
    },
  );

  it("the policy-pack guide names both layouts the examples use", () => {
    const text = section("docs/guides/policy-packs.md", "Organization rules (policy packs)");
    expect(text).not.toMatch(/not in the\s+program/);
    expect(text).toMatch(/examples\/policy/);
    expect(text).toMatch(/examples\/declarative/);
  });
});

describe("recovery after a hard kill", () => {
  it("names `pulumi refresh --clear-pending-creates`, which the CLI asks for after one", () => {
    expect(section("docs/guides/day-2.md", "Interrupted runs")).toMatch(/pulumi refresh --clear-pending-creates/);
  });
});

describe("the README's table of imports", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  /** Each entry point a program imports (not `/internal`, which state loads), with its source file. */
  const entries = Object.entries(manifest.exports)
    .filter(([k]) => k.startsWith(".") && !k.endsWith(".json") && k !== "./internal")
    .map(([k, v]) => {
      const types = (v as { types: string }).types;
      return [
        `pulumi-guardrails${k.slice(1)}`,
        join(root, types.replace(/^\.\/dist\//, "").replace(/\.d\.ts$/, ".ts")),
      ];
    });

  /** Runtime exports of `mod` that `row` does not name: a class counts as named when the row says `Base` and its subclasses. */
  function unnamed(row: string, mod: Record<string, unknown>): string[] {
    const bases = [...row.matchAll(/`(\w+)` and its subclasses/g)].map((m) => mod[m[1]!]);
    const isSubclass = (v: unknown) =>
      typeof v === "function" && bases.some((b) => typeof b === "function" && v.prototype instanceof b);
    return Object.keys(mod).filter((name) => !row.includes(`\`${name}\``) && !isSubclass(mod[name]));
  }

  it.each(entries)("the row of %s names every runtime export", async (spec, source) => {
    const row = readme.split("\n").find((l) => l.startsWith(`| \`${spec}\` |`));
    expect(row, `README.md has no row for ${spec}`).toBeDefined();
    expect(unnamed(row!, (await import(source)) as Record<string, unknown>)).toEqual([]);
  });

  it("a missing name is found, and a subclass counts only under its named base", () => {
    class Base extends Error {}
    class Sub extends Base {}
    const mod = { Base, Sub, named: 1, forgotten: 2 };
    expect(unnamed("| `x` | `named`, `Base` and its subclasses |", mod)).toEqual(["forgotten"]);
    expect(unnamed("| `x` | `named`, `Base`, `forgotten` |", mod)).toEqual(["Sub"]);
  });
});
