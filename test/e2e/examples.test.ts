/**
 * Issue 14: every example installs from inside the repository exactly as its README and the
 * example workflow say (`npm ci`, against the committed lockfile; the package comes from
 * `file:../..`, copied rather than linked per the example's .npmrc, so the program's own
 * `@pulumi/pulumi` is the only copy), and `pulumi preview` runs on it against the emulator.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { PASSPHRASE } from "../helpers/program";
import { REPO_ROOT, spawnEmulator, type SpawnedEmulator } from "../helpers/spawn-emulator";

const EXAMPLES = readdirSync(join(REPO_ROOT, "examples")).filter((d) =>
  existsSync(join(REPO_ROOT, "examples", d, "Pulumi.yaml")),
);

/** Files under dist/ that tests run while examples install: the emulator's store and the plugin. */
const DIST_WATCH = ["dist/emulator/store.js", "dist/plugin/main.js"];

/** `npm ci` against the committed lockfile (the package from `file:../..`), then one `@pulumi/pulumi` in the tree. */
function npmCiWithOneCopy(dir: string): void {
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
  expect(lock.packages[""].dependencies["pulumi-guardrails"]).toBe("file:../..");
  // The install packs the repository, which runs its `prepare`: with dist/ current (global setup
  // built it) that must not rebuild, or the emulators and plugins other tests run from dist/ are
  // rewritten under them (scripts/prepare.mjs).
  const built = DIST_WATCH.map((f) => statSync(join(REPO_ROOT, f)).mtimeMs);
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: dir,
    // The package's postinstall writes into PULUMI_HOME: the tests' own, never the user's.
    env: { ...process.env, PULUMI_HOME: join(inject("e2e").work, "pulumi-home") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  expect(DIST_WATCH.map((f) => statSync(join(REPO_ROOT, f)).mtimeMs)).toEqual(built);
  const tree = JSON.parse(
    execFileSync("npm", ["ls", "@pulumi/pulumi", "--all", "--json"], { cwd: dir, encoding: "utf8" }),
  );
  expect(tree.dependencies["pulumi-guardrails"].dependencies["@pulumi/pulumi"].version).toBe(
    tree.dependencies["@pulumi/pulumi"].version,
  );
  expect(existsSync(join(dir, "node_modules/pulumi-guardrails/node_modules/@pulumi"))).toBe(false);
}

describe.each(EXAMPLES)("examples/%s", (name) => {
  const dir = join(REPO_ROOT, "examples", name);
  const stack = `e2e-${process.pid}`;
  const key = `e2e-key-${Math.random().toString(36).slice(2)}`;
  let emulator: SpawnedEmulator;
  beforeAll(async () => {
    emulator = await spawnEmulator(["--management-key", key]);
  });
  afterAll(() => emulator.stop());

  it("`npm ci` installs it with one copy of @pulumi/pulumi, and `pulumi preview` runs", () => {
    npmCiWithOneCopy(dir);

    const { pulumiBinDir, work } = inject("e2e");
    const state = mkdtempSync(join(work, `example-${name}-`));
    const env = {
      ...process.env,
      PATH: `${pulumiBinDir}:${process.env.PATH}`,
      PULUMI_HOME: join(work, "pulumi-home"),
      PULUMI_BACKEND_URL: `file://${state}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "1",
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      NO_COLOR: "1",
      GUARDRAILS_API_KEY: key,
      GUARDRAILS_BASE_URL: emulator.url,
      GUARDRAILS_JOURNAL_DIR: join(state, ".journal"),
    };
    const pulumi = (args: string[]) =>
      spawnSync("pulumi", [...args, "--non-interactive"], { cwd: dir, env, encoding: "utf8" });
    // The stack's settings file (the passphrase salt) is the only thing written into the repository.
    const stackFile = join(dir, `Pulumi.${stack}.yaml`);
    try {
      expect(pulumi(["stack", "init", stack]).status).toBe(0);
      const preview = pulumi(["preview", "--stack", stack]);
      expect(preview.stdout + preview.stderr).toMatch(/\+ +\d+ to create/);
      expect(preview.status).toBe(0);
    } finally {
      rmSync(stackFile, { force: true });
    }
  });
});

describe("examples/policy (a policy pack, no Pulumi.yaml)", () => {
  const dir = join(REPO_ROOT, "examples/policy");
  it("`npm ci` installs it with one copy of @pulumi/pulumi, and the pack compiles against what it installed", () => {
    npmCiWithOneCopy(dir);
    // The pack's own typescript, over its own node_modules: the factory and Guardrail's type token resolve.
    const tsc = spawnSync(process.execPath, [join(dir, "node_modules/typescript/bin/tsc"), "-p", dir, "--noEmit"], {
      encoding: "utf8",
    });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
