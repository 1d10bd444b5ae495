/**
 * The previous release of this package, built from its commit in this repository's history and
 * packed with `npm pack`, so an upgrade test can make a stack with it and continue with the
 * current code. Users' state calls `require("pulumi-guardrails/internal")[kind].<method>` of
 * whatever version is installed, so this is the compatibility contract under test.
 */
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./spawn-emulator";

/** The release users' stacks were made with: 0.1.0, the first version that worked end to end. */
export const PREVIOUS_RELEASE = { version: "0.1.0", commit: "50a4de7540e45386fbaa53a93f592bf8dd4bcedb" };

/** Builds and packs the previous release under `work`; returns the tarball's path. */
export function packPreviousRelease(work: string): string {
  const src = join(work, `previous-${PREVIOUS_RELEASE.version}`);
  mkdirSync(src, { recursive: true });
  // `git archive` needs the commit in history: CI's clean clone has it, a shallow clone would not.
  const tar = execFileSync("git", ["-C", REPO_ROOT, "archive", "--format=tar", PREVIOUS_RELEASE.commit], {
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", src], { input: tar });
  const quiet: ExecFileSyncOptions = { cwd: src, stdio: ["ignore", "ignore", "inherit"] };
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], quiet);
  execFileSync("npm", ["run", "build", "--silent"], quiet);
  const out = join(work, "previous-tarball");
  mkdirSync(out);
  execFileSync("npm", ["pack", "--silent", "--pack-destination", out], quiet);
  return join(out, readdirSync(out).find((f) => f.endsWith(".tgz"))!);
}
