/**
 * CONTRIBUTING.md stays a short guide (issue 39): at most 12 KB, with reports kept in
 * mutation/README.md and bench/README.md, and it names no path that does not exist, so a file
 * that moves cannot leave the guide pointing at its old home. Links are doc-links.test.ts's;
 * this reads the paths written as code (`src/core/kinds.ts`) and the entries of the layout tree.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");
const MAX_BYTES = 12 * 1024;
const guide = readFileSync(join(root, "CONTRIBUTING.md"), "utf8");

/**
 * Paths the guide names ahead of the branches of issue 39 that create them. Each entry must be
 * missing still: once it exists, delete it here (the list only shrinks).
 */
const PENDING: string[] = [];

/** Made by running something, never in a clean clone. */
const BUILT = ["dist/", "reports/"];

/** Every file and folder of the repository (folders with a trailing `/`), as repository paths. */
function tree(): string[] {
  const skip = new Set(["node_modules", ".git", "dist"]);
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (skip.has(e.name)) continue;
      const path = dir ? `${dir}/${e.name}` : e.name;
      out.push(e.isDirectory() ? `${path}/` : path);
      if (e.isDirectory()) walk(path);
    }
  };
  walk("");
  return out;
}

/**
 * A code span that reads as a repository path: has a slash, or ends in a file extension. Not a
 * package at a version (`sdk/v3@v3.68.0`) nor a module under a host (`github.com/pulumi/pulumi`).
 */
const PATHLIKE = /^[\w.-]+(\/[\w.-]+)*\/?$/;
const HOST = /^\w[\w-]*(\.[\w-]+)+\//;
const isPath = (s: string) =>
  PATHLIKE.test(s) && !HOST.test(s) && (s.includes("/") || /\.(ts|mts|mjs|js|json|jsonc|md|yaml|go|py)$/.test(s));

/** The text outside fenced code blocks, and the fenced blocks. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "");
const fences = (text: string) => [...text.matchAll(/^```\n([\s\S]*?)^```/gm)].map((m) => m[1]!);

/**
 * The paths a guide names: code spans of its prose that read as paths (not the package's own
 * subpaths, nor npm packages), and every entry of a layout tree (a fenced block whose lines are `name  text`,
 * two spaces of indent a level), as repository paths.
 */
function namedPaths(text: string): string[] {
  const spans = [...prose(text).matchAll(/`([^`\n]+)`/g)]
    .map((m) => m[1]!)
    .filter((s) => isPath(s) && !s.startsWith("pulumi-guardrails"));
  const entries: string[] = [];
  for (const block of fences(text)) {
    const stack: string[] = [];
    for (const line of block.split("\n")) {
      const m = /^( *)(\S+)/.exec(line);
      if (!m || !isPath(m[2]!)) continue;
      const depth = m[1]!.length / 2;
      stack.length = depth;
      const parent = stack.join("");
      entries.push(parent + m[2]!);
      stack[depth] = m[2]!.endsWith("/") ? m[2]! : "";
    }
  }
  return [...spans, ...entries];
}

/** The named paths that exist nowhere: a path with a folder must exist from the root or end a repository path. */
function missing(paths: string[], files: string[]): string[] {
  const found = (p: string) =>
    existsSync(join(root, p)) || files.some((f) => f === p || f.endsWith(`/${p}`) || f === `${p}/`);
  return [...new Set(paths)].filter(
    (p) => !found(p) && !BUILT.some((b) => p.startsWith(b)) && !PENDING.some((x) => p === x || p.startsWith(x)),
  );
}

describe("CONTRIBUTING.md, a short guide", () => {
  it(`is at most ${MAX_BYTES} bytes`, () => {
    expect(Buffer.byteLength(guide, "utf8")).toBeLessThanOrEqual(MAX_BYTES);
  });

  it("names no path that does not exist", () => {
    const named = namedPaths(guide);
    expect(named.length).toBeGreaterThan(40);
    expect(missing(named, tree())).toEqual([]);
  });

  it("every pending path is still missing and still named (the list only shrinks)", () => {
    const named = namedPaths(guide);
    expect(PENDING.filter((p) => existsSync(join(root, p)))).toEqual([]);
    expect(PENDING.filter((p) => !named.some((n) => n === p || n.startsWith(p)))).toEqual([]);
  });

  it("the check can fail: a moved file, a missing tree entry and a span are reported", () => {
    const text = [
      "See `support/docs-tables-gone.ts`, `npm run docs`, `pulumi-guardrails/policy`, `@pulumi/pulumi`, `github.com/pulumi/pulumi/sdk/v3`, `.ci/run` and `src/core/fields/`.",
      "```",
      "src/            the package",
      "  planted/      a folder that is not there",
      "    x.ts        nor its file",
      "  index.ts      the entry point",
      "```",
    ].join("\n");
    expect(namedPaths(text)).toEqual([
      "support/docs-tables-gone.ts",
      ".ci/run",
      "src/core/fields/",
      "src/",
      "src/planted/",
      "src/planted/x.ts",
      "src/index.ts",
    ]);
    expect(missing(namedPaths(text), tree())).toEqual([
      "support/docs-tables-gone.ts",
      "src/planted/",
      "src/planted/x.ts",
    ]);
  });
});
