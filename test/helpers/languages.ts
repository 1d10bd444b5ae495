/**
 * The four programs of examples/org (TypeScript on the native face, Pulumi YAML, Python, Go),
 * each set up in a `Program`'s folder with what its language needs: the language host
 * (scripts/ensure-pulumi --language-host, built and cached), the provider plugin from
 * src/native/bin, for Python a virtualenv (made once per test run) with `pulumi` from PyPI and
 * the SDK from sdk/python, for Go a go.mod that points the SDK at sdk/go.
 */
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "../../support/spawn-emulator";
import type { Program } from "./program";

const run = promisify(execFile);

export const LANGUAGES = ["typescript", "yaml", "python", "go"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The `pulumi` Python SDK the programs run on: the CLI's own release, proven with host sdk v3.68.0. */
export const PYTHON_PULUMI = "3.248.0";
const GO_BIN = "/usr/local/go/bin";

/** The path of the language host's folder (built and cached on first use). */
export function languageHostDir(language: Exclude<Language, "typescript">): string {
  const host = execFileSync(join(REPO_ROOT, "scripts/ensure-pulumi"), ["--language-host", language], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return dirname(host);
}

let venv: Promise<string> | undefined;

/**
 * A virtualenv with `pulumi` and the SDK from sdk/python, made once per test run in `work`
 * (pip's own cache keeps the downloads). Answers its bin folder.
 */
export function pythonVenv(work: string): Promise<string> {
  venv ??= (async () => {
    const dir = join(work, "python-venv");
    if (!existsSync(join(dir, "bin/python"))) {
      await run("python3", ["-m", "venv", dir]);
      // pip builds a folder in place (setuptools writes build/ and *.egg-info there), and
      // `npm run sdk:check` (the release's dry-run too) then finds sdk/python unlike what the
      // schema generates: install from a copy.
      const sdk = join(work, "python-sdk");
      cpSync(join(REPO_ROOT, "sdk/python"), sdk, { recursive: true });
      const pip = [join(dir, "bin/pip"), "install", "--quiet", "--disable-pip-version-check"];
      await run(pip[0]!, [...pip.slice(1), `pulumi==${PYTHON_PULUMI}`, sdk], { maxBuffer: 16 << 20 });
    }
    return join(dir, "bin");
  })();
  return venv;
}

/** The Go SDK's module path (from sdk/go's go.mod). */
function goSdkModule(): { path: string; dir: string } {
  const mod = readdirSync(join(REPO_ROOT, "sdk/go"), { recursive: true, encoding: "utf8" }).find(
    (f) => f === "go.mod" || f.endsWith("/go.mod"),
  );
  if (!mod) throw new Error("sdk/go holds no go.mod");
  const dir = dirname(join(REPO_ROOT, "sdk/go", mod));
  const path = /^module\s+(\S+)/m.exec(readFileSync(join(dir, "go.mod"), "utf8"))?.[1];
  if (!path) throw new Error(`no module line in ${dir}/go.mod`);
  return { path, dir };
}

/** Files of each example, copied into the program's folder. */
const FILES: Record<Language, string[]> = {
  typescript: ["Pulumi.yaml", "index.ts"],
  yaml: ["Pulumi.yaml"],
  python: ["Pulumi.yaml", "__main__.py", "requirements.txt"],
  go: ["Pulumi.yaml", "main.go", "go.mod"],
};

/**
 * Writes examples/org/<language> into `p`'s folder (its project name is the one the Program
 * was created with) and sets `p.env` so the CLI finds the host, the plugin and, for Python
 * and Go, the SDK. The Program must have been created as `org-<language>`.
 */
export async function prepareLanguage(p: Program, language: Language, work: string): Promise<void> {
  const example = join(REPO_ROOT, "examples/org", language);
  for (const f of FILES[language]) copyFileSync(join(example, f), join(p.dir, f));
  const path = [join(REPO_ROOT, "src/native/bin")];
  if (language !== "typescript") path.push(languageHostDir(language));
  if (language === "python") {
    // The host built here (sdk v3.68.0) runs `python3` from PATH: the virtualenv, activated.
    const bin = await pythonVenv(work);
    path.unshift(bin);
    p.env.VIRTUAL_ENV = dirname(bin);
  }
  if (language === "go") {
    const sdk = goSdkModule();
    writeFileSync(
      join(p.dir, "go.mod"),
      `${readFileSync(join(p.dir, "go.mod"), "utf8")}\nreplace ${sdk.path} => ${sdk.dir}\n`,
    );
    path.push(GO_BIN);
    // The checksum database does not list every pulumi release (as scripts/ensure-pulumi).
    Object.assign(p.env, { GOFLAGS: "-mod=mod", GONOSUMDB: "github.com/pulumi" });
  }
  p.env.PATH = `${path.join(":")}:${p.env.PATH}`;
  p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
}
