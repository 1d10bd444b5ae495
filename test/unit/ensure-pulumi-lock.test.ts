/**
 * scripts/ensure-pulumi and scripts/ensure-language-host build once when run twice at once
 * (issue 42: two runs each built the CLI, two identical `go build`s), and a run killed while it
 * holds the build lock does not wedge the next. The build is a stand-in: a fake `go` first on
 * PATH that logs each build, sleeps so the runs overlap, and writes scripts that answer
 * `version`; the cache is a temporary folder. Both ways of locking are run: flock, and the `ln -s`
 * lock for machines without flock (scripts/build-lock.sh).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const SCRIPTS = join(__dirname, "../../scripts");
const VERSION = "3.259.0";

/** The stand-in `go`: `mod tidy` and `list` do nothing; `build -o X` and `install` write X. */
const FAKE_GO = `#!/usr/bin/env bash
set -eu
case "$1" in
  build|install)
    out=""; ver=v0.0.0; prev=""
    for a in "$@"; do
      [ "$prev" = -o ] && out=$a
      case "$a" in *Version=*) ver=\${a##*Version=} ;; esac
      prev=$a
    done
    [ -n "$out" ] || out="$GOBIN/$(basename "\${@: -1}" | sed 's/@.*//')"
    echo "$1 $(basename "$out")" >>"$FAKE_GO_LOG"
    sleep "\${FAKE_GO_SLEEP:-2}"
    printf '#!/bin/sh\\necho %s\\n' "$ver" >"$out"
    chmod +x "$out"
    ;;
esac
`;

let work: string;
let log: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "ensure-lock-"));
  const bin = join(work, "fake-bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "go"), FAKE_GO);
  chmodSync(join(bin, "go"), 0o755);
  log = join(work, "go.log");
  writeFileSync(log, "");
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts a script with the fake `go` first on PATH, no `pulumi` on PATH, and its own cache. */
function start(args: string[], lockWay: "flock" | "link", extra: Record<string, string> = {}): Run {
  const env = {
    PATH: [join(work, "fake-bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
    HOME: work,
    TMPDIR: work,
    GUARDRAILS_PULUMI_CACHE: join(work, "cache"),
    GUARDRAILS_BUILD_LOCK: lockWay,
    FAKE_GO_LOG: log,
    ...extra,
  };
  const child = spawn(join(SCRIPTS, args[0] as string), args.slice(1), { env, detached: true });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d) => (stdout += d));
  child.stderr?.on("data", (d) => (stderr += d));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

const builds = () => readFileSync(log, "utf8").split("\n").filter(Boolean);

describe.each(["flock", "link"] as const)("the build lock (%s)", (way) => {
  it("two ensure-pulumi runs at once build the CLI once and print the same path", async () => {
    const [a, b] = [start(["ensure-pulumi", VERSION], way), start(["ensure-pulumi", VERSION], way)];
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(builds()).toEqual(["build pulumi", "build pulumi-language-nodejs"]);
    expect(ra.stdout).toBe(rb.stdout);
    expect(ra.stdout.trim()).toBe(join(work, "cache", `pulumi-v${VERSION}`, "bin", "pulumi"));
    expect(ra.stderr + rb.stderr).toContain("waiting for another run building pulumi v3.259.0");
  }, 60_000);

  it("two ensure-language-host runs at once build the host once", async () => {
    const [a, b] = [start(["ensure-language-host", "yaml"], way), start(["ensure-language-host", "yaml"], way)];
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(builds()).toEqual(["install pulumi-language-yaml"]);
    expect(ra.stdout).toBe(rb.stdout);
  }, 60_000);

  it("a run killed while it holds the lock does not wedge the next", async () => {
    const killed = start(["ensure-pulumi", VERSION], way, { FAKE_GO_SLEEP: "30" });
    // Wait until the first run is inside its build (it holds the lock), then kill its group.
    while (builds().length === 0) await new Promise((r) => setTimeout(r, 100));
    process.kill(-(killed.child.pid as number), "SIGKILL");
    await killed.done;
    const next = await start(["ensure-pulumi", VERSION], way).done;
    expect(next.code, next.stderr).toBe(0);
    expect(builds()).toEqual(["build pulumi", "build pulumi", "build pulumi-language-nodejs"]);
  }, 60_000);
});

it("a link lock left by a dead process is taken over", async () => {
  // A lock whose holder died before it could remove it (the pid of a process that has exited).
  const gone = spawn("true");
  await new Promise((r) => gone.on("close", r));
  mkdirSync(join(work, "cache"), { recursive: true });
  symlinkSync(String(gone.pid), join(work, "cache", `.build-pulumi-v${VERSION}.lock.pid`));
  const run = await start(["ensure-pulumi", VERSION], "link").done;
  expect(run.code, run.stderr).toBe(0);
  expect(builds()).toEqual(["build pulumi", "build pulumi-language-nodejs"]);
}, 60_000);

describe("the build lock refuses a lock path that is a symbolic link (issue 42's attack pass)", () => {
  it.each(["flock"])("%s: the file it points at is neither emptied nor taken as the lock", (way) => {
    const dir = mkdtempSync(join(tmpdir(), "lock-link-"));
    const victim = join(dir, "victim");
    writeFileSync(victim, "precious\n");
    const lock = join(dir, "cache/.build-pulumi.lock");
    mkdirSync(dirname(lock));
    symlinkSync(victim, lock);
    const script = `say() { echo "say: $*" >&2; }; die() { echo "die: $*" >&2; exit 1; }
      . ${JSON.stringify(join(SCRIPTS, "build-lock.sh"))}; take_build_lock "$1" "pulumi"; echo took`;
    const r = spawnSync("bash", ["-c", script, "bash", lock], {
      encoding: "utf8",
      env: { ...process.env, GUARDRAILS_BUILD_LOCK: way },
      timeout: 5000,
    });
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(r.stdout).toBe("");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("is a symbolic link");
  });
});
