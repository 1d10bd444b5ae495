/**
 * Once per e2e run: a working `pulumi` (scripts/ensure-pulumi, which builds it if needed;
 * a missing CLI fails the run, it never skips), the package packed with `npm pack`, and a
 * template program that installed the tarball the way a user would. Scenarios symlink its
 * node_modules.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { TestProject } from "vitest/node";

const root = resolve(__dirname, "../..");

export default function setup(project: TestProject) {
  const pulumi = execFileSync(join(root, "scripts/ensure-pulumi"), { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }).trim();
  const work = mkdtempSync(join(tmpdir(), "guardrails-e2e-"));
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  execFileSync("npm", ["pack", "--silent", "--pack-destination", work], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);
  const template = join(work, "template");
  mkdirSync(template);
  const rootPkg = JSON.parse(execFileSync("node", ["-p", "JSON.stringify(require('./package.json'))"], { cwd: root, encoding: "utf8" }));
  writeFileSync(
    join(template, "package.json"),
    JSON.stringify({
      name: "e2e-template",
      private: true,
      dependencies: { "@pulumi/pulumi": rootPkg.dependencies["@pulumi/pulumi"], "pulumi-guardrails": `file:${tarball}` },
      devDependencies: { typescript: rootPkg.devDependencies.typescript, "@types/node": rootPkg.devDependencies["@types/node"] },
    }),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: template, stdio: "inherit" });
  mkdirSync(join(work, "pulumi-home"));
  project.provide("e2e", { pulumiBinDir: dirname(pulumi), template, work, tarball });
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: { pulumiBinDir: string; template: string; work: string; tarball: string };
  }
}
