/**
 * The house's walls, read from the code's own imports (issue 25). Every arrow goes one way:
 *
 *   tools/ ──entry points only──▶ src/{index,access,export,preview,policy}
 *   src/declarative ─▶ src/dynamic ─▶ src/core ◀─ src/{policy,export,preview}
 *   inside src/core: text, kinds, urn ◀ user-error, markers, arg-doc, type-tokens, holders ◀ fields ◀ client ◀ args ◀ settings ◀ resource ◀ guardrail | assignments | policies
 *   codegen/ ─▶ src/   (the native schema, the docs tables, the SDKs; nothing shipped loads it)
 *
 * The core is plain data: it loads no `@pulumi/*` package, so a second face (a native
 * provider plugin) can adapt it without the first. The emulator shares no code with the
 * library in either direction. Each rule is also run against a graph with one forbidden
 * arrow planted, so a rule that can no longer fail is noticed.
 *
 * Known limits: these walls read text. A literal built at run time (`"4dabf181930729395" +
 * "15e22adb298388d"`, `["Guardrail" + "KeyAssignment"]`, `[a, b].join("-")`), a kind's name
 * through a constant of another file, a face's formatter handed to the core as an argument,
 * or its behaviour re-written in the core, cannot be caught by a text wall, and none tries:
 * review catches them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS, TYPE_NAMES } from "../../src/core/kinds";

const ROOT = join(__dirname, "../..");
type Edge = { from: string; to: string };

/** Every .ts file under the given folders (and .mjs/.cjs/.js ones under `scripts`), as repository paths. */
function sources(dirs: string[], scripts: string[]): string[] {
  return [...dirs, ...scripts].flatMap((d) =>
    (readdirSync(join(ROOT, d), { recursive: true }) as string[])
      .filter((f) => !f.split("/").includes("node_modules"))
      .filter((f) => (f.endsWith(".ts") && !f.endsWith(".d.ts")) || (scripts.includes(d) && /\.(mjs|cjs|js)$/.test(f)))
      .map((f) => `${d}/${f}`),
  );
}

/** The sources the walls read: codegen's and the scripts' JavaScript too, which run with the tree's files. */
const FILES = new Set(sources(["src", "tools", "emulator", "bench", "support"], ["codegen", "scripts"]));
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
  // A script loads the build (`../dist/codegen/x.js`): the arrow is to the source it was built from.
  const base = normalize(join(dirname(from), spec)).replace(/^dist\/(.*)\.js$/, "$1");
  return [`${base}.ts`, `${base}/index.ts`, base].find((c) => FILES.has(c)) ?? base;
}

/** A file's text without its comments, so a comment that names a path or says "require (" is no arrow. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

/** The arrows of one file's text. */
const arrowsOf = (from: string, text: string): Edge[] =>
  [...code(text).matchAll(SPECIFIER)].map((m) => ({ from, to: target(from, m[1]!) }));

/** A load whose target is computed (`import(name)`, `require(\`...\`)`): no wall could read it, so none may exist. */
const COMPUTED = /\b(?:import|require)\s*\(\s*(?!["'\s)])/g;

/** A string literal's text (one line), blanked, so that "guardrails-require-zdr" names no `require`. */
const blankStrings = (text: string) =>
  text.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, (m) => `${m[0]}${m[0]}`);

/**
 * The one way a file may hold `require` or `createRequire` other than calling it on a literal:
 * an ES module making its `require` (`const require = createRequire(import.meta.url)`, after
 * importing `createRequire` from node:module), and `require.main`/`require.resolve`, which load
 * nothing.
 */
const REQUIRE_ALLOWED = [
  /\b(?:const|let|var)\s+require\s*=\s*createRequire\s*\(\s*import\.meta\.url\s*\)/g,
  /\bimport\s*\{[^}]*\}\s*from\s*["']node:module["']/g,
  /\brequire\s*\.\s*(?:main|resolve)\b/g,
];

/**
 * `require` or `createRequire` as a value (`const load = require; load("../dynamic/x")`): every
 * load through the alias is a computed one. Counted with COMPUTED.
 */
function aliasedLoads(text: string): string[] {
  const rest = blankStrings(REQUIRE_ALLOWED.reduce((t, re) => t.replace(re, ""), code(text)));
  return [...rest.matchAll(/\b(?:require|createRequire)\b(?!\s*\(\s*["'])/g)].map((m) => m[0]);
}

/** Every import arrow of the tree. */
function edges(): Edge[] {
  return [...FILES].flatMap((from) => arrowsOf(from, readFileSync(join(ROOT, from), "utf8")));
}

const under =
  (...prefixes: string[]) =>
  (p: string) =>
    prefixes.some((x) => (x.endsWith("/") ? p.startsWith(x) : p === x));
const not = (f: (p: string) => boolean) => (p: string) => !f(p);
const local = (p: string) => /^(src|tools|emulator|bench|support|codegen|scripts|test)\//.test(p);
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
  "src/access/index.ts",
  "src/export/index.ts",
  "src/preview/index.ts",
  "src/policy/index.ts",
  "emulator/index.ts",
);
/** The core's bottom: plain text helpers, the kind table and the URN reader, which every floor may import. */
const BOTTOM = ["src/core/text/", "src/core/kinds.ts", "src/core/urn.ts"];
/** Small leaves above the bottom: each imports the bottom alone. */
const LEAVES = [
  "src/core/user-error.ts",
  "src/core/markers.ts",
  "src/core/type-tokens.ts",
  "src/core/holders.ts",
  "src/core/arg-doc.ts",
];
/**
 * The core's lower floors, and what each may import besides itself and the bottom. Everything
 * else of src/core is above it, named or not: a new kind's folder (src/core/widget/) or helper
 * is above every floor the day it is made.
 */
const CORE_FLOORS: [string, string[]][] = [
  ...BOTTOM.map((f): [string, string[]] => [f, []]),
  ...LEAVES.map((f): [string, string[]] => [f, []]),
  ["src/core/fields/", LEAVES],
  ["src/core/client/", [...LEAVES, "src/core/fields/"]],
  ["src/core/args/", [...LEAVES, "src/core/fields/", "src/core/client/"]],
  // settings/ builds the Connection a lifecycle takes (connection.ts), once per provider instance.
  [
    "src/core/settings/",
    [...LEAVES, "src/core/fields/", "src/core/client/", "src/core/args/", "src/core/connection.ts"],
  ],
  // resource/ is what every kind's lifecycle shares (the create journal and claims, the
  // workspace answer check, secrecy, the error wrapper), so that kinds never import each other.
  [
    "src/core/resource/",
    [
      ...LEAVES,
      "src/core/fields/",
      "src/core/client/",
      "src/core/args/",
      "src/core/settings/",
      "src/core/connection.ts",
      "src/core/confirm-gone.ts",
    ],
  ],
];
const FLOORS = CORE_FLOORS.map(([floor]) => floor);
/** A core file above `floor`: not in it, not the bottom, not what it may import. */
const aboveFloor = (floor: string, below: string[]) => (p: string) =>
  p.startsWith("src/core/") && !under(floor, ...BOTTOM, ...below)(p);
/**
 * The folders of src/core that hold a resource kind or a lookup: every folder above the floors,
 * found in the tree, so a new kind's folder is one of them.
 */
const KIND_FOLDERS = [
  ...new Set(
    [...FILES].flatMap((f) => {
      const folder = /^src\/core\/[^/]+\//.test(f) && !under(...FLOORS)(f) ? f.split("/").slice(0, 3).join("/") : "";
      return folder ? [`${folder}/`] : [];
    }),
  ),
];
/** The folder above the floors a core file is in, if any (`src/core/guardrail/`). */
const folderOf = (p: string) =>
  /^src\/core\/[^/]+\//.test(p) && !under(...FLOORS)(p) ? `${p.split("/").slice(0, 3).join("/")}/` : undefined;
/** The lookups (data sources) read a kind's model; no kind reads them or another kind. */
const LOOKUPS = "src/core/data-sources/";

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
    name: "nothing shipped reads codegen: it runs at development time, from the repository only",
    from: under("src/", "tools/", "emulator/"),
    to: under("codegen/"),
    planted: "src/native/schema.ts -> codegen/pulumi-schema.ts",
  },
  {
    name: "codegen reads the library alone, never the test and bench drivers of support/ or bench/",
    from: under("codegen/"),
    to: (p) => local(p) && !p.startsWith("codegen/") && !p.startsWith("src/"),
    planted: "codegen/pulumi-schema.ts -> support/spawn-emulator.ts",
  },
  {
    name: "the test and bench drivers generate nothing: support/ and bench/ never load codegen",
    from: under("support/", "bench/"),
    to: under("codegen/"),
    planted: "support/program.ts -> codegen/docs-tables.ts",
  },
  {
    name: "host glue (anything that loads @pulumi/pulumi) lives in the two faces, the policy pack or declareGuardrails",
    // bench/, support/ and the native demo (scripts/native-demo/) are Pulumi programs and their drivers.
    from: not(
      under(
        "src/dynamic/",
        "src/native/",
        "src/policy/",
        "src/declarative/declare.ts",
        "bench/",
        "support/",
        "scripts/native-demo/",
      ),
    ),
    to: (p) => p === "@pulumi/pulumi",
    planted: "src/export/export.ts -> @pulumi/pulumi",
  },
  {
    name: "the client knows the field table but not the program's args, settings or lifecycles",
    from: under("src/core/client/"),
    to: under("src/core/args/", "src/core/settings/", "src/core/guardrail/", "src/core/assignments/"),
    planted: "src/core/client/client.ts -> src/core/args/guardrail-args.ts",
  },
  ...CORE_FLOORS.map(([floor, below]) => ({
    name: `core floors: ${floor} imports nothing above it, named or not`,
    from: under(floor),
    to: aboveFloor(floor, below),
    // The reviewer's W1: a floor reaching a kind's folder that no list names.
    planted: `${floor.endsWith("/") ? `${floor}planted.ts` : floor} -> src/core/widget/args.ts`,
  })),
  {
    // A lifecycle gets its client as an argument (core/connection.ts), built by a face once per
    // provider instance; reaching the process config would tie every lifecycle to one client (issue 39).
    // Every core file above the floors is held so, a new kind's folder too (the reviewer's G1).
    // journal-files.ts reads the key only to keep it out of a folder name in its messages;
    // connection.ts takes the resolved settings' type to describe what it is built from.
    name: "no lifecycle, lookup or helper above the floors reaches the process config: it takes a Connection",
    from: (p) =>
      p.startsWith("src/core/") &&
      (!under(...FLOORS)(p) || p.startsWith("src/core/resource/")) &&
      !["src/core/resource/journal-files.ts", "src/core/connection.ts"].includes(p),
    to: under("src/core/settings/config.ts"),
    planted: "src/core/widget/planted-config.ts -> src/core/settings/config.ts",
  },
  // Every folder above the floors, named or not: a new kind's folder is held the day it is made.
  ...KIND_FOLDERS.filter((k) => k !== LOOKUPS).map((folder) => ({
    name: `resource kinds do not import each other: ${folder} imports no other folder above the floors`,
    from: under(folder),
    to: (p: string) => folderOf(p) !== undefined && folderOf(p) !== folder,
    // The reviewer's W2: one kind importing another kind's lifecycle.
    planted: `${folder}planted-w2.ts -> src/core/planted-kind/lifecycle.ts`,
  })),
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
    to: under("src/policy/", "src/declarative/", "src/export/", "src/preview/", "src/access/"),
    planted: "src/dynamic/guardrail.ts -> src/policy/index.ts",
  },
  {
    name: "the policy pack, export and the PR summary stand on the core alone, never on the dynamic face",
    from: under("src/policy/", "src/export/", "src/preview/", "src/access/"),
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
    expect(KIND_FOLDERS).toEqual(expect.arrayContaining(["src/core/guardrail/", "src/core/assignments/", LOOKUPS]));
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
      'export * from "../core/markers";',
      'const internal = require("pulumi-guardrails/internal");',
      'const shim = await import("../dynamic/shim");',
      'import "./text/controls";',
      'import type * as pulumi from "@pulumi/pulumi";',
    ].join("\n");
    expect(arrowsOf("src/core/planted.ts", text).map((e) => e.to)).toEqual([
      "src/core/args/messages.ts",
      "src/core/markers.ts",
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
    const computed = [...FILES].filter((f) => {
      const text = readFileSync(join(ROOT, f), "utf8");
      return (code(text).match(COMPUTED) ?? []).length > 0 || aliasedLoads(text).length > 0;
    });
    expect(computed).toEqual([]);
    expect("const m = require(name);".match(COMPUTED)).not.toBeNull();
    expect('const m = require("x");'.match(COMPUTED)).toBeNull();
  });

  it("a planted alias of require breaks it (the reviewer's F3, G4, C2), a script's own require does not", () => {
    // F3: the face's formatter through an alias; G4: the process config so; C2: the plugin reading codegen so.
    expect(aliasedLoads('const load = require;\nexport const f = load("../../dynamic/check-failures");')).toEqual([
      "require",
    ]);
    expect(aliasedLoads('const r = createRequire(__filename);\nr("../settings/config");')).toEqual(["createRequire"]);
    expect(aliasedLoads("const { require: load } = module; const m = [require][0];")).toEqual(["require", "require"]);
    // codegen/generate-schema.mjs, bench/latency.ts, a message naming a rule.
    const script = [
      'import { createRequire } from "node:module";',
      "const require = createRequire(import.meta.url);",
      'const { x } = require("../dist/codegen/pulumi-schema.js");',
      "if (require.main === module) main();",
      'const rule = "guardrails-require-zdr"; // require is a word here',
    ].join("\n");
    expect(aliasedLoads(script)).toEqual([]);
  });

  it("reads codegen's and the scripts' JavaScript, and a script's load of the build as the source it was built from", () => {
    expect(FILES.has("codegen/generate-schema.mjs")).toBe(true);
    expect(arrowsOf("codegen/generate-docs.mjs", 'require("../dist/codegen/docs-tables.js");')[0]?.to).toBe(
      "codegen/docs-tables.ts",
    );
    // The reviewer's C1: codegen's .mjs loading a test driver.
    const rule = RULES.find((r) => r.name.startsWith("codegen reads the library alone"))!;
    const planted = arrowsOf("codegen/generate-docs.mjs", 'import("../support/program.js").catch(() => {});');
    expect(planted.some((e) => breaks(rule, e))).toBe(true);
  });

  it("every arrow on the known list still exists (the list only shrinks)", () => {
    const all = new Set(graph.map((e) => `${e.from} -> ${e.to}`));
    expect(KNOWN.filter((k) => !all.has(k))).toEqual([]);
  });
});

/**
 * Walls read from the code's text, not its imports (issue 39). Pulumi's markers (the unknown
 * sentinels, the secret envelope) are spelled in one module; the emulator, which shares no
 * code with the library, and the tests, which write the protocol out to catch a typo, are not
 * read.
 */
const MARKERS_HOME = "src/core/markers.ts";
const MARKER_LITERALS = [
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9",
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
  "4dabf18193072939515e22adb298388d",
  "1b47061264138c4ac30d75fd1eb44270",
];

/** The marker literals a file spells, when it is not the markers module (case-insensitive, comments included). */
const strayMarkers = (file: string, text: string): string[] =>
  file === MARKERS_HOME
    ? []
    : MARKER_LITERALS.filter((m) => text.toLowerCase().includes(m)).map((m) => `${file}: ${m}`);

/**
 * A core file calling a face's formatting: `forEngine` flattens failures for the dynamic host
 * (dynamic/check-failures.ts). The core marks a failure `secret` (`markSecret`) and each face
 * decides how its engine shows it; a face never parses another face's text back.
 */
const FACE_FORMATTING = /\bforEngine\b/;
const formatsForAFace = (file: string, text: string): boolean =>
  file.startsWith("src/core/") && FACE_FORMATTING.test(code(text));

/**
 * The process config's client reaches a lifecycle only through an import of settings/config.ts,
 * which the wall above reads, if no other module hands it on: a re-export (`export {
 * processConfig as x } from "./config"`) or an exported binding of it would launder the arrow
 * through a file the wall allows (the reviewer's G2, through settings/said-once.ts, and G3,
 * through the exempt resource/journal-files.ts). Only settings/config.ts exports them. Known
 * limit: an exported function that returns it (settings/key-source.ts defaults a parameter to
 * it, which is fine) is not read as handing it on.
 */
const CONFIG_HOME = "src/core/settings/config.ts";
/** A re-export naming them, `export *` of settings/config, or an exported binding of them. */
const HANDS_ON = [
  /\bexport\s+(?:type\s+)?\{[^}]*\b(?:processConfig|ProviderConfig)\b[^}]*\}/,
  /\bexport\s*\*\s*(?:as\s+\w+\s*)?from\s*["'](?:[^"']*\/settings)?(?:\.\.?\/)?config["']/,
  /\bexport\s+(?:const|let|var)\s+\w+\s*(?::[^=]+)?=\s*(?:processConfig|ProviderConfig)\b/,
];
const handsOnConfig = (file: string, text: string): boolean =>
  file.startsWith("src/core/") && file !== CONFIG_HOME && HANDS_ON.some((re) => re.test(code(text)));

describe("text walls (issue 39)", () => {
  const texts = [...FILES]
    .filter((f) => !f.startsWith("emulator/"))
    .map((f) => [f, readFileSync(join(ROOT, f), "utf8")] as const);

  it("reads the markers module and the tree's sources", () => {
    expect(FILES.has(MARKERS_HOME)).toBe(true);
    const home = readFileSync(join(ROOT, MARKERS_HOME), "utf8");
    expect(MARKER_LITERALS.filter((m) => !home.includes(m))).toEqual([]);
  });

  it("the unknown sentinels' and the secret envelope's literals appear only in core/markers.ts", () => {
    expect(texts.flatMap(([f, t]) => strayMarkers(f, t))).toEqual([]);
  });

  it("a planted copy breaks it: the secret envelope spelled in a face", () => {
    const planted = 'const SIG_KEY = "4DABF18193072939515E22ADB298388D";';
    expect(strayMarkers("src/native/wire.ts", planted)).toEqual([
      "src/native/wire.ts: 4dabf18193072939515e22adb298388d",
    ]);
    expect(strayMarkers("src/preview/values.ts", `x === "${MARKER_LITERALS[0]}"`)).toHaveLength(1);
  });

  it("no core file but settings/config.ts hands on the process config (re-export or exported binding)", () => {
    expect(texts.filter(([f, t]) => handsOnConfig(f, t)).map(([f]) => f)).toEqual([]);
  });

  it("a planted re-export breaks it (the reviewer's G2 and G3), an import or a mention does not", () => {
    expect(
      handsOnConfig("src/core/settings/said-once.ts", 'export { processConfig as defaultConnection } from "./config";'),
    ).toBe(true);
    expect(
      handsOnConfig(
        "src/core/resource/journal-files.ts",
        'export { processConfig as journalConn } from "../settings/config";',
      ),
    ).toBe(true);
    expect(handsOnConfig("src/core/settings/x.ts", "export const conn: Source = processConfig;")).toBe(true);
    expect(handsOnConfig("src/core/settings/x.ts", 'export * from "./config";')).toBe(true);
    expect(
      handsOnConfig("src/core/resource/journal-files.ts", 'import { resolveSettings } from "../settings/config";'),
    ).toBe(false);
    expect(handsOnConfig(CONFIG_HOME, "export const processConfig = new ProviderConfig();")).toBe(false);
    expect(handsOnConfig("src/dynamic/internal.ts", 'export { processConfig } from "../core/settings/config";')).toBe(
      false,
    );
  });

  it("no core file calls a face's formatting (forEngine)", () => {
    expect(texts.filter(([f, t]) => formatsForAFace(f, t)).map(([f]) => f)).toEqual([]);
  });

  it("a planted call breaks it: the set lifecycle flattening its failures for the dynamic host", () => {
    const planted = "return { inputs: news, failures: forEngine(failures, secret) };";
    expect(formatsForAFace("src/core/assignments/lifecycle.ts", planted)).toBe(true);
    expect(formatsForAFace("src/dynamic/lifecycle-adapter.ts", planted)).toBe(false);
    expect(formatsForAFace("src/core/args/messages.ts", "// forEngine (the dynamic face) prints it")).toBe(false);
  });
});

/**
 * "Where does a new resource kind go?" One row of src/core/kinds.ts (issue 39). A list of kinds
 * anywhere else is a list a new kind would have to find: no file outside kinds.ts spells two of
 * the kinds' names as string literals (the type names, the `internal` members users' state
 * calls, the policy pack's words; "guardrail", a word of every message, is left out). A table
 * keyed by kind is a `Record<ResourceTypeName, ...>` with bare keys, which the compiler holds
 * to the table: no literal, no finding. Comments are not read; generated files (the native
 * schema, the SDKs) are not sources.
 */
const KIND_WORDS = [
  ...new Set(TYPE_NAMES.flatMap((t) => [t, KINDS[t].internal, KINDS[t].policyKind]).filter((w) => w !== "guardrail")),
];
const KIND_LITERAL = new RegExp(`(["'])(${KIND_WORDS.join("|")})\\1`, "g");
// A template literal is a literal too; read once the quoted strings are blanked, so a name in
// backticks inside a string (prose: a description naming the resource) is not one.
const KIND_TEMPLATE = new RegExp(`(?<!\\\\)\`(${KIND_WORDS.join("|")})(?<!\\\\)\``, "g");
// A type name as a bare key of an object literal or type (`{ Guardrail: 1, ... }`).
const KIND_KEY = new RegExp(`(?:[{,]|^)\\s*(${TYPE_NAMES.join("|")})\\s*\\??:`, "gm");
// A file whose bare-keyed tables the compiler holds to the kind table (text approximation: the file's).
const TYPED_BY_KIND = /\bRecord<\s*(?:ResourceTypeName|SetTypeName)\b|\bsatisfies\s+Record<\s*\w*TypeName\b/;
// "guardrail", a word of every message, counts when a line compares or lists it (`=== "guardrail"`,
// `case`, an array's element) beside another kind's word; a message's noun (`? "x" : "guardrail"`) does not.
const GUARDRAIL_WORD = /(?:[=!]==\s*|\bcase\s+|[[,]\s*)(["'`])guardrail\1|(["'`])guardrail\2\s*(?:[=!]==|[,\]])/;
const KIND_TABLE = "src/core/kinds.ts";

/** The kinds' names a file's code spells as literals or bare keys, each once. */
function kindLiterals(text: string): string[] {
  const c = code(text);
  const quoted = [...c.matchAll(KIND_LITERAL)].map((m) => m[2]!);
  const templates = [...blankStrings(c).matchAll(KIND_TEMPLATE)].map((m) => m[1]!);
  const keys = TYPED_BY_KIND.test(c) ? [] : [...c.matchAll(KIND_KEY)].map((m) => m[1]!);
  const guardrail = c
    .split("\n")
    .some((line) => GUARDRAIL_WORD.test(line) && (line.match(KIND_LITERAL) ?? []).length > 0)
    ? ["guardrail"]
    : [];
  return [...new Set([...quoted, ...templates, ...keys, ...guardrail])];
}
/** A file that lists kinds: two or more of their names. */
const listsKinds = (text: string) => kindLiterals(text).length >= 2;

describe("the kind table (issue 39)", () => {
  it("no kind list outside src/core/kinds.ts", () => {
    const listing = [...FILES]
      .filter((f) => f !== KIND_TABLE)
      .filter((f) => listsKinds(readFileSync(join(ROOT, f), "utf8")))
      .map((f) => `${f}: ${kindLiterals(readFileSync(join(ROOT, f), "utf8")).join(", ")}`);
    expect(listing).toEqual([]);
  });

  it("a planted list breaks it: a union, an array, a map by word, a branch on two kinds", () => {
    expect(KIND_WORDS).toEqual(
      expect.arrayContaining(["WorkspaceDefaultGuardrail", "memberAssignment", "workspaceDefault"]),
    );
    const planted = [
      'type Kind = "Guardrail" | "GuardrailMemberAssignment";',
      "const GUARDRAIL_TYPES = ['Guardrail', 'WorkspaceDefaultGuardrail'];",
      'const INTERNAL_KINDS = { guardrail: "guardrail", memberAssignment: "memberAssignment", keyAssignment: "keyAssignment" };',
      'if (kind !== "guardrail" && kind !== "workspaceDefault" && kind !== "keyAssignment") return;',
    ];
    for (const text of planted) expect(listsKinds(text), text).toBe(true);
    // One kind's own name is no list, nor are names in comments or in a string's prose, nor a table keyed by bare names.
    expect(listsKinds('const d = "as `GuardrailMemberAssignment` and `GuardrailKeyAssignment` name them";')).toBe(
      false,
    );
    expect(listsKinds('refuseImportOption("Guardrail", name, opts);')).toBe(false);
    expect(listsKinds('/** `Guardrail` and `"WorkspaceDefaultGuardrail"` */ const x = 1;')).toBe(false);
    expect(
      listsKinds("const FIX: Record<ResourceTypeName, string> = { Guardrail: a, WorkspaceDefaultGuardrail: b };"),
    ).toBe(false);
    // The reviewer's K1 (bare keys typed Record<string, ...>), K3 (template literals), K4 and K5
    // ("guardrail" beside another kind's word), K6 (a list in codegen's .mjs).
    const reviewer = [
      "export const PLANT_BARE: Record<string, number> = { Guardrail: 1, GuardrailMemberAssignment: 2 };",
      "export const PLANT_TPL = [`Guardrail`, `GuardrailMemberAssignment`];",
      'export const PLANT_LOWER = ["guardrail", "keyAssignment"];',
      'export const isSettings = (k: string) => k === "guardrail" || k === "Guardrail" || k === W;',
      "type Lifecycles = {\n  Guardrail: Lifecycle;\n  WorkspaceDefaultGuardrail: Lifecycle;\n};",
    ];
    for (const text of reviewer) expect(listsKinds(text), text).toBe(true);
    expect(FILES.has("codegen/generate-docs.mjs")).toBe(true);
    // Typed by the kind table, the compiler holds the keys; "guardrail" in a message is no kind.
    expect(
      listsKinds("const L: Record<SetTypeName, X> = { GuardrailMemberAssignment: a, GuardrailKeyAssignment: b };"),
    ).toBe(false);
    expect(listsKinds('const m = "guardrail";\nrefuseImportOption("Guardrail", name, opts);')).toBe(false);
    expect(listsKinds('const noun = kind === "workspaceDefault" ? "workspace default guardrail" : "guardrail";')).toBe(
      false,
    );
    expect(listsKinds('const d = "the `Guardrail` and `WorkspaceDefaultGuardrail` resources";')).toBe(false);
    // The table itself does list them: the wall reads the words it guards.
    expect(listsKinds(readFileSync(join(ROOT, KIND_TABLE), "utf8"))).toBe(true);
  });
});
