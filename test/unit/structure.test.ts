/**
 * The size limits of the code base (issue 11): no file over 250 lines under src/ and
 * emulator/, and no function over 80 lines in any shipped or shared source. Functions are
 * found with the TypeScript parser, so a closure counts on its own and its enclosing function
 * counts whole, inner helpers included.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");
const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 80;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/** Every function-like node of a file over `max` lines, as `path:line name (N lines)`. */
function longFunctions(path: string, text: string, max: number): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      const name =
        node.name && ts.isIdentifier(node.name)
          ? node.name.text
          : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
            ? node.parent.name.text
            : "(anonymous)";
      if (lines > max) found.push(`${path}:${start + 1} ${name} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("code size limits", () => {
  it(`no file over ${MAX_FILE_LINES} lines under src/ and emulator/`, () => {
    const long = [...sources("src"), ...sources("emulator")]
      .map((p) => ({ p, n: readFileSync(join(root, p), "utf8").split("\n").length - 1 }))
      .filter(({ n }) => n > MAX_FILE_LINES)
      .map(({ p, n }) => `${p} (${n} lines)`);
    expect(long).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines in src/, emulator/, tools/, support/, codegen/ and bench/`, () => {
    const files = ["src", "emulator", "tools", "support", "codegen", "bench"].flatMap(sources);
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap((p) => longFunctions(p, readFileSync(join(root, p), "utf8"), MAX_FUNCTION_LINES))).toEqual([]);
  });

  it("the function finder sees a long closure inside a short-looking export, and its enclosing function", () => {
    const body = Array.from({ length: 81 }, (_, i) => `    const x${i} = ${i};`).join("\n");
    const text = `export function outer() {\n  return () => {\n${body}\n  };\n}\nconst short = () => 1;\n`;
    expect(longFunctions("f.ts", text, 80)).toEqual(["f.ts:1 outer (85 lines)", "f.ts:2 (anonymous) (83 lines)"]);
  });
});

/** Exports of an entry point (followed through re-exports) that carry no JSDoc, with class members. */
function undocumentedExports(entries: string[]): string[] {
  const program = ts.createProgram(
    entries.map((e) => join(root, e)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const missing = new Set<string>();
  const documented = (s: ts.Symbol) =>
    s.getDocumentationComment(checker).length > 0 || s.getJsDocTags(checker).length > 0;
  for (const entry of entries) {
    const file = program.getSourceFile(join(root, entry))!;
    const module = checker.getSymbolAtLocation(file)!;
    for (const exported of checker.getExportsOfModule(module)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const where = relative(root, target.declarations?.[0]?.getSourceFile().fileName ?? entry);
      if (!documented(target) && !documented(exported)) missing.add(`${where}: ${exported.name}`);
      if (target.flags & ts.SymbolFlags.Class) {
        for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(target))) {
          const decl = member.valueDeclaration;
          if (
            !decl ||
            !ts.isMethodDeclaration(decl) ||
            ts.getCombinedModifierFlags(decl) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) ||
            member.name.startsWith("_")
          )
            continue;
          if (relative(root, decl.getSourceFile().fileName).startsWith("node_modules")) continue;
          if (!documented(member)) missing.add(`${where}: ${exported.name}.${member.name}`);
        }
      }
    }
  }
  return [...missing].sort();
}

describe("public API documentation", () => {
  it("every export of the package's entry points, and every public method of an exported class, has JSDoc", () => {
    expect(
      undocumentedExports([
        "src/index.ts",
        "src/policy/index.ts",
        "src/export/index.ts",
        "src/preview/index.ts",
        "emulator/index.ts",
      ]),
    ).toEqual([]);
  });
});

describe("CONTRIBUTING.md layout", () => {
  const contributing = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");
  const layout = contributing.slice(contributing.indexOf("## Layout"), contributing.indexOf("## Testing"));
  /** Names the layout section does not mention, each as a word of its own (`core/`, `index.ts`). */
  const unnamed = (names: string[]) =>
    names.filter((n) => !new RegExp(`(^|[\\s,(])${n.replace(/[.$]/g, "\\$&")}`, "m").test(layout));
  const entries = (dir: string) => readdirSync(join(root, dir), { withFileTypes: true });

  it("names every folder and top-level file of src/, every folder of src/core/ and tools/", () => {
    const names = [
      ...entries("src").map((e) => (e.isDirectory() ? `${e.name}/` : e.name)),
      ...entries("src/core")
        .filter((e) => e.isDirectory())
        .map((e) => `${e.name}/`),
      ...entries("tools")
        .filter((e) => e.isDirectory())
        .map((e) => `${e.name}/`),
    ];
    expect(names.length).toBeGreaterThan(15);
    expect(unnamed(names)).toEqual([]);
  });

  it("emulator/README.md names every emulator/ file, and the check can fail", () => {
    const readme = readFileSync(join(root, "emulator/README.md"), "utf8");
    const unlisted = (names: string[]) =>
      names.filter((n) => !new RegExp(`(^|[\\s,(])${n.replace(/[.$]/g, "\\$&")}`, "m").test(readme));
    const files = entries("emulator")
      .map((e) => e.name)
      .filter((n) => n !== "README.md");
    expect(files.length).toBeGreaterThan(30);
    expect(unlisted(files)).toEqual([]);
    expect(unlisted(["planted.ts", "server.ts"])).toEqual(["planted.ts"]);
  });

  it("the check can fail: a name the layout does not hold is reported", () => {
    expect(layout).toContain("## Layout");
    expect(unnamed(["core/", "planted-folder/", "planted.ts"])).toEqual(["planted-folder/", "planted.ts"]);
  });
});
