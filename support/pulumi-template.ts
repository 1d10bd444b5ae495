/**
 * A working `pulumi` (scripts/ensure-pulumi) and a template program that installed the packed
 * package the way a user would. Used by the e2e global setup and by the benchmark.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { PulumiContext } from "./program";
import { REPO_ROOT } from "./spawn-emulator";

export function preparePulumiTemplate(prefix: string): PulumiContext & { tarball: string } {
  const root = REPO_ROOT;
  const work = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(work, "pulumi-home"));
  // --policy-launcher: policy packs (`runtime: nodepolicy`) run under this CLI; installed into the tests' own PULUMI_HOME.
  const cliVersion = process.env.GUARDRAILS_PULUMI_CLI ? [process.env.GUARDRAILS_PULUMI_CLI] : [];
  const env = { ...process.env, PULUMI_HOME: join(work, "pulumi-home") };
  const pulumi = execFileSync(join(root, "scripts/ensure-pulumi"), ["--policy-launcher", ...cliVersion], {
    encoding: "utf8",
    env,
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  execFileSync("npm", ["pack", "--silent", "--pack-destination", work], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);
  const template = installTemplate(join(work, "template"), tarball);
  return { pulumiBinDir: dirname(pulumi), template, work, tarball };
}

/**
 * The `@pulumi/pulumi` the test programs bring, as a user's program would: the repository's
 * devDependency, or `GUARDRAILS_PULUMI_SDK` (CI runs the e2e suite on the floor and the newest).
 */
export function programPulumiVersion(): string {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
  return process.env.GUARDRAILS_PULUMI_SDK || pkg.devDependencies["@pulumi/pulumi"];
}

/**
 * A program folder that installed `tarball` with npm, the way a user would, next to its own
 * `@pulumi/pulumi` (programPulumiVersion) and this repository's TypeScript. Returns the folder.
 */
export function installTemplate(dir: string, tarball: string): string {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
  mkdirSync(dir);
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "guardrails-template",
      private: true,
      // @pulumi/policy: for the policy packs of test/e2e/policy.test.ts (an optional peer dependency).
      dependencies: {
        "@pulumi/pulumi": programPulumiVersion(),
        "@pulumi/policy": pkg.devDependencies["@pulumi/policy"],
        "pulumi-guardrails": `file:${tarball}`,
      },
      devDependencies: {
        typescript: pkg.devDependencies.typescript,
        "@types/node": pkg.devDependencies["@types/node"],
      },
    }),
  );
  // The package's postinstall puts its plugin into PULUMI_HOME: the programs' own, beside `dir`, never the user's.
  const env = { ...process.env, PULUMI_HOME: join(dirname(dir), "pulumi-home") };
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, env, stdio: "inherit" });
  return dir;
}
