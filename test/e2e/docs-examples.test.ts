/**
 * Issue 42: the docs' examples type-check as their reader's compiler would. Every ```ts block
 * (README.md and docs/) with tsc, every ```python block with `mypy --strict`, every ```go block
 * with `go vet` against sdk/go; a block whose info string says `fragment` (```ts fragment) is
 * a piece of a program and is skipped (the marker: test/helpers/doc-blocks.ts). In the e2e project: the first run downloads mypy and `pulumi` from PyPI (cached in
 * ~/.cache/pulumi-guardrails) and builds the Pulumi Go SDK; after that it runs offline.
 */
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../support/spawn-emulator";
import { type DocLanguage, docBlocks, programBlocks } from "../helpers/doc-blocks";
import { checkGo, checkPython, checkTypeScript } from "../helpers/doc-check";

const blocks = docBlocks(REPO_ROOT);
const of = (language: DocLanguage) => blocks.filter((b) => b.language === language);

describe("the docs' examples type-check (issue 42)", () => {
  it("finds the blocks of each language, a fragment skipped", () => {
    expect(of("ts").length).toBeGreaterThan(10);
    expect(of("python").length).toBeGreaterThan(1);
    expect(of("go").length).toBeGreaterThan(1);
    const page = "a\n```ts\nlet x: number = 1;\n```\n```ts fragment\nx\n```\n  ```python\n  y = 1\n  ```\n";
    expect(programBlocks("p.md", page)).toEqual([
      { language: "ts", at: "p.md:2", code: "let x: number = 1;\n" },
      { language: "python", at: "p.md:8", code: "y = 1\n" },
    ]);
  });

  it("TypeScript: tsc --strict", async () => {
    expect(await checkTypeScript(REPO_ROOT, of("ts"))).toEqual([]);
  });

  it("Python: mypy --strict", async () => {
    expect(await checkPython(REPO_ROOT, of("python"))).toEqual([]);
  });

  it("Go: go vet", async () => {
    expect(await checkGo(REPO_ROOT, of("go"))).toEqual([]);
  });
});
