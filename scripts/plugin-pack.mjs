#!/usr/bin/env node
// The native provider plugin `pulumi-resource-guardrails` as a folder and as a tarball. The
// folder, dist/plugin/, holds the launcher (src/native/bin/pulumi-resource-guardrails, `#!/bin/sh`,
// and a `.cmd` twin for Windows) and main.js, the compiled face bundled with rolldown into one file that loads nothing but
// Node's own modules (the package version is inlined): on the target machine it needs only `node`.
// The npm package ships the folder (its postinstall copies it into PULUMI_HOME, see
// scripts/install-plugin.mjs); the tarball is what `pulumi plugin install resource guardrails
// <version> --file <tarball>` takes.
//
//   node scripts/plugin-pack.mjs bundle           dist/src/native/main.js -> dist/plugin/ (run by `npm run build`)
//   node scripts/plugin-pack.mjs tarball [out]    dist/plugin/ -> out (default pulumi-resource-guardrails-v<version>.tar.gz)
//
// `npm run plugin:pack` builds, then writes the tarball. The tarball is written by this script
// (ustar, gzip), not by `tar`, so it is the same bytes on every machine for the same inputs.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pluginDir = join(root, "dist/plugin");
const LAUNCHER = "pulumi-resource-guardrails";
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const die = (message) => {
  console.error(`plugin-pack: ${message}`);
  process.exit(1);
};

async function bundle() {
  const entry = join(root, "dist/src/native/main.js");
  if (!existsSync(entry)) die(`no ${entry}; run \`npm run build\` (tsc) first`);
  const { rolldown } = await import("rolldown");
  rmSync(pluginDir, { recursive: true, force: true });
  mkdirSync(pluginDir, { recursive: true });
  const bundler = await rolldown({ input: entry, platform: "node", logLevel: "silent" });
  await bundler.write({ file: join(pluginDir, "main.js"), format: "cjs" });
  await bundler.close();
  copyFileSync(join(root, "src/native/bin", LAUNCHER), join(pluginDir, LAUNCHER));
  chmodSync(join(pluginDir, LAUNCHER), 0o755);
  // Windows: the CLI also looks for `<plugin>.cmd` (GetPluginPath's candidate extensions).
  writeFileSync(join(pluginDir, `${LAUNCHER}.cmd`), '@node "%~dp0main.js" %*\r\n');
}

/** One ustar header block for a regular file. */
function header(name, mode, size) {
  const block = Buffer.alloc(512);
  const put = (offset, length, text) => block.write(text, offset, length, "ascii");
  const octal = (offset, length, value) => put(offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
  put(0, 100, name);
  octal(100, 8, mode);
  octal(108, 8, 0); // uid
  octal(116, 8, 0); // gid
  octal(124, 12, size);
  octal(136, 12, 499_162_500); // mtime: 1985-10-26, as npm's own tarballs, so the bytes never depend on the clock
  put(156, 1, "0"); // a regular file
  put(257, 8, "ustar\u000000");
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

function tarball(out) {
  const files = [
    [LAUNCHER, 0o755],
    [`${LAUNCHER}.cmd`, 0o644],
    ["main.js", 0o644],
  ];
  const blocks = [];
  for (const [name, mode] of files) {
    const path = join(pluginDir, name);
    if (!existsSync(path)) die(`no ${path}; run \`npm run build\` first (it bundles the plugin)`);
    const data = readFileSync(path);
    blocks.push(header(name, mode, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024)); // two empty blocks end the archive
  writeFileSync(out, gzipSync(Buffer.concat(blocks), { level: 9 }));
  console.log(out);
}

const [command, out] = process.argv.slice(2);
if (command === "bundle") await bundle();
else if (command === "tarball") tarball(resolve(out ?? join(root, `${LAUNCHER}-v${version}.tar.gz`)));
else die("usage: plugin-pack.mjs bundle | tarball [out.tar.gz]");
