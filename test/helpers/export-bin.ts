/** The built bins (`guardrails-export`, `guardrails-access`), run as a user runs them, against an emulator. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { TEST_KEY } from "./emulator";
import { REPO_ROOT } from "./spawn-emulator";

export const EXPORT_BIN = join(REPO_ROOT, "dist/tools/export/cli.js");
export const ACCESS_BIN = join(REPO_ROOT, "dist/tools/access/cli.js");

/** What a run of the bin printed, and its exit code (-1 when a signal ended it). */
export interface BinRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A runner of the bin with `args` in `cwd`. Its env holds only PATH, the test key and the
 * emulator's URL (read at each run); `env` adds to it, and an undefined value takes one away.
 */
export function exportBin(emu: { url: string }, bin = EXPORT_BIN) {
  return (args: string[], cwd: string, env: Record<string, string | undefined> = {}) =>
    new Promise<BinRun>((resolve) => {
      const all = { PATH: process.env.PATH, GUARDRAILS_API_KEY: TEST_KEY, GUARDRAILS_BASE_URL: emu.url, ...env };
      const defined = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
      const child = spawn(process.execPath, [bin, ...args], { cwd, env: defined });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d));
      child.stderr.on("data", (d: Buffer) => (stderr += d));
      child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    });
}
