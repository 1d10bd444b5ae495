/**
 * scripts/release.mjs refuses what would harm before it builds or tags (issue 42's attack pass):
 * an --out it would wipe (a folder holding anything but an earlier release's artifacts, a
 * symbolic link), a hostile version in package.json, and it leaves --out as it was when a step
 * fails. Run on a copy of the script in a throwaway git repository whose steps are stubs: `npm`
 * on PATH answers `run` and writes `pack`'s tarball, scripts/prepare.mjs does nothing, and
 * scripts/plugin-pack.mjs fails, so nothing real is built.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "../..");

/** A throwaway repository with the release script, stub steps, and package.json's `version`. */
function repo(version: string) {
  const dir = mkdtempSync(join(tmpdir(), "release-guard-"));
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "bin"));
  for (const f of ["release.mjs", "plugin-sea.mjs", "ustar.mjs"])
    copyFileSync(join(root, "scripts", f), join(dir, "scripts", f));
  writeFileSync(join(dir, "scripts/prepare.mjs"), "");
  writeFileSync(join(dir, "scripts/plugin-pack.mjs"), "process.exit(3);\n");
  writeFileSync(join(dir, "package.json"), JSON.stringify({ version }));
  writeFileSync(join(dir, "CHANGELOG.md"), `# Changelog\n\n## ${version}\n`);
  writeFileSync(join(dir, ".gitignore"), "bin/\nout/\n.out.*\n");
  const npm = join(dir, "bin/npm");
  writeFileSync(
    npm,
    `#!/bin/sh\nif [ "$1" = pack ]; then : > "$3/pulumi-guardrails-${version.replace(/[^0-9.]/g, "")}.tgz"; fi\nexit 0\n`,
  );
  chmodSync(npm, 0o755);
  const git = (...args: string[]) => spawnSync("git", args, { cwd: dir, encoding: "utf8" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init");
  const run = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, [join(dir, "scripts/release.mjs"), ...args], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, PATH: `${join(dir, "bin")}:${process.env.PATH}`, ...env },
    });
  const release = (...args: string[]) => run({}, ...args);
  return { dir, release, run };
}

describe("scripts/release.mjs refuses before it builds", () => {
  it("an --out holding anything but an earlier release's artifacts, or a symbolic link", () => {
    const { dir, release } = repo("1.2.3");
    const full = join(dir, "full");
    mkdirSync(full);
    writeFileSync(join(full, "thesis.tex"), "years of work");
    const linked = join(dir, "linked");
    symlinkSync(mkdtempSync(join(tmpdir(), "release-target-")), linked);
    for (const [out, says] of [
      [full, "holds thesis.tex, which no release made"],
      [dir, "which no release made"],
      [linked, "is a symbolic link"],
    ] as const) {
      const r = release("--dry-run", "--out", out);
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(`release: --out ${out} `);
      expect(r.stderr).toContain(says);
      expect(r.stderr).not.toContain("release: npm run sdk:check");
    }
    expect(readdirSync(full)).toEqual(["thesis.tex"]);
    expect(existsSync(join(dir, "package.json"))).toBe(true);
  });

  it("a version that is not X.Y.Z, before it reaches a tag, a file name or a regular expression", () => {
    for (const version of ["0.6.0; rm -rf ~", "0.6.0\nmalicious", "1.0.0|", "../../1.0.0"]) {
      const { release } = repo(version);
      const r = release("--dry-run", "--out", "out");
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(`release: package.json's version ${JSON.stringify(version)}: expected X.Y.Z`);
      expect(r.stderr).not.toContain("release: npm run sdk:check");
    }
  });

  it("leaves --out as it was when a step fails: no half-written release", () => {
    const { dir, release } = repo("1.2.3");
    const out = join(dir, "out");
    mkdirSync(out);
    writeFileSync(join(out, "SHA256SUMS"), "an earlier release's\n");
    const r = release("--dry-run", "--out", out, "--unsigned-darwin"); // this machine's rcodesign or none
    expect(r.stderr).toContain("release: the five plugin archives");
    expect(r.status).toBe(1);
    expect(readdirSync(out)).toEqual(["SHA256SUMS"]);
    expect(readdirSync(dir).filter((f) => f.startsWith(".out."))).toEqual([]);
  });

  it("without rcodesign at the pinned version, unless --unsigned-darwin: names what is missing and how to get it", () => {
    const { dir, run } = repo("1.2.3");
    const fake = join(dir, "bin/rcodesign-old");
    writeFileSync(fake, "#!/bin/sh\necho rcodesign 0.28.0\n", { mode: 0o755 });
    const none = {
      GUARDRAILS_PULUMI_CACHE: mkdtempSync(join(tmpdir(), "no-rcodesign-")),
      PATH: `${join(dir, "bin")}:/usr/bin:/bin`,
    };
    for (const [env, says] of [
      [none, "release: no rcodesign 0.29.0 on PATH or in "],
      [{ ...none, GUARDRAILS_RCODESIGN: fake }, `release: GUARDRAILS_RCODESIGN=${fake} is not rcodesign 0.29.0`],
    ] as const) {
      const r = run({ ...env }, "--dry-run", "--out", "out");
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(says);
      expect(r.stderr).toContain("or pass --unsigned-darwin to release them unsigned");
      expect(r.stderr).not.toContain("release: npm run sdk:check");
    }
    expect(run(none, "--dry-run", "--out", "out").stderr).toContain(
      "run scripts/ensure-rcodesign (it builds it with cargo",
    );
    // --unsigned-darwin goes on to the build (the stub plugin-pack fails there).
    expect(run(none, "--dry-run", "--out", "out", "--unsigned-darwin").stderr).toContain("release: npm run sdk:check");
  });

  it("--from-tag refuses --unsigned-darwin: what the workflow publishes is signed", () => {
    const { release } = repo("1.2.3");
    const r = release("--from-tag", "--out", "out", "--unsigned-darwin");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("release: --from-tag refuses --unsigned-darwin");
  });
});
