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
//   node scripts/plugin-pack.mjs sea [--platform linux-amd64|...|all] [--out DIR]
//                                                 dist/plugin/main.js -> one executable per platform that
//                                                 needs no Node.js (scripts/plugin-sea.mjs says how)
//
// `npm run plugin:pack` builds, then writes the tarball. The tarball is written by this script
// (scripts/ustar.mjs), not by `tar`, so it is the same bytes on every machine for the same inputs.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tarGz } from "./ustar.mjs";

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

function tarball(out) {
  const files = [
    [LAUNCHER, 0o755],
    [`${LAUNCHER}.cmd`, 0o644],
    ["main.js", 0o644],
  ];
  const entries = [];
  for (const [name, mode] of files) {
    const path = join(pluginDir, name);
    if (!existsSync(path)) die(`no ${path}; run \`npm run build\` first (it bundles the plugin)`);
    entries.push([name, mode, readFileSync(path)]);
  }
  writeFileSync(out, tarGz(entries));
  console.log(out);
}

const [command, out, ...rest] = process.argv.slice(2);
if (command === "bundle") await bundle();
else if (command === "tarball") tarball(resolve(out ?? join(root, `${LAUNCHER}-v${version}.tar.gz`)));
else if (command === "sea")
  await (await import("./plugin-sea.mjs")).main([out, ...rest].filter((a) => a !== undefined));
else die("usage: plugin-pack.mjs bundle | tarball [out.tar.gz] | sea [--platform P|all] [--out DIR]");
