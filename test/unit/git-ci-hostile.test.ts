/**
 * `guardrails-ci preview` against hostile pull requests (issue 24), run as the built binary on
 * temp repositories: file names with bidi and invisible controls, thousands of paths, and the
 * git processes it starts (counted by a `git` wrapper on PATH, never timed).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GitRepo } from "../helpers/git-repo";

const BASE = {
  "index.ts": 'import { declareGuardrails } from "pulumi-guardrails";\ndeclareGuardrails("guardrails");\n',
  "package.json": '{"name":"x"}\n',
  "guardrails/eng.yaml": "guardrails:\n  eng:\n    name: Eng\n",
};
const EDITED = "guardrails:\n  eng:\n    name: Eng\n    limitUsd: 750\n";
const BIDI = ["\u202E", "\u2066", "\u200F"];
/** Where the comments go: a folder of this test's own, not the shared temp folder. */
const out = mkdtempSync(join(tmpdir(), "git-ci-hostile-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Any character that renders as nothing or reorders text, except the line feeds between lines. */
const INVISIBLE = /(?!\n)[\p{C}\p{Default_Ignorable_Code_Point}]/u;

/** A `git` wrapper on PATH that logs each call's arguments, one line each, then runs the real git. */
class GitCalls {
  readonly dir = mkdtempSync(join(tmpdir(), "git-calls-"));
  readonly log = join(this.dir, "calls.log");
  constructor() {
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    writeFileSync(join(this.dir, "git"), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${this.log}"\nexec "${real}" "$@"\n`);
    chmodSync(join(this.dir, "git"), 0o755);
  }
  get env() {
    return { PATH: `${this.dir}:${process.env.PATH}` };
  }
  /** The calls so far, without the fixed `-c core.quotePath=false` prefix, and resets the log. */
  take(): string[] {
    const calls = readFileSync(this.log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((c) => c.replace(/^-c core\.quotePath=false /, ""));
    rmSync(this.log);
    return calls;
  }
  remove() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe("file names with bidi and invisible controls reach the comment visibly", () => {
  let repo: GitRepo;
  afterAll(() => repo?.remove());

  it.each(BIDI)("U+%s in a code path and in an ignored path is shown as an escape, never live", (ch) => {
    const hex = ch.codePointAt(0)!.toString(16).toUpperCase();
    repo = GitRepo.init(BASE)
      .branch("code", { [`src/${ch}stx.exe.ts`]: "x\n", "guardrails/eng.yaml": EDITED })
      .branch("data", { [`guardrails/docs/a${ch}b.md`]: "x\n", "guardrails/eng.yaml": EDITED });
    const code = repo.ci(["preview", "--base", "main", "--head", "code", "--comment", join(out, "code.md")]);
    expect(code.outputs).toEqual({ mode: "code", preview: "false" });
    const data = repo.ci(["preview", "--base", "main", "--head", "data", "--comment", join(out, "data.md")]);
    expect(data.outputs).toEqual({ mode: "data", preview: "true" });
    const codeMd = readFileSync(join(out, "code.md"), "utf8");
    const dataMd = readFileSync(join(out, "data.md"), "utf8");
    expect(codeMd).toContain(`- \`src/<U+${hex}>stx.exe.ts\` is outside guardrails/ (code or configuration)`);
    expect(dataMd).toContain(`left as the base has them: \`guardrails/docs/a<U+${hex}>b.md\``);
    for (const md of [codeMd, dataMd]) expect(md).not.toMatch(INVISIBLE);
    repo.remove();
  });
});

describe("a data-only PR with 1,990 ignored paths", () => {
  const calls = new GitCalls();
  let repo: GitRepo;
  let r: ReturnType<GitRepo["ci"]>;
  let comment: string;
  beforeAll(() => {
    const docs = Object.fromEntries(
      Array.from({ length: 1990 }, (_, i) => [`guardrails/docs/page-${String(i).padStart(4, "0")}.md`, `page ${i}\n`]),
    );
    repo = GitRepo.init(BASE).branch("pr", { ...docs, "guardrails/eng.yaml": EDITED });
    r = repo.ci(["preview", "--base", "main", "--head", "pr", "--comment", join(out, "comment.md")], {
      env: calls.env,
    });
    comment = readFileSync(join(out, "comment.md"), "utf8");
  }, 300_000);
  afterAll(() => {
    repo?.remove();
    calls.remove();
  });

  it("gets a bounded comment that says how many paths it left out", () => {
    expect(r.outputs, r.stderr).toEqual({ mode: "data", preview: "true" });
    // GitHub refuses a comment over 65,536 characters; this one shares it with the preview's summary.
    expect(comment.length).toBeLessThanOrEqual(12_000);
    const listed = comment.match(/`guardrails\/docs\/page-\d{4}\.md`/g)!;
    expect(listed.length).toBeGreaterThan(0);
    expect(comment).toContain(`\`guardrails/docs/page-0000.md\``);
    expect(comment).toContain(` … and ${(1990 - listed.length).toLocaleString("en-US")} more ignored paths.`);
    expect(readFileSync(join(repo.dir, "guardrails/eng.yaml"), "utf8")).toBe(EDITED);
  });

  it("sizes all 1,991 blobs in one git process and reads the one data file in one more", () => {
    const catFile = calls.take().filter((c) => c.startsWith("cat-file"));
    expect(catFile).toEqual(["cat-file --batch-check", "cat-file --batch"]);
  });
});

describe("git processes do not grow with the paths of a PR", () => {
  const calls = new GitCalls();
  let repo: GitRepo;
  afterAll(() => {
    repo?.remove();
    calls.remove();
  });

  it("over the 2,000-path cap: refused by the count alone, nothing sized", () => {
    repo = GitRepo.init(BASE).branch(
      "pr",
      Object.fromEntries(Array.from({ length: 2001 }, (_, i) => [`lib/m${i}.ts`, `export const m${i} = ${i};\n`])),
    );
    const r = repo.ci(["preview", "--base", "main", "--head", "pr", "--comment", join(out, "c.md")], {
      env: calls.env,
    });
    expect(r.outputs, r.stderr).toEqual({ mode: "code", preview: "false" });
    expect(r.stderr).toContain('blocks the preview: "(the whole pull request)" changes 2001 paths, more than 2000');
    const all = calls.take();
    expect(all.filter((c) => c.startsWith("cat-file"))).toEqual([]);
    expect(all).toHaveLength(6); // rev-parse of base, head and HEAD; merge-base; two diffs
    repo.remove();
  }, 300_000);

  it("300 data files (some identical, one empty, one without a final newline) are sized in one process, read 64 files per process, and written byte for byte", () => {
    const files = Object.fromEntries(
      Array.from({ length: 300 }, (_, i) => [
        `guardrails/g${i}.yaml`,
        i % 7 === 0 ? "guardrails: {}\n" : `guardrails:\n  g${i}:\n    name: G${i}\n`,
      ]),
    );
    files["guardrails/g1.yaml"] = "";
    files["guardrails/g2.yaml"] = "guardrails: {} # no newline";
    repo = GitRepo.init(BASE).branch("pr", files);
    const r = repo.ci(["preview", "--base", "main", "--head", "pr"], { env: calls.env });
    expect(r.outputs, r.stderr).toEqual({ mode: "data", preview: "true" });
    for (const [path, text] of Object.entries(files)) expect(readFileSync(join(repo.dir, path), "utf8")).toBe(text);
    const catFile = calls.take().filter((c) => c.startsWith("cat-file"));
    expect(catFile).toEqual([
      "cat-file --batch-check",
      ...Array.from({ length: Math.ceil(300 / 64) }, () => "cat-file --batch"),
    ]);
  }, 300_000);
});
