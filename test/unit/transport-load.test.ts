/**
 * The HTTP client loads undici's Agent and `request` alone, not its entry point, which also
 * loads fetch, WebSocket, caches and mocks: about half of what a fresh provider process loaded
 * before its first call (issue 43). The deep paths are undici's internals, so this test also
 * fails when a new undici moves them.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPO = join(__dirname, "../..");

describe("the client's module graph", () => {
  it("loads undici's Agent and request, not its entry point", () => {
    const probe = spawnSync(
      process.execPath,
      [
        "-e",
        `require(${JSON.stringify(join(REPO, "dist/src/core/client/client.js"))}); console.log(JSON.stringify(Object.keys(require.cache)))`,
      ],
      { encoding: "utf8" },
    );
    expect(probe.status, probe.stderr).toBe(0);
    const undici = (JSON.parse(probe.stdout) as string[])
      .map((m) => m.replace(/\\/g, "/"))
      .filter((m) => m.includes("/node_modules/undici/"))
      .map((m) => m.slice(m.indexOf("/node_modules/undici/") + "/node_modules/undici/".length));
    expect(undici).toContain("lib/dispatcher/agent.js");
    expect(undici).toContain("lib/api/api-request.js");
    expect(undici.filter((m) => m === "index.js" || m.startsWith("lib/web/"))).toEqual([]);
  });
});
