/**
 * The package's postinstall (scripts/install-plugin.mjs), run as npm runs it, from a package
 * laid out as npm installs it: it copies the plugin into PULUMI_HOME/plugins in the layout
 * `pulumi plugin install` writes, leaves a copy that is already there alone, replaces one that
 * differs, never writes through a link, trusts no folder another user owns or can write (issue
 * 38, class 5), does nothing in a checkout, and never fails the install.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";

const SCRIPT = join(__dirname, "../../scripts/install-plugin.mjs");
const DIR = "resource-guardrails-v1.2.3";

let work: string;
let home: string;

/** A package as npm installs it: <parent>/pulumi-guardrails with the script and a built plugin. */
function layPackage(parent: string, main = "console.log('plugin');\n"): string {
  const pkg = join(parent, "pulumi-guardrails");
  mkdirSync(join(pkg, "scripts"), { recursive: true });
  mkdirSync(join(pkg, "dist/plugin"), { recursive: true });
  cpSync(SCRIPT, join(pkg, "scripts/install-plugin.mjs"));
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "pulumi-guardrails", version: "1.2.3" }));
  writeFileSync(join(pkg, "dist/plugin/pulumi-resource-guardrails"), "#!/bin/sh\n", { mode: 0o755 });
  writeFileSync(join(pkg, "dist/plugin/pulumi-resource-guardrails.cmd"), "@node main.js\r\n");
  writeFileSync(join(pkg, "dist/plugin/main.js"), main);
  return pkg;
}

function postinstall(pkg: string, pulumiHome = home) {
  const run = spawnSync(process.execPath, [join(pkg, "scripts/install-plugin.mjs")], {
    cwd: pkg,
    env: { ...process.env, PULUMI_HOME: pulumiHome },
    encoding: "utf8",
  });
  return { code: run.status, out: run.stdout + run.stderr };
}

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "install-plugin-"));
  home = join(work, "home");
});

describe("the postinstall that installs the plugin", () => {
  it("copies the plugin into PULUMI_HOME/plugins as `pulumi plugin install` lays it out", () => {
    const r = postinstall(layPackage(join(work, "node_modules")));
    expect(r).toMatchObject({ code: 0 });
    expect(r.out).toContain(`installed in ${join(home, "plugins", DIR)}`);
    const dir = join(home, "plugins", DIR);
    expect(statSync(join(dir, "pulumi-resource-guardrails")).mode & 0o777).toBe(0o755);
    expect(readFileSync(join(dir, "main.js"), "utf8")).toBe("console.log('plugin');\n");
    // Nothing else: no .partial marker, no staging folder left behind.
    expect(readdirSync(join(home, "plugins"))).toEqual([DIR]);
  });

  it("leaves an identical copy alone and replaces one that differs", () => {
    const modules = join(work, "node_modules");
    postinstall(layPackage(modules));
    const file = join(home, "plugins", DIR, "main.js");
    const before = statSync(file).mtimeMs;
    expect(postinstall(join(modules, "pulumi-guardrails")).out).toContain("already installed");
    expect(statSync(file).mtimeMs).toBe(before);

    writeFileSync(join(modules, "pulumi-guardrails/dist/plugin/main.js"), "console.log('rebuilt');\n");
    expect(postinstall(join(modules, "pulumi-guardrails")).out).toContain("installed in");
    expect(readFileSync(file, "utf8")).toBe("console.log('rebuilt');\n");
    expect(readdirSync(join(home, "plugins"))).toEqual([DIR]);
  });

  it("never writes through a link at the plugin's folder, and does not fail the install", () => {
    const elsewhere = join(work, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(join(home, "plugins"), { recursive: true });
    symlinkSync(elsewhere, join(home, "plugins", DIR));
    const r = postinstall(layPackage(join(work, "node_modules")));
    expect(r.code).toBe(0);
    expect(r.out).toContain("pulumi plugin install resource guardrails 1.2.3 --file");
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(lstatSync(join(home, "plugins", DIR)).isSymbolicLink()).toBe(true);
    expect(readdirSync(join(home, "plugins"))).toEqual([DIR]);
  });

  it("does not fail the install when PULUMI_HOME cannot be written", () => {
    writeFileSync(join(work, "a-file"), "");
    const r = postinstall(layPackage(join(work, "node_modules")), join(work, "a-file"));
    expect(r.code).toBe(0);
    expect(r.out).toContain("could not install the native provider plugin");
  });

  it("does nothing in a checkout of the repository, or when the package carries no built plugin", () => {
    expect(postinstall(layPackage(join(work, "checkout")))).toEqual({ code: 0, out: "" });
    const bare = layPackage(join(work, "node_modules"));
    rmSync(join(bare, "dist"), { recursive: true });
    const r = postinstall(bare);
    expect(r.code).toBe(0);
    expect(r.out).toContain("carries no built plugin");
    expect(existsSync(home)).toBe(false);
  });
});

/** Every path under `dir`, itself included, owned by `uid`. */
function chownAll(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    chownSync(join(e.parentPath, e.name), uid, uid);
}

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

describe("the postinstall trusts no link and no folder another user can write (issue 38)", () => {
  it("refuses a symbolic link at PULUMI_HOME/plugins, writing nothing through it", () => {
    const elsewhere = join(work, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(home);
    symlinkSync(elsewhere, join(home, "plugins"));
    const r = postinstall(layPackage(join(work, "node_modules")));
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${join(home, "plugins")} is a symbolic link`);
    expect(r.out).toContain("pulumi plugin install resource guardrails 1.2.3 --file");
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("refuses a symbolic link at PULUMI_HOME itself", () => {
    const elsewhere = join(work, "elsewhere");
    mkdirSync(join(elsewhere, "plugins"), { recursive: true });
    symlinkSync(elsewhere, home);
    const r = postinstall(layPackage(join(work, "node_modules")));
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${home} is a symbolic link`);
    expect(readdirSync(join(elsewhere, "plugins"))).toEqual([]);
  });

  it("replaces a copy in a folder anyone can write (777) with a fresh one only its owner can", () => {
    const modules = join(work, "node_modules");
    postinstall(layPackage(modules));
    const dir = join(home, "plugins", DIR);
    chmodSync(dir, 0o777);
    const r = postinstall(join(modules, "pulumi-guardrails"));
    expect(r.out).not.toContain("already installed");
    expect(r.out).toContain(`installed in ${dir}`);
    expect(statSync(dir).mode & 0o022).toBe(0);
    expect(readFileSync(join(dir, "main.js"), "utf8")).toBe("console.log('plugin');\n");
    expect(readdirSync(join(home, "plugins"))).toEqual([DIR]);
  });

  it("replaces a copy whose file anyone can write", () => {
    const modules = join(work, "node_modules");
    postinstall(layPackage(modules));
    chmodSync(join(home, "plugins", DIR, "main.js"), 0o666);
    expect(postinstall(join(modules, "pulumi-guardrails")).out).not.toContain("already installed");
    expect(statSync(join(home, "plugins", DIR, "main.js")).mode & 0o022).toBe(0);
  });

  it("refuses a plugins folder anyone can write", () => {
    mkdirSync(join(home, "plugins"), { recursive: true });
    chmodSync(join(home, "plugins"), 0o777);
    const r = postinstall(layPackage(join(work, "node_modules")));
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${join(home, "plugins")} can be written by other users (mode 777)`);
    expect(readdirSync(join(home, "plugins"))).toEqual([]);
  });

  it.skipIf(!asRoot)("refuses a plugin folder another user owns, and leaves it alone", () => {
    const modules = join(work, "node_modules");
    postinstall(layPackage(modules));
    const dir = join(home, "plugins", DIR);
    chownAll(dir, NOBODY);
    const r = postinstall(join(modules, "pulumi-guardrails"));
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("already installed");
    expect(r.out).toContain(`${dir} is owned by another user (uid ${NOBODY})`);
    expect(r.out).toContain("pulumi plugin install resource guardrails 1.2.3 --file");
    expect(statSync(dir).uid).toBe(NOBODY);
    expect(readdirSync(join(home, "plugins"))).toEqual([DIR]);
  });

  it.skipIf(!asRoot)("refuses a PULUMI_HOME another user owns", () => {
    mkdirSync(join(home, "plugins"), { recursive: true, mode: 0o700 });
    chownAll(home, NOBODY);
    const r = postinstall(layPackage(join(work, "node_modules")));
    expect(r.out).toContain(`${home} is owned by another user (uid ${NOBODY})`);
    expect(readdirSync(join(home, "plugins"))).toEqual([]);
  });
});
