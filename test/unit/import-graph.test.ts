/**
 * The house's walls, read from the code's own imports (issue 25). Every arrow goes one way:
 *
 *   tools/ ──entry points only──▶ src/{index,export,preview,policy}
 *   src/declarative ─▶ src/dynamic ─▶ src/core ◀─ src/{policy,export,preview}
 *   inside src/core: text, user-error, unknown ◀ fields ◀ client ◀ args ◀ settings ◀ guardrail | assignments
 *
 * The core is plain data: it loads no `@pulumi/*` package, so a second face (a native
 * provider plugin) can adapt it without the first. The emulator shares no code with the
 * library in either direction. Each rule is also run against a graph with one forbidden
 * arrow planted, so a rule that can no longer fail is noticed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "../..");
type Edge = { from: string; to: string };

/** Every .ts file under the given folders, as repository paths. */
function sources(...dirs: string[]): string[] {
  return dirs.flatMap((d) =>
    (readdirSync(join(ROOT, d), { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
      .map((f) => `${d}/${f}`),
  );
}

const FILES = new Set(sources("src", "tools", "emulator", "bench", "support"));
const SPECIFIER = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm;

/** The package's own subpaths (`pulumi-guardrails/internal`), as the source files they load. */
const SELF: Record<string, string> = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports as Record<string, unknown>)
    .filter(([, v]) => typeof v === "object" && v !== null && "default" in v)
    .map(([k, v]) => [
      `pulumi-guardrails${k.slice(1)}`,
      String((v as { default: string }).default)
        .replace(/^\.\/dist\//, "")
        .replace(/\.js$/, ".ts"),
    ]),
);

/** A specifier as a repository path (`src/core/client/index.ts`), or the package name it loads. */
function target(from: string, spec: string): string {
  if (SELF[spec]) return SELF[spec];
  if (!spec.startsWith(".")) return spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
  const base = normalize(join(dirname(from), spec));
  return [`${base}.ts`, `${base}/index.ts`, base].find((c) => FILES.has(c)) ?? base;
}

/** A file's text without its comments, so a comment that names a path or says "require (" is no arrow. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** The arrows of one file's text. */
const arrowsOf = (from: string, text: string): Edge[] =>
  [...code(text).matchAll(SPECIFIER)].map((m) => ({ from, to: target(from, m[1]!) }));

/** A load whose target is computed (`import(name)`, `require(\`...\`)`): no wall could read it, so none may exist. */
const COMPUTED = /\b(?:import|require)\s*\(\s*(?!["'\s)])/g;

/** Every import arrow of the tree. */
function edges(): Edge[] {
  return [...FILES].flatMap((from) => arrowsOf(from, readFileSync(join(ROOT, from), "utf8")));
}

const under =
  (...prefixes: string[]) =>
  (p: string) =>
    prefixes.some((x) => (x.endsWith("/") ? p.startsWith(x) : p === x));
const not = (f: (p: string) => boolean) => (p: string) => !f(p);
const local = (p: string) => /^(src|tools|emulator|bench|support|test)\//.test(p);
/** A file of this repository outside `folder`: what a self-contained folder must not import. */
const localOutside = (folder: string) => (p: string) => local(p) && !p.startsWith(folder);
/** An arrow written `from -> to` as an edge. */
const arrow = (written: string): Edge => {
  const [from = "", to = ""] = written.split(" -> ");
  return { from, to };
};

interface Rule {
  /** What the wall keeps apart, and why. */
  name: string;
  from: (p: string) => boolean;
  to: (p: string) => boolean;
  /** An arrow that breaks it, planted to prove the rule can fail: `from -> to`, as KNOWN writes arrows. */
  planted: string;
}

const ENTRY_POINTS = under(
  "src/index.ts",
  "src/export/index.ts",
  "src/preview/index.ts",
  "src/policy/index.ts",
  "emulator/index.ts",
);
const ABOVE_CLIENT = ["src/core/args/", "src/core/settings/", "src/core/guardrail/", "src/core/assignments/"];
const LIFECYCLE_HELPERS = ["src/core/results.ts", "src/core/confirm-gone.ts"];
const CORE_FLOORS: [string, string[]][] = [
  // A part of the core, and what it must never import: everything above it.
  ["src/core/text/", ["src/core/"]],
  ["src/core/user-error.ts", ["src/core/"]],
  ["src/core/unknown.ts", ["src/core/"]],
  ["src/core/type-tokens.ts", ["src/core/"]],
  ["src/core/holders.ts", ["src/core/"]],
  ["src/core/fields/", ["src/core/client/", ...ABOVE_CLIENT, ...LIFECYCLE_HELPERS]],
  ["src/core/client/", [...ABOVE_CLIENT, ...LIFECYCLE_HELPERS]],
  ["src/core/args/", ["src/core/settings/", "src/core/guardrail/", "src/core/assignments/", ...LIFECYCLE_HELPERS]],
  ["src/core/settings/", ["src/core/guardrail/", "src/core/assignments/", ...LIFECYCLE_HELPERS]],
];

const RULES: Rule[] = [
  {
    name: "the library never imports its tools, bench, test support or the emulator",
    from: under("src/"),
    to: localOutside("src/"),
    planted: "src/index.ts -> tools/export/cli.ts",
  },
  {
    name: "tools use the library and the emulator only through their public entry points",
    from: under("tools/"),
    to: (p) => (p.startsWith("src/") || p.startsWith("emulator/")) && !ENTRY_POINTS(p),
    planted: "tools/export/cli.ts -> src/core/client/client.ts",
  },
  {
    name: "the emulator shares no code with the library",
    from: under("emulator/"),
    to: localOutside("emulator/"),
    planted: "emulator/validation.ts -> src/core/fields/constants.ts",
  },
  {
    name: "the core knows no face and no library built on it",
    from: under("src/core/"),
    to: (p) => p.startsWith("src/") && !p.startsWith("src/core/"),
    planted: "src/core/guardrail/lifecycle.ts -> src/dynamic/secret-args.ts",
  },
  {
    name: "the core is plain data: no @pulumi package, not even its types",
    from: under("src/core/"),
    to: (p) => p.startsWith("@pulumi/"),
    planted: "src/core/assignments/lifecycle.ts -> @pulumi/pulumi",
  },
  {
    name: "host glue (anything that loads @pulumi/pulumi) lives in the two faces, the policy pack or declareGuardrails",
    from: not(under("src/dynamic/", "src/native/", "src/policy/", "src/declarative/declare.ts", "bench/", "support/")),
    to: (p) => p === "@pulumi/pulumi",
    planted: "src/export/export.ts -> @pulumi/pulumi",
  },
  {
    name: "the client knows the field table but not the program's args, settings or lifecycles",
    from: under("src/core/client/"),
    to: under("src/core/args/", "src/core/settings/", "src/core/guardrail/", "src/core/assignments/"),
    planted: "src/core/client/client.ts -> src/core/args/guardrail-args.ts",
  },
  ...CORE_FLOORS.filter(([floor]) => floor !== "src/core/client/").map(([floor, above]) => ({
    name: `core floors: ${floor} imports nothing above it`,
    from: under(floor),
    to: (p: string) => !p.startsWith(floor) && !p.startsWith("src/core/text/") && under(...above)(p),
    planted: `${floor.endsWith("/") ? `${floor}planted.ts` : floor} -> ${above[0]}planted.ts`,
  })),
  {
    // A lifecycle gets its client as an argument (core/connection.ts), built by a face once per
    // provider instance; reaching the process config would tie every lifecycle to one client (issue 39).
    // journal-files.ts reads the key only to keep it out of a folder name in its messages.
    name: "no lifecycle or lookup reaches the process config for its client: it takes a Connection",
    from: (p) =>
      under("src/core/guardrail/", "src/core/assignments/", "src/core/data-sources/", ...LIFECYCLE_HELPERS)(p) &&
      p !== "src/core/guardrail/journal-files.ts",
    to: under("src/core/settings/config.ts"),
    planted: "src/core/assignments/write.ts -> src/core/settings/config.ts",
  },
  {
    name: "resource kinds do not import each other: what both need lives below both (guardrail -> assignments)",
    from: under("src/core/guardrail/"),
    to: under("src/core/assignments/"),
    planted: "src/core/guardrail/lifecycle.ts -> src/core/assignments/kind.ts",
  },
  {
    name: "resource kinds do not import each other: what both need lives below both (assignments -> guardrail)",
    from: under("src/core/assignments/"),
    to: under("src/core/guardrail/"),
    planted: "src/core/assignments/lifecycle.ts -> src/core/guardrail/check.ts",
  },
  {
    name: "resource kinds do not import each other (dynamic face)",
    from: under("src/dynamic/guardrail.ts", "src/dynamic/assignments.ts"),
    to: under("src/dynamic/guardrail.ts", "src/dynamic/assignments.ts"),
    planted: "src/dynamic/guardrail.ts -> src/dynamic/assignments.ts",
  },
  {
    name: "the dynamic face does not reach into the libraries built on it",
    from: under("src/dynamic/"),
    to: under("src/policy/", "src/declarative/", "src/export/", "src/preview/"),
    planted: "src/dynamic/guardrail.ts -> src/policy/index.ts",
  },
  {
    name: "the policy pack, export and the PR summary stand on the core alone, never on the dynamic face",
    from: under("src/policy/", "src/export/", "src/preview/"),
    to: under("src/dynamic/"),
    planted: "src/policy/guardrail-rules.ts -> src/dynamic/guardrail.ts",
  },
  {
    name: "the native face stands on the core, never on the dynamic face (issue 26)",
    from: under("src/native/"),
    to: under("src/dynamic/"),
    planted: "src/native/resources.ts -> src/dynamic/internal.ts",
  },
  {
    name: "the dynamic face never loads the native one",
    from: under("src/dynamic/"),
    to: under("src/native/"),
    planted: "src/dynamic/internal.ts -> src/native/resources.ts",
  },
];

const breaks = (rule: Rule, e: Edge) => rule.from(e.from) && rule.to(e.to);

/** Arrows that break a rule today and are still to be mended. Empty when the house matches the drawing. */
const KNOWN: string[] = [];

describe("import graph (issue 25)", () => {
  const graph = edges();

  it("reads the tree: hundreds of arrows, entry points among their targets", () => {
    expect(graph.length).toBeGreaterThan(300);
    expect(graph.some((e) => e.to === "src/core/fields/fields.ts")).toBe(true);
  });

  it.each(RULES.map((r) => [r.name, r] as const))("%s", (_, rule) => {
    const broken = graph.filter((e) => breaks(rule, e)).map((e) => `${e.from} -> ${e.to}`);
    expect(broken.filter((b) => !KNOWN.includes(b))).toEqual([]);
  });

  it.each(RULES.map((r) => [r.name, r] as const))("a planted arrow breaks it: %s", (_, rule) => {
    expect(breaks(rule, arrow(rule.planted))).toBe(true);
  });

  it("reads every form of load: import, re-export, require, import(), side effect, the package's own subpaths", () => {
    const text = [
      'import { a } from "./args/messages";',
      'export * from "../core/unknown";',
      'const internal = require("pulumi-guardrails/internal");',
      'const shim = await import("../dynamic/shim");',
      'import "./text/controls";',
      'import type * as pulumi from "@pulumi/pulumi";',
    ].join("\n");
    expect(arrowsOf("src/core/planted.ts", text).map((e) => e.to)).toEqual([
      "src/core/args/messages.ts",
      "src/core/unknown.ts",
      "src/dynamic/internal.ts",
      "src/dynamic/shim.ts",
      "src/core/text/controls.ts",
      "@pulumi/pulumi",
    ]);
  });

  it("a core file that loads the dynamic face by the package's own name breaks the wall", () => {
    const rule = RULES.find((r) => r.name.startsWith("the core knows no face"))!;
    const planted = arrowsOf("src/core/guardrail/lifecycle.ts", 'require("pulumi-guardrails/internal").guardrail;');
    expect(planted.some((e) => breaks(rule, e))).toBe(true);
  });

  it("no load in the tree has a computed target, which no wall could read", () => {
    const computed = [...FILES].filter(
      (f) => (code(readFileSync(join(ROOT, f), "utf8")).match(COMPUTED) ?? []).length > 0,
    );
    expect(computed).toEqual([]);
    expect("const m = require(name);".match(COMPUTED)).not.toBeNull();
    expect('const m = require("x");'.match(COMPUTED)).toBeNull();
  });

  it("every arrow on the known list still exists (the list only shrinks)", () => {
    const all = new Set(graph.map((e) => `${e.from} -> ${e.to}`));
    expect(KNOWN.filter((k) => !all.has(k))).toEqual([]);
  });
});
