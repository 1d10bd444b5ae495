/**
 * Issue 28, installing without a registry: the Python and Go SDKs reach a machine with no
 * repository checkout the way docs/guides/installing-the-plugin.md gives, from what
 * `npm run sdk:pack` writes (scripts/sdk-pack.mjs), and a `pulumi preview` of a program outside
 * the repository works with them against the emulator:
 *
 *   - Python: `pip install` of the wheel into a fresh virtualenv (pip fetches `pulumi` from PyPI);
 *   - Go: `go get` of the module from the pack's module proxy folder (GOPROXY=file://..., the
 *     Pulumi Go SDK from the public proxy behind it);
 *   - the declarative route: `declare_guardrails` (Python: up, no-op preview, a bad file's
 *     problems word for word) and `DeclareGuardrails` (Go: in the same preview);
 *   - the plugin: `pulumi plugin install resource guardrails <version> --file <tarball>` into a
 *     fresh PULUMI_HOME, automatic plugin acquisition off, no plugin on PATH.
 *
 * The language hosts come from scripts/ensure-language-host (built from the Go module proxy and
 * cached). Cold costs are printed (`lang-install:` lines): venv + pip install, go get + build.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Program } from "../helpers/program";
import { REPO_ROOT } from "../helpers/spawn-emulator";
import { type DeclarativeConfigError, loadGuardrailConfigs } from "../../src/declarative/load";

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
const PLUGIN = "pulumi-resource-guardrails";
const GO = existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
const GO_MODULE = /^module (\S+)$/m.exec(readFileSync(join(REPO_ROOT, "sdk/go/go.mod"), "utf8"))![1]!;

/** Runs a command, printing how long it took (the cold costs the issue asks for). */
function timed<T>(label: string, run: () => T): T {
  const start = Date.now();
  const out = run();
  console.log(`lang-install: ${label}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return out;
}

/** The same, for a promise. */
async function timedAsync<T>(label: string, run: () => Promise<T>): Promise<T> {
  const start = Date.now();
  const out = await run();
  console.log(`lang-install: ${label}: ${((Date.now() - start) / 1000).toFixed(1)} s`);
  return out;
}

/** PATH without any folder that holds the plugin, behind the given folders. */
const pathWith = (...first: string[]) =>
  [...first, ...(process.env.PATH ?? "").split(delimiter).filter((dir) => dir && !existsSync(join(dir, PLUGIN)))].join(
    delimiter,
  );

/** The host's folder: scripts/ensure-language-host prints the host's path. */
const hostDir = (language: string) =>
  dirname(execFileSync(join(REPO_ROOT, "scripts/ensure-language-host"), [language], { encoding: "utf8" }).trim());

/** A program of `runtime` in a Program's folder (outside the repository), with its own PULUMI_HOME
 * holding only the plugin from the tarball. */
async function languageProgram(name: string, runtime: string, files: Record<string, string>, packages: string) {
  const { pulumiBinDir, template, work } = inject("e2e");
  const program = await Program.create({ pulumiBinDir, template, work }, name);
  for (const f of ["package.json", "tsconfig.json", "node_modules"]) unlinkSync(join(program.dir, f));
  writeFileSync(join(program.dir, "Pulumi.yaml"), `name: ${name}\nruntime: ${runtime}\n`);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(program.dir, f), text);
  program.env.PULUMI_HOME = mkdtempSync(join(work, `${name}-home-`));
  program.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
  program.env.PATH = pathWith(pulumiBinDir, hostDir(runtime));
  const tarball = join(packages, `${PLUGIN}-v${version}.tar.gz`);
  await program.pulumi(["plugin", "install", "resource", "guardrails", version, "--file", tarball], { check: true });
  await program.pulumi(["stack", "select", "dev"], { check: true });
  // A guardrail the program does not manage, for its data-source lookup.
  const made = await program.api("POST", "/guardrails", { name: "Unmanaged", limit_usd: 3, reset_interval: "weekly" });
  expect(made.status).toBe(201);
  return { program, unmanaged: made.body.data.id as string };
}

/** What a preview of either program must show: the guardrail to create, the lookup's answer. */
function expectPreview(output: string, unmanaged: string) {
  expect(output).toMatch(
    /\+ guardrails:index:Guardrail: \(create\)\s+\[urn=urn:pulumi:dev::[\w-]+::guardrails:index:Guardrail::eng\]/,
  );
  expect(output).toContain(unmanaged);
  expect(output).not.toMatch(/error:/);
}

describe("installing the Python and Go SDKs without a registry", () => {
  const work = mkdtempSync(join(inject("e2e").work, "lang-install-"));
  const packages = join(work, "packages");
  const programs: Program[] = [];
  const venv = join(work, "venv");

  beforeAll(() => {
    timed("npm run sdk:pack", () =>
      execFileSync(process.execPath, [join(REPO_ROOT, "scripts/sdk-pack.mjs"), packages], { stdio: "ignore" }),
    );
  });
  afterAll(async () => {
    for (const p of programs) await p.close();
  });

  it("pip install of the wheel into a fresh virtualenv, then `pulumi preview` of a Python program", async () => {
    const wheel = join(packages, `pulumi_guardrails-${version}-py3-none-any.whl`);
    timed("python3.11 -m venv + pip install <wheel> (pulumi from PyPI)", () => {
      execFileSync("python3.11", ["-m", "venv", venv]);
      execFileSync(join(venv, "bin/pip"), ["install", "--quiet", "--disable-pip-version-check", wheel], {
        stdio: ["ignore", "ignore", "inherit"],
      });
    });
    const { program, unmanaged } = await languageProgram(
      "lang-install-py",
      "python",
      {
        "__main__.py": `import pulumi
import pulumi_guardrails as guardrails

other = guardrails.get_guardrail(name="Unmanaged")
guardrails.Guardrail("eng", name="Installed", limit_usd=5, reset_interval="daily")
pulumi.export("unmanaged", other.id)
`,
      },
      packages,
    );
    programs.push(program);
    // The host runs `python3` from PATH: the virtualenv's, as when it is activated.
    program.env.PATH = `${join(venv, "bin")}${delimiter}${program.env.PATH}`;
    program.env.VIRTUAL_ENV = venv;
    const installed = execFileSync(
      join(venv, "bin/python"),
      ["-c", "import pulumi_guardrails; print(pulumi_guardrails.__file__)"],
      {
        encoding: "utf8",
      },
    );
    expect(installed.startsWith(venv)).toBe(true);
    const { code, output } = await timedAsync("pulumi preview (python)", () => program.preview());
    expect(code, output).toBe(0);
    expectPreview(output, unmanaged);
  });

  it("declare_guardrails (Python): a folder of guardrail files, up, no-op preview; a bad file fails with the loader's messages", async () => {
    const { program } = await languageProgram(
      "lang-declare-py",
      "python",
      {
        "__main__.py": `import pulumi
import pulumi_guardrails as guardrails

declared = guardrails.declare_guardrails("guardrails")
pulumi.export("ids", {k: r.guardrail.id for k, r in declared.items()})
`,
      },
      packages,
    );
    programs.push(program);
    program.env.PATH = `${join(venv, "bin")}${delimiter}${program.env.PATH}`;
    program.env.VIRTUAL_ENV = venv;
    const folder = join(program.dir, "guardrails");
    cpSync(join(REPO_ROOT, "examples/declarative/guardrails"), folder, { recursive: true });
    await program.up();
    const { ids } = await program.outputs();
    const declared = loadGuardrailConfigs(folder);
    expect(Object.keys(ids).sort()).toEqual(declared.map((d) => d.id).sort());
    for (const { id, settings } of declared) {
      const got = (await program.api("GET", `/guardrails/${ids[id]}`)).body.data;
      expect(got.name).toBe(settings.name);
      const members = (await program.api("GET", `/guardrails/${ids[id]}/assignments/members?limit=100`)).body.data;
      expect(members.map((m: { user_id: string }) => m.user_id).sort()).toEqual(
        [...(settings.members?.ids ?? [])].sort(),
      );
    }
    const same = await program.preview("--expect-no-changes");
    expect(same.code, same.output).toBe(0);

    // What the TypeScript loader says of a bad file, the Python program says too, before any change.
    writeFileSync(join(folder, "bad.yaml"), "guardrails:\n  bad:\n    name: Bad\n    limitUsd: -50\n    limitUSD: 5\n");
    let problems: string[] = [];
    try {
      loadGuardrailConfigs(folder, { cwd: program.dir });
    } catch (err) {
      problems = (err as DeclarativeConfigError).problems;
    }
    expect(problems.length).toBeGreaterThanOrEqual(2);
    const bad = await program.preview();
    expect(bad.code).not.toBe(0);
    for (const problem of problems) expect(bad.output).toContain(problem);
    expect(bad.output).not.toMatch(/Traceback/);
  });

  it("go get of the module from the pack's proxy folder, then `pulumi preview` of a Go program", async () => {
    const project = mkdtempSync(join(work, "go-"));
    const env = {
      ...process.env,
      GOPROXY: `file://${join(packages, "goproxy")},https://proxy.golang.org`,
      GONOSUMDB: GO_MODULE,
      GOFLAGS: "-mod=mod",
      // Go indexes a module-cache folder by module@version (a version never changes); a re-pack of
      // the same version with other files (a later run of this test) would be read from the stale index.
      GODEBUG: "goindex=0",
    };
    // A version once fetched stays in the module cache: forget it, so this run fetches the pack's.
    const modcache = execFileSync(GO, ["env", "GOMODCACHE"], { encoding: "utf8" }).trim();
    for (const dir of [join(modcache, GO_MODULE, ".."), join(modcache, "cache/download", GO_MODULE)]) {
      if (!existsSync(dir)) continue;
      execFileSync("chmod", ["-R", "u+w", dir]);
      rmSync(dir, { recursive: true, force: true });
    }
    const go = (...args: string[]) =>
      execFileSync(GO, args, { cwd: project, env, stdio: ["ignore", "ignore", "inherit"] });
    writeFileSync(
      join(project, "main.go"),
      `package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"${GO_MODULE}/guardrails"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		other, err := guardrails.LookupGuardrail(ctx, &guardrails.LookupGuardrailArgs{Name: pulumi.StringRef("Unmanaged")})
		if err != nil {
			return err
		}
		_, err = guardrails.NewGuardrail(ctx, "eng", &guardrails.GuardrailArgs{
			Name:          pulumi.String("Installed"),
			LimitUsd:      pulumi.Float64(5),
			ResetInterval: guardrails.ResetIntervalDaily,
		})
		if err != nil {
			return err
		}
		// The declarative route: a folder of guardrail files, read by the plugin.
		declared, err := guardrails.DeclareGuardrails(ctx, "guardrails", "files-")
		if err != nil {
			return err
		}
		ctx.Export("unmanaged", pulumi.String(other.Id))
		ctx.Export("declared", pulumi.Int(len(declared)))
		return nil
	})
}
`,
    );
    timed("go mod init + go get <module>@v<version> + go mod tidy", () => {
      go("mod", "init", "example.com/guardrails-go");
      go("get", `${GO_MODULE}@v${version}`);
      go("mod", "tidy");
    });
    expect(readFileSync(join(project, "go.mod"), "utf8")).toContain(`${GO_MODULE} v${version}`);
    timed("go build (the program)", () => go("build", "-o", join(project, "program"), "."));
    const { program, unmanaged } = await languageProgram(
      "lang-install-go",
      "go",
      { "main.go": readFileSync(join(project, "main.go"), "utf8") },
      packages,
    );
    programs.push(program);
    for (const f of ["go.mod", "go.sum"]) writeFileSync(join(program.dir, f), readFileSync(join(project, f)));
    cpSync(join(REPO_ROOT, "examples/declarative/guardrails"), join(program.dir, "guardrails"), { recursive: true });
    Object.assign(program.env, { GOPROXY: env.GOPROXY, GONOSUMDB: env.GONOSUMDB, GODEBUG: env.GODEBUG });
    program.env.PATH = `${dirname(GO)}${delimiter}${program.env.PATH}`;
    const { code, output } = await timedAsync("pulumi preview (go)", () => program.preview());
    expect(code, output).toBe(0);
    expectPreview(output, unmanaged);
    for (const { id, settings } of loadGuardrailConfigs(join(program.dir, "guardrails"))) {
      expect(output).toContain(`guardrails:index:Guardrail::files-${id}]`);
      if (settings.members)
        expect(output).toContain(`guardrails:index:GuardrailMemberAssignment::files-${id}-members]`);
      if (settings.keys) expect(output).toContain(`guardrails:index:GuardrailKeyAssignment::files-${id}-keys]`);
    }
  });
});
