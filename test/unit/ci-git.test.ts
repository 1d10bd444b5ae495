/**
 * `guardrails-ci preview` on temp git repositories, run as the built binary the workflow calls:
 * a YAML-only PR versus PRs that touch index.ts, package.json, the lockfile or Pulumi*.yaml, and
 * tricks (a symlink in the data folder, a rename, a non-regular data file). Checks which files
 * ended up taken from where and whether the key would have been exposed.
 */
import { chmodSync, lstatSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseRawDiff } from "../../tools/ci/git";
import { GitRepo } from "../helpers/git-repo";

const BASE = {
  "index.ts": 'import { declareGuardrails } from "pulumi-guardrails";\ndeclareGuardrails("guardrails");\n',
  "package.json": '{"name":"x"}\n',
  "package-lock.json": '{"lockfileVersion":3}\n',
  "Pulumi.yaml": "name: x\nruntime: nodejs\n",
  "Pulumi.prod.yaml": "config:\n  guardrails:baseUrl: https://api.example\n",
  "guardrails/eng.yaml": "guardrails:\n  eng:\n    name: Eng\n    limitUsd: 500\n",
  "guardrails/ops.yaml": "guardrails:\n  ops:\n    name: Ops\n",
};
const EDITED = "guardrails:\n  eng:\n    name: Eng\n    limitUsd: 750\n";

let repo: GitRepo;
afterEach(() => repo?.remove());

describe("guardrails-ci preview on a temp repository", () => {
  it("a YAML-only PR: the data files come from the head, everything else stays the base's, and the key may be used", () => {
    repo = GitRepo.init(BASE).branch("pr", {
      "guardrails/eng.yaml": EDITED,
      "guardrails/new.yaml": "guardrails: {}\n",
      "guardrails/ops.yaml": null,
    });
    const r = repo.ci(["preview", "--base", "main", "--head", "pr", "--comment", "../comment.md"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.outputs).toEqual({ mode: "data", preview: "true" });
    expect(repo.status()).toEqual([" D guardrails/ops.yaml", " M guardrails/eng.yaml", "?? guardrails/new.yaml"]);
    expect(readFileSync(join(repo.dir, "guardrails/eng.yaml"), "utf8")).toBe(EDITED);
    expect(r.stderr).toContain("guardrails-ci: from head: guardrails/eng.yaml");
  });

  it.each(["index.ts", "package.json", "package-lock.json", "Pulumi.prod.yaml"])(
    "a PR that also changes %s: not previewed with the key, and nothing is written",
    (file) => {
      repo = GitRepo.init(BASE).branch("pr", {
        "guardrails/eng.yaml": EDITED,
        [file]: "console.log(process.env.GUARDRAILS_API_KEY)\n",
      });
      const r = repo.ci(["preview", "--base", "main", "--head", "pr"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.outputs).toEqual({ mode: "code", preview: "false" });
      expect(repo.status()).toEqual([]);
      expect(r.stderr).toContain(`blocks the preview: "${file}" is outside guardrails/ (code or configuration)`);
    },
  );

  it("a symlink added in the data folder (to a file outside it) blocks the preview and is never written", () => {
    repo = GitRepo.init(BASE).branch("pr", {
      "guardrails/eng.yaml": EDITED,
      "guardrails/leak.yaml": { link: "../Pulumi.prod.yaml" },
    });
    const r = repo.ci(["preview", "--base", "main", "--head", "pr"]);
    expect(r.outputs).toEqual({ mode: "code", preview: "false" });
    expect(r.stderr).toContain('"guardrails/leak.yaml" is a symbolic link');
    expect(repo.status()).toEqual([]);
  });

  it("a data file made executable is written as a plain 0644 file", () => {
    repo = GitRepo.init(BASE);
    repo.git("checkout", "-q", "-b", "pr");
    repo.commit({ "guardrails/eng.yaml": EDITED }, "edit");
    chmodSync(join(repo.dir, "guardrails/eng.yaml"), 0o755);
    repo.commit({}, "chmod +x");
    expect(repo.git("ls-tree", "pr", "guardrails/eng.yaml")).toMatch(/^100755 /);
    repo.git("checkout", "-q", "main");
    expect(repo.ci(["preview", "--base", "main", "--head", "pr"]).outputs.preview).toBe("true");
    expect(statSync(join(repo.dir, "guardrails/eng.yaml")).mode & 0o777).toBe(0o644);
  });

  it("renames: within the data folder they are data; index.ts renamed into it blocks", () => {
    repo = GitRepo.init(BASE)
      .branch("inside", { "guardrails/ops.yaml": null, "guardrails/operations.yaml": BASE["guardrails/ops.yaml"] })
      .branch("from-outside", { "index.ts": null, "guardrails/index.yaml": BASE["index.ts"] });
    expect(repo.ci(["preview", "--base", "main", "--head", "inside"]).outputs).toEqual({
      mode: "data",
      preview: "true",
    });
    expect(repo.status()).toEqual([" D guardrails/ops.yaml", "?? guardrails/operations.yaml"]);
    repo.git("checkout", "-q", "--", ".");
    repo.git("clean", "-qfd");
    const r = repo.ci(["preview", "--base", "main", "--head", "from-outside"]);
    expect(r.outputs).toEqual({ mode: "code", preview: "false" });
    expect(r.stderr).toContain('"index.ts" is outside guardrails/');
  });

  it("a data folder that is a symlink in the working tree is never written through", () => {
    repo = GitRepo.init({
      ...BASE,
      "guardrails/eng.yaml": null,
      "guardrails/ops.yaml": null,
      "elsewhere/keep.txt": "x\n",
    });
    repo.branch("pr", { "guardrails/eng.yaml": EDITED });
    symlinkSync("elsewhere", join(repo.dir, "guardrails"));
    const r = repo.ci(["preview", "--base", "main", "--head", "pr"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "guardrails is a symbolic link in the working tree; refusing to write guardrails/eng.yaml through it",
    );
    expect(() => lstatSync(join(repo.dir, "elsewhere/eng.yaml"))).toThrow();
  });

  it("refuses to run unless the base is checked out, and says why", () => {
    repo = GitRepo.init(BASE).branch("pr", { "guardrails/eng.yaml": EDITED });
    repo.git("checkout", "-q", "pr");
    const r = repo.ci(["preview", "--base", "main", "--head", "pr"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /the working tree is at [0-9a-f]{40}, not at the base [0-9a-f]{40}; check out the base first/,
    );
  });

  it("a file both sides changed since the branch point is previewed in the PR's version and flagged", () => {
    repo = GitRepo.init(BASE).branch("pr", { "guardrails/eng.yaml": EDITED });
    repo.commit({ "guardrails/eng.yaml": "guardrails:\n  eng:\n    name: Engineering\n" }, "base moves on");
    const r = repo.ci(["preview", "--base", "main", "--head", "pr", "--comment", "../c.md"]);
    expect(r.outputs.preview).toBe("true");
    expect(r.stderr).toContain("also changed on the base: guardrails/eng.yaml");
    expect(readFileSync(join(repo.dir, "../c.md"), "utf8")).toContain(
      "The base branch also changed `guardrails/eng.yaml`",
    );
  });

  it("bad usage: a missing flag and a ref starting with '-' exit 2 with the usage", () => {
    repo = GitRepo.init(BASE);
    expect(repo.ci(["preview", "--base", "main"])).toMatchObject({ code: 2, stdout: "" });
    expect(repo.ci(["preview", "--base=--upload-pack=x", "--head", "main"]).stderr).toContain(
      'ref "--upload-pack=x" starts with "-"',
    );
    expect(repo.ci(["nope"]).stderr).toContain('unknown command "nope"');
  });
});

describe("parseRawDiff", () => {
  it("reads modes, blobs, status and paths with any bytes, and refuses what it does not know", () => {
    const out = `:100644 120000 ${"1".repeat(40)} ${"2".repeat(40)} T\0guardrails/a b\n.yaml\0:000000 100644 ${"0".repeat(40)} ${"3".repeat(40)} A\0x\0`;
    expect(parseRawDiff(out)).toEqual([
      { status: "T", path: "guardrails/a b\n.yaml", newMode: "120000", newBlob: "2".repeat(40) },
      { status: "A", path: "x", newMode: "100644", newBlob: "3".repeat(40) },
    ]);
    expect(() => parseRawDiff("garbage\0x\0")).toThrow('unexpected line from git diff --raw: "garbage"');
  });
});
