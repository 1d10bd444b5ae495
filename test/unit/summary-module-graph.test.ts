/**
 * The PR summary is a small command-line tool: knowing the assignment statuses must not load
 * the HTTP client (undici) or the provider's lifecycles.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(__dirname, "../..");

describe("src/preview module graph", () => {
  it("loads neither undici nor the client nor a lifecycle", () => {
    const probe = spawnSync(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(join(REPO, "dist/src/preview/summary.js"))}); require(${JSON.stringify(join(REPO, "dist/src/preview/drift.js"))}); console.log(JSON.stringify(Object.keys(require.cache)))`,
      ],
      { encoding: "utf8" },
    );
    expect(probe.status, probe.stderr).toBe(0);
    const loaded: string[] = JSON.parse(probe.stdout);
    expect(loaded.some((m) => m.includes("/src/preview/summary.js"))).toBe(true);
    expect(
      loaded.filter((m) =>
        /node_modules[\\/](undici|@pulumi)[\\/]|[\\/]src[\\/]core[\\/](client[\\/]|settings[\\/]|assignments[\\/](lifecycle|apply|held-elsewhere)\.js)/.test(
          m,
        ),
      ),
    ).toEqual([]);
    // It was 225 modules when the summary took FOREIGN from the lifecycle; the pure effective-access
    // core (src/core/access, issue 41) adds about ten.
    expect(loaded.length).toBeLessThan(165);
  });
});
