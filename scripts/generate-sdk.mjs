#!/usr/bin/env node
// Writes the native face's TypeScript SDK (sdk/nodejs/, shipped as `pulumi-guardrails/native`)
// from the committed package schema (src/native/schema.json) with Pulumi's own code generator:
// scripts/gensdk, a Go program on pkg/v3's codegen. `pulumi package gen-sdk` cannot do it here:
// it asks the language host (GeneratePackage), and the Node.js host built here predates that call.
//   npm run sdk:gen     after `npm run schema`: rewrites sdk/nodejs/
//   npm run sdk:check   fails when sdk/nodejs/ differs from what the schema generates (.ci/run)
// Both fail when a program generated from scripts/gensdk/import-check.pp (as `pulumi import
// --generate-code` would write it) does not import `pulumi-guardrails/native`.
// Needs Go; the generator is built once per version of its sources and cached in
// ~/.cache/pulumi-guardrails/gensdk-<hash>.
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

const root = fileURLToPath(new URL("..", import.meta.url));
const source = join(root, "scripts/gensdk");
const schema = join(root, "src/native/schema.json");
const sdk = join(root, "sdk/nodejs");
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
    const go = existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go";
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

const out = mkdtempSync(join(tmpdir(), "guardrails-sdk-"));
try {
  execFileSync(generator(), [schema, "nodejs", out], { stdio: "inherit" });
  // The SDK ships inside this package: its package.json only tells `getVersion()` the version.
  // The generated `pulumi` field would declare the plugin as one to fetch (the Node.js host
  // reports every such package.json under node_modules), from get.pulumi.com, where it is not:
  // this package's plugin comes with the package. (A plugin the engine cannot find at all it
  // tries to download anyway when a resource asks for its version; the plugin on PATH or
  // installed with `pulumi plugin install` is found first.)
  const pkg = JSON.parse(readFileSync(join(out, "package.json"), "utf8"));
  writeFileSync(join(out, "package.json"), `${JSON.stringify({ name: pkg.name, version: pkg.version }, null, 4)}\n`);
  // What `pulumi import --generate-code` writes for a TypeScript program (the engine hands the
  // language host a PCL program; Pulumi's code generator turns it into this) imports the SDK
  // from this package, by the schema's language.nodejs.packageName.
  const program = join(out, "program");
  const pcl = join(source, "import-check.pp");
  execFileSync(generator(), [schema, "nodejs-program", program], {
    stdio: "inherit",
    env: { ...process.env, GENSDK_PCL: pcl },
  });
  const generated = readFileSync(join(program, "index.ts"), "utf8");
  if (!generated.includes('import * as guardrails from "pulumi-guardrails/native";')) {
    console.error(`generated programs do not import pulumi-guardrails/native:\n${generated}`);
    process.exitCode = 1;
  }
  rmSync(program, { recursive: true });
  if (check) {
    const [want, have] = [files(out), files(sdk)];
    const differ = [...new Set([...want, ...have])].filter(
      (f) => !want.includes(f) || !have.includes(f) || !readFileSync(join(out, f)).equals(readFileSync(join(sdk, f))),
    );
    if (differ.length > 0) {
      console.error(
        `sdk/nodejs differs from what src/native/schema.json generates: ${differ.join(", ")}\nrun \`npm run sdk:gen\``,
      );
      process.exitCode = 1;
    } else console.log(`sdk/nodejs matches src/native/schema.json (${want.length} files)`);
  } else {
    rmSync(sdk, { recursive: true, force: true });
    cpSync(out, sdk, { recursive: true });
    console.log(`wrote ${relative(root, sdk)}/ (${files(sdk).length} files)`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
