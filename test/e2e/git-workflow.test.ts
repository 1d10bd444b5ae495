/**
 * The two Git workflows of examples/declarative, driven command by command as the workflows run
 * them, under the real CLI and the emulator:
 * - pull-request preview: a checkout of the base, `guardrails-ci preview` takes only the data
 *   files from the PR head, then `pulumi preview` and the summary; a PR that touches code is
 *   refused before anything is written;
 * - drift check: hand changes through the emulator, `pulumi preview --refresh --json`, the drift
 *   summary (checked against golden files made from this very JSON) and the issue decision.
 */
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIFT_MARKER } from "../../tools/ci/drift-issue";
import { summarizeDrift } from "../../src/preview/drift";
import { summarizePreview } from "../../src/preview/summary";
import { GitRepo } from "../helpers/git-repo";
import { normalizePreviewJson } from "../helpers/normalize-preview";
import { Program } from "./harness";

const example = join(__dirname, "../../examples/declarative");
const goldenJson = join(__dirname, "golden/drift-preview.json");
const goldenMd = join(__dirname, "golden/drift-summary.md");

/** A bin of the installed package, run the way `npx <bin>` runs it in a workflow. */
function bin(p: Program, name: string, args: string[]) {
  const r = spawnSync(join(p.dir, "node_modules/.bin", name), args, { cwd: p.dir, encoding: "utf8" });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `guardrails-ci preview` of the PR branch `head` against main, writing its comment to comment.md.out. */
function ciPreview(p: Program, head: string) {
  return bin(p, "guardrails-ci", ["preview", "--base", "main", "--head", head, "--comment", "comment.md.out"]);
}

function declarative(name: string, extraFiles: Record<string, string> = {}) {
  return async () => {
    const p = await Program.create(name);
    cpSync(join(example, "guardrails"), join(p.dir, "guardrails"), { recursive: true });
    for (const [f, text] of Object.entries(extraFiles)) writeFileSync(join(p.dir, f), text);
    p.write(readFileSync(join(example, "index.ts"), "utf8"));
    return p;
  };
}

describe("pull-request preview that runs no PR code", () => {
  let p: Program;
  let repo: GitRepo;
  beforeAll(async () => {
    p = await declarative("pr-preview-e2e")();
    repo = GitRepo.init({ ".gitignore": "node_modules\n.state\n.journal\n*.json.out\n*.md.out\n" }, p.dir);
    await p.up();
    const eng = readFileSync(join(p.dir, "guardrails/engineering.yaml"), "utf8");
    const changed = eng
      .replace("limitUsd: 500", "limitUsd: 750")
      .replace("ids: [user_alice, user_bob]", "ids: [user_alice, user_bob, user_dave]");
    repo.branch("yaml-pr", { "guardrails/engineering.yaml": changed });
    // The attack the workflow exists to stop: code in the PR that reads the key during the preview.
    repo.branch("code-pr", {
      "index.ts": `${readFileSync(join(p.dir, "index.ts"), "utf8")}\nconsole.log("key:", process.env.GUARDRAILS_API_KEY);\n`,
      "guardrails/engineering.yaml": changed,
    });
  });
  afterAll(() => p.close());

  it("a YAML-only PR: the data file comes from the head, everything else from the base, and the preview shows the change", async () => {
    const r = ciPreview(p, "yaml-pr");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("mode=data\npreview=true\n");
    expect(repo.status()).toEqual([" M guardrails/engineering.yaml"]);
    expect(repo.git("diff", "--stat", "main", "yaml-pr", "--", "guardrails")).toContain("engineering.yaml");
    expect(repo.git("diff", "yaml-pr", "--", "guardrails")).toBe("");

    await p.clearLog();
    const res = await p.pulumi(["preview", "--refresh", "--json"], { check: true });
    expect((await p.log()).writes).toBe(0);
    writeFileSync(join(p.dir, "preview.json.out"), res.stdout);
    const summary = bin(p, "guardrails-preview-summary", ["preview.json.out"]);
    expect(summary.stdout).toBe(summarizePreview(JSON.parse(res.stdout)));
    expect(summary.stdout).toContain("limitUsd: `500` → `750`");
    expect(summary.stdout).toContain("- added: `user_dave`");
    repo.git("checkout", "--", "guardrails");
  });

  it("a PR that also touches index.ts: no preview with the key, nothing written, and the comment names index.ts", async () => {
    const r = ciPreview(p, "code-pr");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("mode=code\npreview=false\n");
    expect(repo.status()).toEqual([]);
    const comment = readFileSync(join(p.dir, "comment.md.out"), "utf8");
    expect(comment).toContain("- `index.ts` is outside guardrails/ (code or configuration)");
    expect(comment).toContain("maintainer-approved run");
  });
});

describe("scheduled drift check", () => {
  let p: Program;
  let ids: Record<string, string>;
  const research =
    "guardrails:\n  research:\n    name: Research\n    limitUsd: 20\n    resetInterval: weekly\n    members:\n      ids: [user_frank]\n";
  beforeAll(async () => {
    p = await declarative("drift-e2e", { "guardrails/research.yaml": research })();
    await p.up();
    ids = (await p.outputs()).guardrailIds;
  });
  afterAll(() => p.close());

  const previewJson = async () => {
    const res = await p.pulumi(["preview", "--refresh", "--json"]);
    writeFileSync(join(p.dir, "preview.json.out"), res.stdout);
    return res;
  };
  /** Open issues as `gh issue list --json number,author,body` lists them: the workflow's own unless `foreign`. */
  const decide = (open: Array<{ number: number; foreign?: boolean }>) => {
    const bot = { login: "app/github-actions", is_bot: true };
    const listed = open.map(({ number, foreign }) =>
      foreign
        ? { number, author: { login: "mallory", is_bot: false }, body: `${DRIFT_MARKER}\n` }
        : { number, author: bot, body: `${DRIFT_MARKER}\n\n## Guardrails drift` },
    );
    writeFileSync(join(p.dir, "open.json.out"), JSON.stringify(listed));
    return bin(p, "guardrails-ci", ["drift-issue", "preview.json.out", "--open-issues", "open.json.out"]);
  };

  it("no drift after up: the summary says so and no issue is opened", async () => {
    expect((await previewJson()).code).toBe(0);
    expect(bin(p, "guardrails-preview-summary", ["--drift", "preview.json.out"]).stdout).toContain(
      "## Guardrails: no drift",
    );
    expect(decide([]).stdout).toBe("action=none\n");
  });

  it("a member moved by hand, a limit changed and a guardrail deleted: the summary names each (golden files from this JSON), and the issue is opened or updated", async () => {
    expect(
      (await p.api("POST", `/guardrails/${ids.support}/assignments/members`, { member_user_ids: ["user_bob"] })).status,
    ).toBe(200);
    expect((await p.api("PATCH", `/guardrails/${ids.support}`, { limit_usd: 80 })).status).toBe(200);
    expect((await p.api("DELETE", `/guardrails/${ids.research}`)).status).toBe(200);
    const res = await previewJson();
    expect(res.code).toBe(0);
    const raw = JSON.parse(res.stdout);
    const cli = bin(p, "guardrails-preview-summary", ["--drift", "preview.json.out"]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toBe(summarizeDrift(raw));

    const fixture = normalizePreviewJson(raw);
    if (process.env.UPDATE_GOLDEN) {
      writeFileSync(goldenJson, JSON.stringify(fixture, null, 2) + "\n");
      writeFileSync(goldenMd, summarizeDrift(fixture));
    }
    const ops = (j: { steps: Array<{ op: string; urn: string }> }) => j.steps.map((s) => `${s.op} ${s.urn}`).sort();
    expect(ops(fixture)).toEqual(ops(JSON.parse(readFileSync(goldenJson, "utf8"))));
    expect(summarizeDrift(fixture)).toBe(readFileSync(goldenMd, "utf8"));

    expect(decide([]).stdout).toBe("action=open\n");
    expect(decide([{ number: 9 }, { number: 7 }]).stdout).toBe("action=update\nissue=7\nduplicates=9\n");
    // Someone put the label on their own issue: it is never the one updated, and it is reported.
    const labelled = decide([{ number: 3, foreign: true }]);
    expect(labelled.stdout).toBe("action=open\n");
    expect(labelled.stderr).toContain("issue #3 was not opened by this workflow");
  });

  it("a preview that fails (a revoked key) is never read as 'no drift': both commands exit non-zero", async () => {
    const key = p.env.GUARDRAILS_API_KEY;
    p.env.GUARDRAILS_API_KEY = "gr-revoked-key";
    try {
      expect((await previewJson()).code).not.toBe(0);
    } finally {
      p.env.GUARDRAILS_API_KEY = key;
    }
    const summary = bin(p, "guardrails-preview-summary", ["--drift", "preview.json.out"]);
    expect(summary.code).toBe(2);
    expect(summary.stderr).toContain("drift is unknown");
    const d = decide([{ number: 7 }]);
    expect(d.code).toBe(2);
    expect(d.stdout).toBe("");
  });

  it("after `up --refresh` repairs it, the check finds no drift and closes the issue", async () => {
    await p.up("--refresh");
    expect((await previewJson()).code).toBe(0);
    expect(bin(p, "guardrails-preview-summary", ["--drift", "preview.json.out"]).stdout).toContain(
      "## Guardrails: no drift",
    );
    expect(decide([{ number: 7 }, { number: 3, foreign: true }]).stdout).toBe("action=close\nissues=7\n");
  });
});
