/**
 * A release in one command (issue 42): .github/workflows/release.yml runs scripts/release.mjs, the
 * script CI runs as --dry-run (.ci/run), and repeats none of its steps; what the workflow attaches
 * is exactly the script's list of artifacts, pattern for file; the Go tag it pushes is the one the
 * script makes. The dry-run itself, for real, is test/e2e/sea-plugin.test.ts's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
// @ts-expect-error: a plain .mjs script without types
import { releaseArtifacts, releaseTags } from "../../scripts/release.mjs";

const root = join(__dirname, "../..");
const VERSION = "1.2.3";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
const workflow = parse(readFileSync(join(root, ".github/workflows/release.yml"), "utf8")) as {
  on: { push: { tags: string[] } };
  jobs: Record<string, { steps: Step[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
const runs = steps.flatMap((s) => (s.run ? s.run.split("\n") : []));
const attach = steps.filter((s) => s.uses?.startsWith("softprops/action-gh-release@"));

/** A glob of the action's (`*` within one path segment) as a regular expression. */
const globRe = (glob: string) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")}$`);

describe("the release workflow runs scripts/release.mjs and attaches what it makes", () => {
  it("runs on a tag vX.Y.Z, the script once, and none of the script's steps on its own", () => {
    expect(workflow.on.push.tags).toEqual(["v*.*.*"]);
    expect(runs.filter((line) => line.includes("scripts/release.mjs"))).toEqual([
      "node scripts/release.mjs --from-tag --out release",
    ]);
    for (const line of runs) expect(line).not.toMatch(/npm pack|plugin-pack|sdk-pack|pip wheel|sdk:check|git tag /);
  });

  it("attaches, pinned to a version, one pattern per artifact and nothing else", () => {
    expect(attach).toHaveLength(1);
    expect(attach[0]!.uses).toMatch(/@v\d+\.\d+\.\d+$/);
    expect(attach[0]!.with?.fail_on_unmatched_files).toBe(true);
    const patterns = String(attach[0]!.with?.files).trim().split("\n");
    const artifacts = releaseArtifacts(VERSION).map((f: string) => `release/${f}`);
    expect(artifacts).toContain(`release/pulumi-resource-guardrails-v${VERSION}-windows-amd64.tar.gz`);
    for (const a of artifacts)
      expect(
        patterns.filter((p) => globRe(p).test(a)),
        a,
      ).toHaveLength(1);
    for (const p of patterns)
      expect(
        artifacts.filter((a: string) => globRe(p).test(a)),
        p,
      ).toHaveLength(1);
  });

  it("pushes the Go module's tag the script makes, only when origin lacks it", () => {
    const push = steps.find((s) => s.run?.includes("git push"))!.run!;
    const tag = /tag="([^"]+)"/.exec(push)![1]!.replace(/\$\{GITHUB_REF_NAME\}/, `v${VERSION}`);
    expect(releaseTags(VERSION)).toEqual([`v${VERSION}`, tag]);
    expect(push).toMatch(/git ls-remote --exit-code --tags origin "refs\/tags\/\$tag"/);
  });

  it("CI runs the dry-run and hands its folder to the e2e tests; `npm run release` is the script", () => {
    const ci = readFileSync(join(root, ".ci/run"), "utf8");
    expect(ci).toMatch(/scripts\/release\.mjs --dry-run --out "\$GUARDRAILS_RELEASE_DIR"/);
    expect(ci).toMatch(/^export GUARDRAILS_RELEASE_DIR=/m);
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(pkg.scripts.release).toBe("node scripts/release.mjs");
  });

  it("the workflow and CI get rcodesign (pinned, built with --locked) before the script, which signs with it", () => {
    const order = runs.flatMap((line) =>
      /scripts\/ensure-rcodesign|scripts\/release\.mjs/.test(line) ? [line.trim()] : [],
    );
    expect(order).toEqual([
      "signer=$(scripts/ensure-rcodesign)", // an assignment: a failed build fails the step
      "node scripts/release.mjs --from-tag --out release",
    ]);
    expect(runs).toContain('  echo "GUARDRAILS_RCODESIGN=$signer" >> "$GITHUB_ENV"'.trim());
    const ensure = readFileSync(join(root, "scripts/ensure-rcodesign"), "utf8");
    expect(ensure).toMatch(/cargo install apple-codesign --version "\$version" --locked/);
    const ci = readFileSync(join(root, ".ci/run"), "utf8");
    const at = (command: string) => ci.search(new RegExp(`^timed "[^"]+" ${command}`, "m"));
    expect(at("scripts/ensure-rcodesign")).toBeGreaterThan(0);
    expect(at("scripts/ensure-rcodesign")).toBeLessThan(at("node scripts/release\\.mjs --dry-run"));
  });
});
