/**
 * `guardrails-migrate-to-native`: one command that moves a stack from the dynamic face to the
 * native face with no call to the service. It runs the pulumi CLI three times over:
 * `pulumi stack export` (the plan comes from the state alone), `pulumi import --file` (one file
 * per protect flag; the provider's Read makes GET calls only) and `pulumi state delete` of the
 * dynamic resources (the sets first). Without `yes` it stops after `pulumi import --preview-only`.
 * Importing first means a failure leaves the dynamic resources in place; a second run skips
 * the twins already imported.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newSealKey, SEAL_ENV } from "../core/import-seal";
import { PACKAGE_TYPE_PREFIX } from "../core/type-tokens";
import { planMigration, StateMigrationError, stateResources, type MigrationPlan } from "./from-state";
import { secretArgsOf } from "./import-ids";
import { renderImportFile } from "./pulumi-import";
import { writeFiles } from "./write";
import { isInvisible } from "../core/text/controls";
import { idText, visible } from "../core/text/terminal";

/** How `migrateToNative` runs. */
export interface MigrateOptions {
  /** The stack (`--stack`). @default the current stack */
  stack?: string | undefined;
  /** The project folder pulumi runs in. @default the current folder */
  cwd?: string | undefined;
  /** Import and delete; without it, only previews. @default false */
  yes?: boolean;
  /** The pulumi executable. @default "pulumi" from PATH */
  pulumi?: string;
  /** Where progress lines go. */
  say: (line: string) => void;
}

/** A state id shown as is: a UUID, or a set's `<uuid>/members`. */
const PLAIN_ID = /^[\w.:/-]{1,200}$/;

/**
 * One argument of a command a person copies into a shell: as is when plain, else single-quoted;
 * one that holds an invisible character (a bidi control in a URN) in bash's `$'…'` quoting
 * with each such character as a `\u` escape, so the line shows every byte and still runs.
 */
function shellWord(a: string): string {
  if (/^[\w:./=-]+$/.test(a)) return a;
  if (![...a].some(isInvisible)) return `'${a.replaceAll("'", "'\\''")}'`;
  const escaped = [...a]
    .map((c) => {
      if (c === "\\" || c === "'") return `\\${c}`;
      if (!isInvisible(c)) return c;
      const cp = c.codePointAt(0)!;
      return cp > 0xffff ? `\\U${cp.toString(16).padStart(8, "0")}` : `\\u${cp.toString(16).padStart(4, "0")}`;
    })
    .join("");
  return `$'${escaped}'`;
}

/** A pulumi run: stdout captured when asked, else passed through with stderr. */
function runPulumi(
  o: MigrateOptions,
  args: string[],
  capture = false,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string }> {
  const all = [...args, ...(o.stack ? ["--stack", o.stack] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn(o.pulumi ?? "pulumi", all, {
      cwd: o.cwd,
      env: { ...process.env, ...env },
      stdio: ["inherit", capture ? "pipe" : "inherit", "inherit"],
    });
    let stdout = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d));
    child.on("error", (err) => reject(new StateMigrationError(`cannot run pulumi: ${err.message}`, { cause: err })));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout }));
  });
}

async function must(o: MigrateOptions, args: string[], capture = false, env?: Record<string, string>): Promise<string> {
  const r = await runPulumi(o, args, capture, env);
  if (r.code !== 0)
    throw new StateMigrationError(`pulumi ${args[0]} ${args[1] ?? ""} failed (exit ${r.code}); see above`);
  return r.stdout;
}

async function exported(o: MigrateOptions, showSecrets: boolean): Promise<unknown> {
  const text = await must(o, ["stack", "export", ...(showSecrets ? ["--show-secrets"] : [])], true);
  try {
    return JSON.parse(text);
  } catch {
    throw new StateMigrationError("pulumi stack export printed no JSON");
  }
}

/**
 * The plan of the stack's migration, read from `pulumi stack export`, and the key that seals
 * what its import ids carry of secrets (`sealKey`, set only when a resource that moves holds
 * a secret: then the state is read a second time with `--show-secrets`, in memory only).
 */
export async function planFromStack(o: MigrateOptions): Promise<MigrationPlan & { sealKey?: string }> {
  const state = await exported(o, false);
  const secret = stateResources(state).some(
    (r) => r.type.startsWith(PACKAGE_TYPE_PREFIX) && secretArgsOf(r).length > 0,
  );
  if (!secret) return planMigration(state);
  const sealKey = newSealKey();
  return { ...planMigration(state, { state: await exported(o, true), sealKey }), sealKey };
}

/**
 * Moves the stack's dynamic guardrails and sets to the native face (see the file's comment).
 *
 * @returns the exit code: 0 when done (or previewed), else pulumi's failure was said.
 */
export async function migrateToNative(o: MigrateOptions): Promise<number> {
  const plan = await planFromStack(o);
  for (const s of plan.skipped) o.say(`left on the dynamic face: ${s}`);
  if (plan.moves.length === 0) {
    o.say("no dynamic guardrails resource in the stack; nothing to migrate");
    return 0;
  }
  // A state's names and ids may hold bidi and zero-width characters: shown neutralised (text/terminal.ts).
  for (const m of plan.moves)
    o.say(
      `${m.imported ? "imported already" : "import"}: ${visible(m.name, 200)} (${m.nativeType}) id ${PLAIN_ID.test(m.id) ? m.id : idText(m.id)}`,
    );
  const dir = mkdtempSync(join(tmpdir(), "guardrails-migrate-"));
  try {
    const files = plan.imports.map((i) => ({
      protect: i.protect,
      path: writeFiles(dir, [
        { fileName: `import-${i.protect ? "protected" : "unprotected"}.json`, text: renderImportFile(i.file) },
      ])[0]!,
    }));
    for (const f of files) {
      const base = ["import", "--file", f.path, `--protect=${f.protect}`, "--generate-code=false"];
      // The plugin opens the sealed part of an import id with the run's key (core/import-seal.ts).
      const env = plan.sealKey ? { [SEAL_ENV]: plan.sealKey } : {};
      await must(o, o.yes ? [...base, "--yes", "--skip-preview"] : [...base, "--preview-only"], false, env);
    }
    for (const d of plan.deletes) {
      const args = ["state", "delete", ...d.urns, "--yes", ...(d.force ? ["--force"] : [])];
      if (o.yes) await must(o, args);
      else o.say(`then: pulumi ${args.map(shellWord).join(" ")}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  o.say(
    o.yes
      ? `moved ${plan.moves.length} resource(s) to the native face; switch the program to the native classes (same names), then pulumi preview shows no change`
      : "preview only: nothing changed; rerun with --yes to import and drop the dynamic resources from the state",
  );
  return 0;
}
