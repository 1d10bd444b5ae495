/**
 * scripts/prepare.mjs: `prepare` skips the build only when dist/ is the build of exactly the
 * current sources (dist/.build-stamp holds their hash), so an install that packs the repository
 * never rewrites dist/ under running tests, and never ships a stale build either.
 */
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { buildIsCurrent, INPUT_DIRS, INPUT_FILES, inputsHash, OUTPUTS, STAMP } from "../../scripts/prepare.mjs";
import { REPO_ROOT } from "../helpers/spawn-emulator";

let root: string;
function put(rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}
function stamp(): void {
  put(STAMP, `${inputsHash(root)}\n`);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "guardrails-prepare-"));
  put("package.json", "{}");
  put("src/index.ts", "export const a = 1;\n");
  put("emulator/store.ts", "export class Store {}\n");
  for (const f of OUTPUTS as string[]) put(f, "// built\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("scripts/prepare.mjs", () => {
  it("counts dist/ current only when the stamp matches the inputs", () => {
    expect(buildIsCurrent(root)).toBe(false); // no stamp yet
    stamp();
    expect(buildIsCurrent(root)).toBe(true);
    put("src/index.ts", "export const a = 2;\n");
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("sees a new source file, a renamed one and a changed tsconfig", () => {
    stamp();
    put("support/new.ts", "export {};\n");
    expect(buildIsCurrent(root)).toBe(false);
    stamp();
    rmSync(join(root, "support"), { recursive: true });
    put("support/renamed.ts", "export {};\n");
    expect(buildIsCurrent(root)).toBe(false);
    stamp();
    put("tsconfig.build.json", '{ "include": ["src"] }');
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("ignores what tsc does not read: docs, node_modules, bench results", () => {
    stamp();
    put("src/README.md", "# notes\n");
    put("src/node_modules/x/index.ts", "export {};\n");
    put("bench/results/latest.json", "{}");
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("rebuilds when an output is gone, whatever the stamp says", () => {
    stamp();
    unlinkSync(join(root, "dist/plugin/main.js"));
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("hashes every folder the build's tsconfigs include", () => {
    const includes = ["tsconfig.build.json", "tsconfig.sdk.json"].flatMap((f) => {
      const { config } = ts.readConfigFile(join(REPO_ROOT, f), ts.sys.readFile);
      return (config.include ?? []) as string[];
    });
    expect(includes.length).toBeGreaterThan(0);
    for (const dir of includes) expect(INPUT_DIRS).toContain(dir);
    for (const f of ["tsconfig.build.json", "tsconfig.sdk.json", "scripts/plugin-pack.mjs"])
      expect(INPUT_FILES).toContain(f);
  });
});
