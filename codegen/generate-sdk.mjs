#!/usr/bin/env node
// Writes the native face's SDKs from the committed package schema (src/native/schema.json) with
// Pulumi's own code generators: codegen/gensdk, a Go program on pkg/v3's codegen. `pulumi package
// gen-sdk` cannot do it here: it asks the language host (GeneratePackage), and the Node.js host
// built here predates that call.
//   sdk/nodejs  TypeScript, shipped inside this package as `pulumi-guardrails/native`
//   sdk/python  the pip-installable `pulumi_guardrails` (pyproject.toml)
//   sdk/go      the Go module (go.mod here, the package in guardrails/), tidied by `go mod tidy`
// plus the hand-written files of codegen/gensdk/overlays/<language>/ (copied over the output).
//   npm run sdk:gen     after `npm run schema`: rewrites sdk/<language>/
//   npm run sdk:check   fails when any sdk/<language>/ differs from what the schema generates (.ci/run)
// Both fail when a program generated from codegen/gensdk/import-check.pp (as `pulumi import
// --generate-code` would write it) does not import `pulumi-guardrails/native`.
// Needs Go (and the Go module proxy, or a warm module cache, for the Go SDK's go.sum); the
// generator is built once per version of its sources and cached in ~/.cache/pulumi-guardrails/gensdk-<hash>.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { goDocNamesIn } from "./go-doc-names.mjs";
import { widenPythonInputs } from "./python-inputs.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = join(root, "codegen/gensdk");
const schema = join(root, "src/native/schema.json");
const sdkRoot = join(root, "sdk");
const go = existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
const check = process.argv.includes("--check");

/** The generator binary, built when its sources changed. */
function generator() {
  const hash = createHash("sha256");
  for (const f of ["main.go", "go.mod", "go.sum"]) hash.update(readFileSync(join(source, f)));
  const cache =
    process.env.GUARDRAILS_PULUMI_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-guardrails");
  const bin = join(cache, `gensdk-${hash.digest("hex").slice(0, 16)}`);
  if (!existsSync(bin)) {
    mkdirSync(cache, { recursive: true });
    const tmp = `${bin}.${process.pid}`;
    execFileSync(go, ["build", "-o", tmp, "."], { cwd: source, stdio: "inherit" });
    renameSync(tmp, bin);
  }
  return bin;
}

/** Every file under `dir`, relative, sorted. */
function files(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name), base) : [relative(base, join(dir, e.name))]))
    .sort();
}

/** The Go SDK's module requirement on the Pulumi Go SDK: the release whose codegen (pkg/v3,
 * codegen/gensdk/go.mod) writes the SDK, so the code uses nothing newer than it has. */
const PULUMI_GO_SDK = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(
  readFileSync(join(source, "go.mod"), "utf8"),
)[1];

/** sdk/nodejs: the SDK ships inside this package, so its package.json only tells `getVersion()`
 * the version. The generated `pulumi` field would declare the plugin as one to fetch (the Node.js
 * host reports every such package.json under node_modules), from get.pulumi.com, where it is not:
 * this package's plugin comes with the package. (A plugin the engine cannot find at all it tries
 * to download anyway when a resource asks for its version; the plugin on PATH or installed with
 * `pulumi plugin install` is found first.) */
function nodejs(dir) {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: pkg.name, version: pkg.version }, null, 4)}\n`);
  // What `pulumi import --generate-code` writes for a TypeScript program (the engine hands the
  // language host a PCL program; Pulumi's code generator turns it into this) imports the SDK
  // from this package, by the schema's language.nodejs.packageName.
  const program = mkdtempSync(join(tmpdir(), "guardrails-program-"));
  try {
    execFileSync(generator(), [schema, "nodejs-program", program], {
      stdio: "inherit",
      env: { ...process.env, GENSDK_PCL: join(source, "import-check.pp") },
    });
    const generated = readFileSync(join(program, "index.ts"), "utf8");
    if (!generated.includes('import * as guardrails from "pulumi-guardrails/native";')) {
      console.error(`generated programs do not import pulumi-guardrails/native:\n${generated}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(program, { recursive: true, force: true });
  }
}

/** sdk/go: the codegen writes the package (guardrails/); the module around it is ours: its path
 * is the folder above the schema's language.go.importBasePath, it requires the Pulumi Go SDK the
 * codegen targets, and `go mod tidy` completes it (go.sum: the committed one is its cache). The
 * plugin's pulumi-plugin.json is copied to the module root too: the Go language host before
 * v3.5x looks for it only there, in go/ or in go/<name>/ (sdk/v3@v3.50.0), not in <name>/. */
function golang(dir) {
  const { importBasePath } = JSON.parse(readFileSync(schema, "utf8")).language.go;
  const module = importBasePath.slice(0, importBasePath.lastIndexOf("/"));
  const name = importBasePath.slice(module.length + 1);
  writeFileSync(
    join(dir, "go.mod"),
    `module ${module}\n\ngo 1.25\n\nrequire (\n\tgithub.com/blang/semver v3.5.1+incompatible\n\tgithub.com/pulumi/pulumi/sdk/v3 ${PULUMI_GO_SDK}\n)\n`,
  );
  const sum = join(sdkRoot, "go", "go.sum");
  if (existsSync(sum)) cpSync(sum, join(dir, "go.sum"));
  execFileSync(go, ["mod", "tidy"], { cwd: dir, stdio: "inherit", env: { ...process.env, GOFLAGS: "-mod=mod" } });
  cpSync(join(dir, name, "pulumi-plugin.json"), join(dir, "pulumi-plugin.json"));
  // Doc comments name args as Go does (go-doc-names.mjs).
  goDocNamesIn(join(dir, name), JSON.parse(readFileSync(schema, "utf8")));
}

/** sdk/python: enum inputs take plain strings and `...Args` classes take dicts
 * (python-inputs.mjs), and the package exports the hand-written `declare_guardrails` too. */
function python(dir) {
  widenPythonInputs(join(dir, "pulumi_guardrails"), JSON.parse(readFileSync(schema, "utf8")));
  const init = join(dir, "pulumi_guardrails/__init__.py");
  writeFileSync(
    init,
    `${readFileSync(init, "utf8")}from .declare import *  # hand-written: codegen/gensdk/overlays/\n`,
  );
}

/** Each SDK: the generator's language and what is done to its output afterwards. */
const LANGUAGES = { nodejs, python, go: golang };

/** The files of `want` and `have` that differ. */
function differ(want, have) {
  const [w, h] = [files(want), files(have)];
  return [...new Set([...w, ...h])].filter(
    (f) => !w.includes(f) || !h.includes(f) || !readFileSync(join(want, f)).equals(readFileSync(join(have, f))),
  );
}

const out = mkdtempSync(join(tmpdir(), "guardrails-sdk-"));
try {
  for (const [language, finish] of Object.entries(LANGUAGES)) {
    const dir = join(out, language);
    const sdk = join(sdkRoot, language);
    execFileSync(generator(), [schema, language, dir], { stdio: "inherit" });
    // Hand-written files the generator keeps (the declarative helpers of Python and Go).
    const overlay = join(source, "overlays", language);
    if (existsSync(overlay)) cpSync(overlay, dir, { recursive: true });
    finish(dir);
    if (check) {
      const changed = differ(dir, sdk);
      if (changed.length > 0) {
        console.error(
          `sdk/${language} differs from what src/native/schema.json generates: ${changed.join(", ")}\nrun \`npm run sdk:gen\``,
        );
        process.exitCode = 1;
      } else console.log(`sdk/${language} matches src/native/schema.json (${files(dir).length} files)`);
    } else {
      rmSync(sdk, { recursive: true, force: true });
      cpSync(dir, sdk, { recursive: true });
      console.log(`wrote ${relative(root, sdk)}/ (${files(sdk).length} files)`);
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
