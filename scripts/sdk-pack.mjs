#!/usr/bin/env node
// The native face's release artifacts for a Python or Go user without a package registry, in one
// folder (default dist/packages/; `npm run sdk:pack -- <folder>` for another):
//   pulumi-resource-guardrails-v<version>.tar.gz   the plugin: `pulumi plugin install resource
//                                                  guardrails <version> --file <it>`
//   pulumi_guardrails-<version>-py3-none-any.whl   the Python SDK: `pip install <it>`
//   goproxy/                                       the Go SDK as a Go module proxy folder:
//       GOPROXY=file://<folder>/goproxy,https://proxy.golang.org GONOSUMDB=<module> go get <module>@v<version>
// Each is made from the committed sdk/ (run `npm run sdk:check` first to know it is current) and
// named after package.json's version. Needs python3 with pip (the wheel is built by
// `pip wheel`, which fetches setuptools from PyPI), and a built dist/plugin/ (`npm run build`).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = resolve(process.argv[2] ?? join(root, "dist/packages"));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const goSdk = join(root, "sdk/go");
const module = /^module (\S+)$/m.exec(readFileSync(join(goSdk, "go.mod"), "utf8"))[1];
const python = process.env.GUARDRAILS_PYTHON ?? "python3";

/** Every file under `dir`, relative, sorted. */
function files(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), base) : [relative(base, join(dir, e.name))]))
    .sort();
}

/** The Go module proxy layout (go help goproxy) of sdk/go at v<version>: list, .info, .mod and
 * the module zip, whose every file sits under `<module>@v<version>/`. The zip is written by
 * Python's zipfile, deterministic (fixed times). */
function goproxy(dir) {
  const v = `v${version}`;
  const at = join(dir, ...module.split("/"), "@v");
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "list"), `${v}\n`);
  writeFileSync(join(at, `${v}.info`), `${JSON.stringify({ Version: v, Time: "1985-10-26T08:15:00Z" })}\n`);
  writeFileSync(join(at, `${v}.mod`), readFileSync(join(goSdk, "go.mod")));
  const zip = [
    "import sys, zipfile",
    "src, dest, prefix = sys.argv[1], sys.argv[2], sys.argv[3]",
    "with zipfile.ZipFile(dest, 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for f in sys.argv[4:]:",
    "        i = zipfile.ZipInfo(prefix + f, (1985, 10, 26, 8, 15, 0))",
    "        i.compress_type = zipfile.ZIP_DEFLATED",
    "        z.writestr(i, open(src + '/' + f, 'rb').read())",
  ].join("\n");
  execFileSync(python, ["-c", zip, goSdk, join(at, `${v}.zip`), `${module}@${v}/`, ...files(goSdk)]);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
execFileSync(
  process.execPath,
  [join(root, "scripts/plugin-pack.mjs"), "tarball", join(out, `pulumi-resource-guardrails-v${version}.tar.gz`)],
  {
    stdio: ["ignore", "ignore", "inherit"],
  },
);
// setuptools builds in the source folder (build/, *.egg-info): build a copy, so sdk/python stays
// exactly what the schema generates.
const pySource = mkdtempSync(join(tmpdir(), "guardrails-python-sdk-"));
try {
  cpSync(join(root, "sdk/python"), pySource, { recursive: true });
  execFileSync(python, ["-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", out, pySource], {
    stdio: ["ignore", "ignore", "inherit"],
  });
} finally {
  rmSync(pySource, { recursive: true, force: true });
}
goproxy(join(out, "goproxy"));
for (const f of readdirSync(out)) console.log(relative(root, join(out, f)) || f);
console.log(`go module ${module}@v${version}`);
