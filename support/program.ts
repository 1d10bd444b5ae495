/**
 * A Pulumi program in a temp dir, driven by the real CLI with a local file backend, against
 * its own emulator process.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type HttpCall, http, spawnEmulator, type SpawnedEmulator } from "./spawn-emulator";

/** Where the CLI and the installed template program are (see pulumi-template.ts). */
export interface PulumiContext {
  pulumiBinDir: string;
  template: string;
  work: string;
}

export const PASSPHRASE = "e2e-passphrase";

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  output: string;
}

export class Program {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Everything every pulumi command printed, for the secret-leak check in `close()`. */
  private transcript = "";

  private constructor(
    readonly emulator: SpawnedEmulator,
    readonly apiKey: string,
    name: string,
    context: PulumiContext,
  ) {
    const { pulumiBinDir, template, work } = context;
    this.dir = mkdtempSync(join(work, `${name}-`));
    mkdirSync(join(this.dir, ".state"));
    symlinkSync(join(template, "node_modules"), join(this.dir, "node_modules"), "dir");
    writeFileSync(
      join(this.dir, "Pulumi.yaml"),
      `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
    );
    writeFileSync(join(this.dir, "package.json"), JSON.stringify({ name, main: "index.ts", private: true }));
    writeFileSync(
      join(this.dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "commonjs",
          moduleResolution: "node",
          skipLibCheck: true,
        },
        files: ["index.ts"],
      }),
    );
    this.env = {
      ...process.env,
      PATH: `${pulumiBinDir}:${process.env.PATH}`,
      PULUMI_HOME: join(work, "pulumi-home"),
      PULUMI_BACKEND_URL: `file://${join(this.dir, ".state")}`,
      PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "1",
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      NO_COLOR: "1",
      GUARDRAILS_API_KEY: "",
      GUARDRAILS_BASE_URL: "",
      // Each program journals its creates in its own folder, never in the user's home.
      GUARDRAILS_JOURNAL_DIR: join(this.dir, ".journal"),
    };
  }

  /**
   * A program with its own emulator (extra CLI flags allowed) and an initialised stack.
   * The key goes in GUARDRAILS_API_KEY (`keyVia: "env"`, the way that keeps it out of state)
   * or in the stack config `guardrails:apiKey`.
   */
  static async create(
    context: PulumiContext,
    name: string,
    options: { emulatorArgs?: string[]; keyVia?: "env" | "config" } = {},
  ): Promise<Program> {
    const apiKey = `e2e-key-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    const emulator = await spawnEmulator(["--management-key", apiKey, ...(options.emulatorArgs ?? [])]);
    const program = new Program(emulator, apiKey, name, context);
    await program.pulumi(["stack", "init", "dev"], { check: true });
    await program.pulumi(["config", "set", "guardrails:baseUrl", emulator.url], { check: true });
    if ((options.keyVia ?? "env") === "env") program.env.GUARDRAILS_API_KEY = apiKey;
    else await program.pulumi(["config", "set", "--secret", "guardrails:apiKey", apiKey], { check: true });
    return program;
  }

  write(indexTs: string): this {
    writeFileSync(join(this.dir, "index.ts"), indexTs);
    return this;
  }

  async pulumi(args: string[], options: { check?: boolean } = {}): Promise<RunResult> {
    const child = spawn("pulumi", [...args, "--non-interactive"], {
      cwd: this.dir,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
      output += d;
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
      output += d;
    });
    const code = await new Promise<number>((r) => child.on("close", (c) => r(c ?? -1)));
    // `--show-secrets` asks for secrets on purpose; everything else must never show the key.
    if (!args.includes("--show-secrets")) this.transcript += output;
    if (options.check && code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${code}:\n${output}${this.emulatorInternalErrors()}`);
    return { code, stdout, stderr, output };
  }

  /**
   * The emulator's own exceptions so far (it answers them `500 internal error` and writes the
   * stack to its stderr), for the message of a failed command: an emulator bug then shows its
   * cause instead of only the client's retries. Empty when there were none; bounded.
   */
  private emulatorInternalErrors(): string {
    const lines = this.emulator.output().split("\n");
    const start = lines.findIndex((l) => l.startsWith("emulator: "));
    if (start < 0) return "";
    return `\n--- the emulator's stderr from its first exception ---\n${lines.slice(start, start + 40).join("\n")}`;
  }

  up = (...extra: string[]) => this.pulumi(["up", "--yes", "--skip-preview", ...extra], { check: true });
  preview = (...extra: string[]) => this.pulumi(["preview", "--diff", ...extra]);
  refresh = (...extra: string[]) => this.pulumi(["refresh", "--yes", "--skip-preview", ...extra], { check: true });
  destroy = () => this.pulumi(["destroy", "--yes", "--skip-preview"], { check: true });

  async outputs(): Promise<Record<string, any>> {
    return JSON.parse((await this.pulumi(["stack", "output", "--json"], { check: true })).stdout);
  }

  async exportState(showSecrets = false): Promise<{ text: string; json: any }> {
    const res = await this.pulumi(["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])], { check: true });
    return { text: res.stdout, json: JSON.parse(res.stdout) };
  }

  /** The emulator's API as the admin of the organization would use it by hand. */
  get api(): HttpCall {
    return http(this.emulator.api, this.apiKey);
  }

  async log() {
    return (await http(this.emulator.url)("GET", "/__emulator/log")).body as {
      total: number;
      writes: number;
      counts: Record<string, number>;
      entries: Array<{ method: string; operation: string; query: string; status: number }>;
    };
  }

  async clearLog() {
    await http(this.emulator.url)("DELETE", "/__emulator/log");
  }

  /** Changes the emulator's fault settings (camelCase, as `PUT /__emulator/faults`). */
  async setFaults(faults: Record<string, unknown>) {
    const res = await http(this.emulator.url)("PUT", "/__emulator/faults", faults);
    if (res.status !== 200) throw new Error(`setting faults failed: ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** Stops the emulator, then checks that no CLI output and no emulator log held the key. */
  async close(): Promise<void> {
    await this.emulator.stop();
    if (this.transcript.includes(this.apiKey)) throw new Error("the API key appeared in pulumi's output");
    if (this.emulator.output().includes(this.apiKey)) throw new Error("the API key appeared in the emulator's log");
    if (this.transcript.length === 0) throw new Error("no pulumi command ran");
  }
}
