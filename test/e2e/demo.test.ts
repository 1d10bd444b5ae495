/** The README's demo command works, twice in a row, and leaves nothing in the repo. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/spawn-emulator";

describe("npm run demo", () => {
  it("runs twice without cleanup: up, an out-of-band move found by preview --refresh, repaired, summary", () => {
    for (let run = 1; run <= 2; run++) {
      // The build already ran (npm test builds first); rebuilding dist/ here would race the other suites.
      const res = spawnSync("bash", ["scripts/demo"], {
        cwd: REPO_ROOT,
        encoding: "utf8",
        env: { ...process.env, DEMO_SKIP_BUILD: "1", NO_COLOR: "1" },
      });
      const out = `${res.stdout}${res.stderr}`;
      expect(res.status, out.slice(-3000)).toBe(0);
      expect(out).toMatch(/~ user_bob\s*: true => "on guardrail Support \([0-9a-f]{8}…\)"/);
      expect(out).toContain("no changes");
      expect(out).toMatch(/Engineering\s+limit \$500\/monthly\s+members: user_alice, user_carol, user_bob/);
      expect(existsSync(join(REPO_ROOT, "Pulumi.demo.yaml"))).toBe(false);
    }
  });
});
