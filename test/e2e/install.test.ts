/**
 * Issue 14: the package installs the way a user installs it. A fresh clone packs a tarball
 * with dist/ (the `prepare` script builds it), the tarball carries no source maps pointing at
 * files it does not ship, and a program that brings its own, newer `@pulumi/pulumi` ends up
 * with exactly one copy of it (`@pulumi/pulumi` is a peer dependency).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-emulator";

/** A newer `@pulumi/pulumi` than the repository's devDependency, as most users' programs have. */
const NEWER_PULUMI = process.env.GUARDRAILS_PULUMI_NEWEST || "3.270.0";

const npm = (args: string[], cwd: string) =>
  execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    encoding: "utf8",
    // The package's postinstall writes into PULUMI_HOME: the tests' own, never the user's.
    env: { ...process.env, PULUMI_HOME: join(inject("e2e").work, "pulumi-home") },
    stdio: ["ignore", "pipe", "pipe"],
  });

/** Every installed copy of `name` under `dir`, as "path@version", found by walking node_modules. */
function copiesOf(dir: string, name: string): string[] {
  const found: string[] = [];
  const walk = (nodeModules: string) => {
    if (!existsSync(nodeModules)) return;
    for (const entry of readdirSync(nodeModules)) {
      const scoped = entry.startsWith("@")
        ? readdirSync(join(nodeModules, entry)).map((e) => `${entry}/${e}`)
        : [entry];
      for (const pkg of scoped) {
        const pkgDir = join(nodeModules, pkg);
        const manifest = join(pkgDir, "package.json");
        if (pkg === name && existsSync(manifest))
          found.push(`${pkgDir}@${JSON.parse(readFileSync(manifest, "utf8")).version}`);
        walk(join(pkgDir, "node_modules"));
      }
    }
  };
  walk(join(dir, "node_modules"));
  return found;
}

describe("installing the package", () => {
  it("a fresh clone packs a tarball with dist/ and no source maps", () => {
    const work = mkdtempSync(join(inject("e2e").work, "fresh-clone-"));
    const clone = join(work, "clone");
    // The working tree as a clone would see it: tracked and new files, nothing ignored (no dist/, no node_modules).
    const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    })
      .split("\0")
      .filter(Boolean);
    for (const f of files)
      if (existsSync(join(REPO_ROOT, f))) cpSync(join(REPO_ROOT, f), join(clone, f), { recursive: true });
    expect(existsSync(join(clone, "dist"))).toBe(false);

    npm(["ci", "--prefer-offline"], clone);
    const [packed] = JSON.parse(npm(["pack", "--json", "--pack-destination", work], clone)) as {
      files: { path: string }[];
    }[];
    const paths = packed!.files.map((f) => f.path);
    expect(paths).toContain("dist/src/index.js");
    expect(paths).toContain("dist/src/dynamic/internal.js");
    expect(paths).toContain("dist/emulator/cli.js");
    expect(paths.filter((p) => p.endsWith(".map"))).toEqual([]);
    // No TypeScript source but the examples', which ship as documentation.
    expect(paths.filter((p) => p.endsWith(".ts") && !p.endsWith(".d.ts") && !p.startsWith("examples/"))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(clone, "package.json"), "utf8"));
    for (const bin of Object.values(manifest.bin as Record<string, string>)) expect(paths).toContain(bin);
  });

  it(`a program on @pulumi/pulumi ${NEWER_PULUMI} installs the tarball with one copy of @pulumi/pulumi`, () => {
    const dir = join(mkdtempSync(join(inject("e2e").work, "newer-pulumi-")), "program");
    mkdirSync(dir);
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "newer-pulumi",
        private: true,
        dependencies: { "@pulumi/pulumi": NEWER_PULUMI, "pulumi-guardrails": `file:${inject("e2e").tarball}` },
      }),
    );
    // engine-strict off: @pulumi/pulumi >= 3.249 declares node >= 22, and npm only warns about it.
    npm(["install", "--engine-strict=false"], dir);

    const copies = copiesOf(dir, "@pulumi/pulumi");
    expect(copies).toEqual([`${join(dir, "node_modules/@pulumi/pulumi")}@${NEWER_PULUMI}`]);
    // npm's own view agrees: the package resolves the program's copy (deduped), and nothing is invalid.
    const tree = JSON.parse(npm(["ls", "@pulumi/pulumi", "--all", "--json"], dir));
    expect(tree.dependencies["@pulumi/pulumi"].version).toBe(NEWER_PULUMI);
    expect(tree.dependencies["pulumi-guardrails"].dependencies["@pulumi/pulumi"]).toMatchObject({
      version: NEWER_PULUMI,
    });
    expect(tree.problems ?? []).toEqual([]);
  });
});
