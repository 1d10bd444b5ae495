/**
 * Issue 26, installation: the native provider plugin reaches a machine with no repository
 * checkout in the two ways the docs give, and `pulumi up` of a JavaScript program on the native
 * face (a raw `pulumi.CustomResource` of `guardrails:index:Guardrail`) works with it.
 *
 *   1. `npm install` of the packed package (global setup's `npm pack`) into a fresh project, with
 *      a fresh PULUMI_HOME: the postinstall puts the plugin into PULUMI_HOME/plugins.
 *   2. `pulumi plugin install resource guardrails <version> --file <tarball>`, the tarball made by
 *      the script behind `npm run plugin:pack`, into another fresh PULUMI_HOME.
 *
 * Neither may lean on the repository: PATH holds no `pulumi-resource-guardrails` (the engine
 * prefers one on PATH), automatic plugin acquisition is off (nothing is downloaded), and the
 * project lives outside the repository, so the plugin's node finds none of its modules.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Program } from "../helpers/program";
import { programPulumiVersion } from "../helpers/pulumi-template";
import { REPO_ROOT } from "../helpers/spawn-emulator";

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const PLUGIN = "pulumi-resource-guardrails";

/** The program: the native face without the generated SDK, by type token. */
const program = (description: string) => `const pulumi = require("@pulumi/pulumi");
const eng = new pulumi.CustomResource("guardrails:index:Guardrail", "eng", {
  name: "Installed",
  description: ${JSON.stringify(description)},
  limitUsd: 5,
  resetInterval: "daily",
});
exports.id = eng.id;
`;

/** PATH without any folder that holds the plugin (a checkout's src/native/bin, a bin folder). */
const pathWithoutPlugin = (path: string) =>
  path
    .split(delimiter)
    .filter((dir) => dir && !existsSync(join(dir, PLUGIN)))
    .join(delimiter);

describe("installing the native provider plugin", () => {
  const { pulumiBinDir, tarball, work: e2eWork } = inject("e2e");
  const work = mkdtempSync(join(e2eWork, "native-install-"));
  const project = join(work, "project");
  let native: Program;

  beforeAll(async () => {
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({
        name: "native-install",
        private: true,
        dependencies: { "@pulumi/pulumi": programPulumiVersion(), "pulumi-guardrails": `file:${tarball}` },
      }),
    );
    // The deps are in npm's cache already (the global setup installed the same ones).
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: project,
      env: { ...process.env, PULUMI_HOME: join(work, "pulumi-home") },
      stdio: ["ignore", "ignore", "inherit"],
    });
    // Program's PULUMI_HOME is <work>/pulumi-home, the folder the install just wrote into.
    native = await Program.create({ pulumiBinDir, template: project, work }, "native-install");
    native.env.PATH = `${pulumiBinDir}${delimiter}${pathWithoutPlugin(process.env.PATH ?? "")}`;
    native.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    // A JavaScript program (Program writes a TypeScript project; the project name stays).
    rmSync(join(native.dir, "tsconfig.json"));
    writeFileSync(join(native.dir, "Pulumi.yaml"), "name: native-install\nruntime: nodejs\n");
    writeFileSync(join(native.dir, "package.json"), JSON.stringify({ name: "native-install", main: "index.js" }));
  });
  afterAll(async () => {
    await native?.close();
  });

  it("npm install puts the plugin into PULUMI_HOME, and `pulumi up` runs it from there", async () => {
    const installed = join(work, "pulumi-home/plugins", `resource-guardrails-v${version}`);
    expect(statSync(join(installed, PLUGIN)).mode & 0o111).not.toBe(0);
    expect(existsSync(join(installed, "main.js"))).toBe(true);
    expect(existsSync(`${installed}.partial`)).toBe(false);

    writeFileSync(join(native.dir, "index.js"), program("from npm install"));
    const up = await native.up();
    expect(up.output).not.toMatch(/from \$PATH/);
    const { id } = await native.outputs();
    const res = await native.api("GET", `/guardrails/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Installed", description: "from npm install" });
  });

  it("`pulumi plugin install --file` of the plugin:pack tarball installs a plugin `pulumi up` runs", async () => {
    const packed = join(work, `${PLUGIN}-v${version}.tar.gz`);
    execFileSync(process.execPath, [join(REPO_ROOT, "scripts/plugin-pack.mjs"), "tarball", packed], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    // A machine that has only the tarball: a fresh PULUMI_HOME, no plugin in it yet.
    native.env.PULUMI_HOME = join(work, "home-from-tarball");
    await native.pulumi(["plugin", "install", "resource", "guardrails", version, "--file", packed], { check: true });
    await native.pulumi(["stack", "select", "dev"], { check: true }); // the selection lived in the other PULUMI_HOME
    expect(existsSync(join(work, "home-from-tarball/plugins", `resource-guardrails-v${version}`, PLUGIN))).toBe(true);

    writeFileSync(join(native.dir, "index.js"), program("from the tarball"));
    await native.up();
    const { id } = await native.outputs();
    const res = await native.api("GET", `/guardrails/${id}`);
    expect(res.body.data).toMatchObject({ name: "Installed", description: "from the tarball" });
  });
});
