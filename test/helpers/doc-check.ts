/**
 * Type-checks the docs' program blocks (doc-blocks.ts) as a user's compiler would: TypeScript
 * with this package's tsc against its built types (dist/, by the package's own name), Python with
 * `mypy --strict` in a virtualenv cached under ~/.cache/pulumi-guardrails (mypy and `pulumi` from
 * PyPI on first use, the SDK from sdk/python), Go with `go vet` against sdk/go. Each answers the
 * problems found, each led by the page and line of the docs it is on.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { DocBlock } from "./doc-blocks";
import { PYTHON_PULUMI } from "./languages";

const run = promisify(execFile);

/** mypy from PyPI, pinned: a new release may find new faults. */
export const MYPY = "2.4.1";

/** Runs a command, answering its output whether it fails or not. */
async function output(cmd: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    const r = await run(cmd, args, { ...options, maxBuffer: 64 << 20 });
    return { code: 0, text: r.stdout + r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, text: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** Writes the blocks as `b<i><ext>` (or `b<i>/<file>`) in a fresh `dir`. */
function writeBlocks(dir: string, blocks: readonly DocBlock[], name: (i: number) => string): void {
  rmSync(dir, { recursive: true, force: true });
  blocks.forEach((b, i) => {
    const file = join(dir, name(i));
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, b.code);
  });
}

/**
 * The compiler's lines, each `b<i>...:<line>` turned into the docs' `page:line`: the block's
 * opening fence is the line before its first.
 */
function located(text: string, blocks: readonly DocBlock[], pattern: RegExp): string[] {
  return text
    .split("\n")
    .filter((l) => pattern.test(l))
    .map((l) =>
      l.replace(pattern, (_m, i: string, line: string) => {
        const [page, fence] = blocks[Number(i)]!.at.split(":") as [string, string];
        return `${page}:${Number(fence) + Number(line)}: `;
      }),
    );
}

/** TypeScript: one `tsc --noEmit` over every block, each a module, inside the package (dist/), in `dir`. */
export async function checkTypeScript(
  root: string,
  blocks: readonly DocBlock[],
  dir = join(root, "dist/docs-examples/ts"),
): Promise<string[]> {
  writeBlocks(dir, blocks, (i) => `b${i}.ts`);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: "es2022",
    lib: ["es2022"],
    module: "preserve",
    moduleResolution: "bundler",
    moduleDetection: "force",
    skipLibCheck: true,
    types: ["node"],
  };
  const files = blocks.map((_, i) => `b${i}.ts`);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  const r = await output(process.execPath, [tsc, "-p", "tsconfig.json", "--pretty", "false"], { cwd: dir });
  const problems = located(r.text, blocks, /^b(\d+)\.ts\((\d+),\d+\): /);
  return r.code === 0 || problems.length > 0 ? problems : [r.text];
}

/** The cache of the tools the checks download once. */
const cache = (): string =>
  process.env.GUARDRAILS_PULUMI_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-guardrails");

/**
 * A virtualenv with mypy and the `pulumi` SDK, made once per pair of versions and renamed into
 * place when complete; its tools run as `python -m` (a script's `#!` names the folder it was made in).
 */
async function mypyVenv(): Promise<string> {
  const dir = join(cache(), `docs-mypy-${MYPY}-pulumi-${PYTHON_PULUMI}`);
  if (existsSync(join(dir, "bin/python"))) return dir;
  const tmp = `${dir}.${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  await run("python3", ["-m", "venv", tmp]);
  // parver and semver: what sdk/python's modules import (pyproject.toml's dependencies).
  const pkgs = [`mypy==${MYPY}`, `pulumi==${PYTHON_PULUMI}`, "parver>=0.2.1", "semver>=2.8.1"];
  await run(join(tmp, "bin/python"), ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", ...pkgs], {
    maxBuffer: 16 << 20,
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return dir;
}

/**
 * Python: `mypy --strict` over every block, the SDK from sdk/python. Its own modules are read for
 * their types, their faults not reported: as for an installed package (site-packages).
 */
export async function checkPython(root: string, blocks: readonly DocBlock[]): Promise<string[]> {
  const venv = await mypyVenv();
  const dir = join(root, "dist/docs-examples/python");
  writeBlocks(dir, blocks, (i) => `b${i}.py`);
  writeFileSync(join(dir, "mypy.ini"), "[mypy]\nstrict = True\n[mypy-pulumi_guardrails.*]\nignore_errors = True\n");
  const files = blocks.map((_, i) => `b${i}.py`);
  const mypy = ["-m", "mypy", "--config-file", "mypy.ini", "--no-error-summary", ...files];
  const r = await output(join(venv, "bin/python"), mypy, {
    cwd: dir,
    env: { ...process.env, MYPYPATH: join(root, "sdk/python") },
  });
  const problems = located(r.text, blocks, /^b(\d+)\.py:(\d+): /);
  return r.code === 0 || problems.length > 0 ? problems : [r.text];
}

/** Go: `go vet` over every block, each a main package of one module that replaces sdk/go's, in `dir`. */
export async function checkGo(
  root: string,
  blocks: readonly DocBlock[],
  dir = join(root, "dist/docs-examples/go"),
): Promise<string[]> {
  writeBlocks(dir, blocks, (i) => `b${i}/main.go`);
  const sdk = readFileSync(join(root, "sdk/go/go.mod"), "utf8");
  const module = /^module\s+(\S+)/m.exec(sdk)![1];
  const pulumi = /github\.com\/pulumi\/pulumi\/sdk\/v3 (\S+)/.exec(sdk)![1];
  writeFileSync(
    join(dir, "go.mod"),
    `module docs.example/check\n\ngo 1.25.11\n\nrequire (\n\t${module} v0.0.0\n\tgithub.com/pulumi/pulumi/sdk/v3 ${pulumi}\n)\n\nreplace ${module} => ${join(root, "sdk/go")}\n`,
  );
  copyFileSync(join(root, "sdk/go/go.sum"), join(dir, "go.sum"));
  const go = existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
  // The checksum database does not list every pulumi release (as test/helpers/languages.ts).
  const env = { ...process.env, GOFLAGS: "-mod=mod", GONOSUMDB: "github.com/pulumi,github.com/pulumi-guardrails" };
  const tidy = await output(go, ["mod", "tidy"], { cwd: dir, env });
  if (tidy.code !== 0) return [`go mod tidy: ${tidy.text}`];
  const r = await output(go, ["vet", "./..."], { cwd: dir, env });
  const problems = located(r.text, blocks, /^(?:\.\/)?b(\d+)\/main\.go:(\d+):\d+: /);
  return r.code === 0 || problems.length > 0 ? problems : [r.text];
}
