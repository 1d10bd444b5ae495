/**
 * The review summary's goldens (issue 30): each real `pulumi preview --json` of
 * test/e2e/golden/review/ (made by test/e2e/review-goldens.test.ts under the real CLI, with the
 * policy events of its engine log where a policy ran) rendered and compared with the reviewed
 * Markdown beside it. `UPDATE_GOLDEN=1` rewrites the Markdown; read the diff before committing.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPolicyEvents, summarize } from "../../src/preview";

const dir = join(__dirname, "../e2e/golden/review");
const at = (name: string, ext: string) => join(dir, `${name}.${ext}`);

/** The first line of each walk-around of the review gate (issue 38, class 6): each one loosens. */
const WALKAROUNDS: Record<string, RegExp> = {
  repoint:
    /^\*\*🔓 Loosens:\*\* 2 members move from `Strict` to `Open` \(`user_alice`, `user_bob`\); 1 key moves from `Strict` to `Open`/,
  "delete-unlisted":
    /^\*\*🔓 Loosens:\*\* `Legacy` \(deleted: allowedModels, limitUsd, resetInterval\) · touches any members and keys on `Legacy` this preview does not list/,
  rename:
    /^\*\*🔓 Loosens:\*\* `Strict` \(deleted: allowedModels, limitUsd, resetInterval\); `Strict` \(`strict-v2`, succeeds `strict`: allowedModels, limitUsd\)/,
  names:
    /^\*\*🔓 Loosens:\*\* `🔒 Nothing loosens: rename only` \(limitUsd\); 2 members move from `Strict` to `Str<U\+0456>ct` \(⚠ mixed scripts\)/,
  "replace-unlisted":
    /^\*\*🔓 Loosens:\*\* `Legacy` \(replaced: allowedModels, limitUsd, resetInterval\) · touches any members and keys on `Legacy` this preview does not list/,
};

/** Each golden: what its first line must say, and whether the CLI's `--fail-on-loosening` fails it. */
const GOLDENS: Record<string, { opening: RegExp; loosens: boolean; failed: boolean }> = {
  tightens: { opening: /^\*\*🔒 Nothing loosens/, loosens: false, failed: false },
  "loosens-setting": { opening: /^\*\*🔓 Loosens:\*\* `Strict` \(/, loosens: true, failed: false },
  "moves-member": {
    opening: /^\*\*🔓 Loosens:\*\* 1 member moves from `Strict` to `Lax` \(`user_bob`\)/,
    loosens: true,
    failed: false,
  },
  "removes-filter": {
    opening: /^\*\*🔓 Loosens:\*\* `Strict` \(contentFilterBuiltins, contentFilters\)/,
    loosens: true,
    failed: false,
  },
  "policy-fails": { opening: /^\*\*🔓 Loosens:\*\* `Strict` \(/, loosens: true, failed: true },
  // The walk-arounds of issue 38 (test/e2e/review-walkarounds.test.ts), on both faces.
  ...Object.fromEntries(
    Object.entries(WALKAROUNDS).flatMap(([shape, opening]) =>
      ["dynamic", "native"].map((face) => [`walk-${shape}.${face}`, { opening, loosens: true, failed: false }]),
    ),
  ),
};

describe("review summary goldens from real previews", () => {
  it.each(Object.keys(GOLDENS))("%s", (name) => {
    const want = GOLDENS[name]!;
    const json = JSON.parse(readFileSync(at(name, "preview.json"), "utf8")) as unknown;
    const events = at(name, "events.jsonl");
    const policies = existsSync(events) ? readPolicyEvents(readFileSync(events, "utf8")) : undefined;
    const summary = summarize(json, policies ? { policies } : {});
    if (process.env.UPDATE_GOLDEN) writeFileSync(at(name, "md"), summary.markdown);
    expect(summary.markdown).toBe(readFileSync(at(name, "md"), "utf8"));
    expect(summary.markdown.split("\n")[0]).toMatch(want.opening);
    expect(summary.loosens).toBe(want.loosens);
    expect(summary.failed).toBe(want.failed);
    // A name that can pass for another is never shown raw (issue 38): only marked, its letters spelled out.
    expect(summary.markdown).not.toContain("Str\u0456ct");
  });
});
