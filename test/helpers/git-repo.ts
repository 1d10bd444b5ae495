/**
 * A throwaway git repository for the guardrails-ci tests: commit files on branches, then run
 * the real `git` and the real `guardrails-ci` against it, the way a workflow would.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "./spawn-emulator";

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
};

/** A file to commit: text, or `{ link }` for a symbolic link. */
export type Entry = string | { link: string };

export class GitRepo {
  private constructor(readonly dir: string) {}

  /** A new repository (in `dir`, or a temp folder) whose `main` branch holds `files`. */
  static init(files: Record<string, Entry | null>, dir = mkdtempSync(join(tmpdir(), "guardrails-ci-"))): GitRepo {
    const repo = new GitRepo(dir);
    repo.git("init", "-q", "-b", "main");
    repo.commit(files, "base");
    return repo;
  }

  git(...args: string[]): string {
    return this.raw(...args).trim();
  }

  private raw(...args: string[]): string {
    return execFileSync("git", args, { cwd: this.dir, env: GIT_ENV, encoding: "utf8" });
  }

  /** Writes (or with `null`, deletes) the files and commits them on the current branch. */
  commit(files: Record<string, Entry | null>, message: string): this {
    for (const [path, entry] of Object.entries(files)) {
      const abs = join(this.dir, path);
      rmSync(abs, { force: true });
      if (entry === null) continue;
      mkdirSync(dirname(abs), { recursive: true });
      if (typeof entry === "string") writeFileSync(abs, entry);
      else symlinkSync(entry.link, abs);
    }
    this.git("add", "-A");
    this.git("commit", "-q", "--allow-empty", "-m", message);
    return this;
  }

  /** A branch off `from` with one commit of `files`; leaves `from` checked out. */
  branch(name: string, files: Record<string, Entry | null>, from = "main"): this {
    this.git("checkout", "-q", "-b", name, from);
    this.commit(files, name);
    this.git("checkout", "-q", from);
    return this;
  }

  /** `git status --porcelain` lines: what differs from the checked-out commit. */
  status(): string[] {
    return this.raw("status", "--porcelain", "--untracked-files=all").split("\n").filter(Boolean).sort();
  }

  /** Runs the built `guardrails-ci` (or the one given) in the repository, with `env` added to the environment. */
  ci(
    args: string[],
    { bin = join(REPO_ROOT, "dist/tools/ci/cli.js"), env = {} }: { bin?: string; env?: Record<string, string> } = {},
  ) {
    const r = spawnSync(process.execPath, [bin, ...args], {
      cwd: this.dir,
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    return {
      code: r.status ?? -1,
      stdout: r.stdout,
      stderr: r.stderr,
      outputs: Object.fromEntries(
        r.stdout
          .split("\n")
          .filter((l) => l.includes("="))
          .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
      ),
    };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
