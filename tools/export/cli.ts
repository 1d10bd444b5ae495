#!/usr/bin/env node
/**
 * `guardrails-export [dir]`: writes the organization's guardrails, with their members and
 * keys, as declarative YAML files that `declareGuardrails(dir)` adopts with no change.
 * Key and URL from GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL, as the provider.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  exportGuardrails,
  exportPoliciesProgram,
  failureText,
  isPolicyFile,
  planMigration,
  redact,
  renderImportFile,
  isProgramLanguage,
  PROGRAM_LANGUAGES,
  renderProgram,
  type PackageSchema,
  shown,
  StateMigrationError,
  writeExport,
  writeImportFile,
  type PulumiImportFile,
} from "../../src/export";

/**
 * Every line for stderr, with the API key masked: a key pasted into the wrong place (the base
 * URL, a number setting, --only, a folder) comes back in the message that refuses it.
 */
const say = (text: string) => process.stderr.write(redact(text, process.env.GUARDRAILS_API_KEY));

const USAGE = `usage: guardrails-export [dir] [options]

Writes one YAML file per guardrail into dir (default: guardrails), in the format
declareGuardrails reads, with adoptId, so the first pulumi up adopts them unchanged, and
_workspace-defaults.yaml with the configured default guardrail of each exported workspace.
Reads GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL. Makes no write call.

  --workspace <uuid>     a workspace to export (repeatable; default: the default workspace,
                         with the guardrails older than workspaces)
  --all-workspaces       every workspace the service lists (not with --workspace)
  --only <name-or-id>    only this guardrail (repeatable); says so when another workspace has it
  --exclude <name-or-id> leave this guardrail out (repeatable)
  --exclusive            member and key sets own the whole current sets
                         (default: additive sets, which never remove anyone)
  --policies             also export Guardrail Policies: each listed workspace's budget, model
                         access and moderation policies, and the workspace-wide ones, into
                         _policies.yaml and the import file (they have no adoptId: import them
                         with pulumi import --file before the first up). Policies that still
                         follow a guardrail are exported as that guardrail
  --stdout               print every guardrail as one file instead of writing files
  --force                overwrite existing files (without it, nothing is written if any exists);
                         a symbolic link is never written through, with or without --force
  --pulumi-import-file <path>
                         write, instead of the YAML files, the file \`pulumi import --file <path>\`
                         takes for the native provider: each guardrail (guardrails:index:Guardrail,
                         named by its stable id) and its member and key sets (<id>-members,
                         <id>-keys), and each configured workspace default
                         (workspace-default.<workspace id>); - prints it. With --all-workspaces: the whole organization
  --from-state <file>    with --pulumi-import-file: read no service; import instead the dynamic
                         resources of a stack's \`pulumi stack export\` (- for stdin) under their
                         native types, same names and ids (guardrails-migrate-to-native runs it all)
  --language <language>  with --from-state <file> (a native stack's \`pulumi stack export\`, after
                         \`pulumi import\`): print the program of its resources in typescript (or
                         ts), python, go or yaml (its \`resources:\` section), with the args the
                         import recorded and protect as in the state, for where
                         \`pulumi import --generate-code\` cannot write it. A secret arg needs
                         \`pulumi stack export --show-secrets\`
  --policies-program <path>
                         write, instead of the YAML files, the Pulumi program (TypeScript) of steps 1
                         and 2 of the move to Guardrail Policies (docs/guides/moving-to-policies.md):
                         each guardrail as the policies of the kinds it sets, with its members and
                         keys, and each workspace default guardrail as default policies; - prints it
`;

/** A file name of the folder (anyone's clone may hold any): as is when printable ASCII, else quoted and escaped. */
const fileShown = (f: string) => (/^[\x20-\x7e]+$/.test(f) ? f : shown(f));

const OPTIONS = {
  workspace: { type: "string", multiple: true },
  "all-workspaces": { type: "boolean" },
  only: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  exclusive: { type: "boolean" },
  policies: { type: "boolean" },
  stdout: { type: "boolean" },
  force: { type: "boolean" },
  "pulumi-import-file": { type: "string" },
  "from-state": { type: "string" },
  "policies-program": { type: "string" },
  language: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: OPTIONS,
    });
  } catch (err) {
    say(`guardrails-export: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (positionals.length > 1) {
    say(
      `guardrails-export: expected at most one folder, got ${positionals.map((p) => JSON.stringify(p)).join(" ")}\n\n${USAGE}`,
    );
    return 2;
  }
  if (values.stdout && positionals.length > 0) {
    say(`guardrails-export: --stdout writes no folder; drop ${JSON.stringify(positionals[0])} or --stdout\n`);
    return 2;
  }
  if (values["all-workspaces"] && values.workspace) {
    say(`guardrails-export: --all-workspaces reads every workspace; drop --workspace, or --all-workspaces\n\n${USAGE}`);
    return 2;
  }
  if (values["policies-program"] !== undefined) return policiesProgram(values["policies-program"], values, positionals);
  if (values.language !== undefined) return program(values.language, values, positionals);
  const importFile = values["pulumi-import-file"];
  const problem = importFileProblem(values, positionals);
  if (problem) {
    say(`guardrails-export: ${problem}\n\n${USAGE}`);
    return 2;
  }
  if (values["from-state"] !== undefined)
    return writeImport(importFile!, fromState(values["from-state"]), values.force);
  const dir = positionals[0] ?? "guardrails";
  const schemaFile = resolve("node_modules/pulumi-guardrails/schema/guardrails.schema.json");
  const result = await exportGuardrails({
    workspaces: values.workspace ?? [],
    allWorkspaces: values["all-workspaces"] ?? false,
    only: values.only ?? [],
    exclude: values.exclude ?? [],
    exclusive: values.exclusive ?? false,
    policies: values.policies ?? false,
    schemaRef: relative(values.stdout ? process.cwd() : resolve(dir), schemaFile),
  });
  for (const w of result.warnings) say(`warning: ${w}\n`);
  for (const n of result.notes) say(`note: ${n}\n`);
  if (importFile !== undefined) return writeImport(importFile, result.pulumiImport, values.force);
  if (values.stdout) {
    process.stdout.write(result.combined);
    return 0;
  }
  return writeFolder(dir, result, values.force ?? false);
}

/** Writes the guardrails' files and the workspace defaults' file into `dir`, and says what it wrote. */
function writeFolder(dir: string, result: Awaited<ReturnType<typeof exportGuardrails>>, force: boolean): number {
  const files = [
    ...result.files,
    ...(result.workspaceDefaults ? [result.workspaceDefaults] : []),
    ...(result.policies ? [result.policies] : []),
  ];
  if (files.length === 0) {
    say("guardrails-export: no guardrails to export; nothing written\n");
    return 0;
  }
  // Only a real folder is listed: anything else is for writeExport to refuse, naming it.
  const others = lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(dir)
        .filter((f) => /\.(ya?ml|json)$/i.test(f) && !isPolicyFile(f))
        .filter((f: string) => !files.some((r) => r.fileName === basename(f)))
    : [];
  const written = writeExport(dir, files, { force });
  const shown = relative(process.cwd(), resolve(dir)) || ".";
  const defaults = result.workspaceDefaults
    ? `, ${result.workspaceDefaults.workspaceIds.length} workspace default(s) in ${result.workspaceDefaults.fileName}`
    : "";
  say(
    `guardrails-export: wrote ${written.length} file(s) to ${shown}/ (${result.files.length} guardrail(s)${defaults}${result.policies ? `, policies in ${result.policies.fileName}` : ""})\n`,
  );
  if (others.length > 0) {
    say(
      `note: ${shown}/ also holds ${others.map((f: string) => fileShown(basename(f))).join(", ")}, which declareGuardrails("${shown}") loads too\n`,
    );
  }
  return 0;
}

/** Why --pulumi-import-file and --from-state cannot run with these options, if they cannot. */
function importFileProblem(values: Record<string, unknown>, positionals: string[]): string | undefined {
  const importFile = values["pulumi-import-file"];
  if (values["from-state"] === undefined && importFile === undefined) return undefined;
  if (importFile === undefined) return "--from-state needs --pulumi-import-file <path>";
  const clash = [...positionals.slice(0, 1).map((d) => JSON.stringify(d)), ...(values.stdout ? ["--stdout"] : [])];
  if (clash.length > 0) return `--pulumi-import-file writes no YAML; drop ${clash.join(" and ")}`;
  const selection = ["workspace", "all-workspaces", "only", "exclude", "exclusive", "policies"].filter(
    (o) => values[o] !== undefined,
  );
  if (values["from-state"] !== undefined && selection.length > 0)
    return `--from-state reads the stack's state, not the service; drop --${selection.join(", --")}`;
  return undefined;
}

/** The import file of a stack's dynamic resources (every protect flag in one file), with the deletes to run after. */
function fromState(source: string): PulumiImportFile {
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(source === "-" ? 0 : source, "utf8"));
  } catch (err) {
    throw new StateMigrationError(`--from-state ${JSON.stringify(source)}: ${(err as Error).message}`);
  }
  const plan = planMigration(state);
  for (const s of plan.skipped) say(`note: left on the dynamic face: ${s}\n`);
  const protectedOnes = plan.moves.filter((m) => m.protect && !m.imported).map((m) => m.name);
  if (protectedOnes.length > 0)
    say(
      `note: protected in the state: ${protectedOnes.join(", ")}; pulumi import protects every resource unless --protect=false\n`,
    );
  for (const d of plan.deletes)
    say(
      `note: then: pulumi state delete --yes${d.force ? " --force" : ""} ${d.urns.map((u) => `'${u.replaceAll("'", "'\\''")}'`).join(" ")}\n`,
    );
  const nameTable = Object.assign({}, ...plan.imports.map((i) => i.file.nameTable ?? {})) as Record<string, string>;
  return { nameTable, resources: plan.imports.flatMap((i) => i.file.resources) };
}

/** Writes the import file at `path` (never through a link), or prints it for `-`. */
function writeImport(path: string, file: PulumiImportFile, force = false): number {
  if (path === "-") process.stdout.write(renderImportFile(file));
  else {
    writeImportFile(path, file, { force });
    say(`guardrails-export: wrote ${path} (${file.resources.length} resource(s)); run: pulumi import --file ${path}\n`);
  }
  return 0;
}

/** The package schema, as the provider serves it, read from the package's own copy. */
const packageSchema = (): PackageSchema =>
  JSON.parse(readFileSync(resolve(__dirname, "../../src/native/schema.json"), "utf8")) as PackageSchema;

/** `--from-state <file> --language <language>`: the program of a native stack's resources, printed. */
function program(language: string, values: Record<string, unknown>, positionals: string[]): number {
  if (!isProgramLanguage(language)) {
    say(`guardrails-export: --language takes ${Object.keys(PROGRAM_LANGUAGES).join(", ")} (got ${shown(language)})\n`);
    return 2;
  }
  const source = values["from-state"];
  const clash = [
    ...positionals.slice(0, 1).map((d) => JSON.stringify(d)),
    ...Object.keys(values)
      .filter((o) => !["language", "from-state"].includes(o) && values[o] !== undefined)
      .map((o) => `--${o}`),
  ];
  if (typeof source !== "string" || clash.length > 0) {
    say(
      `guardrails-export: --language ${language} reads a stack's state: give --from-state <file>${clash.length > 0 ? `, and drop ${clash.join(" and ")}` : ""}\n\n${USAGE}`,
    );
    return 2;
  }
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(source === "-" ? 0 : source, "utf8"));
  } catch (err) {
    throw new StateMigrationError(`--from-state ${JSON.stringify(source)}: ${(err as Error).message}`);
  }
  const { text, notes } = renderProgram(language, state, packageSchema());
  for (const n of notes) say(`note: ${n}\n`);
  process.stdout.write(text);
  return 0;
}

/** `--policies-program <path>`: the move's program, from the service, written (or printed with -). */
async function policiesProgram(path: string, values: Record<string, unknown>, positionals: string[]): Promise<number> {
  const clash = [
    ...positionals.slice(0, 1).map((d) => JSON.stringify(d)),
    ...["stdout", "exclusive", "pulumi-import-file", "from-state"]
      .filter((o) => values[o] !== undefined)
      .map((o) => `--${o}`),
  ];
  if (clash.length > 0) {
    say(`guardrails-export: --policies-program writes one program; drop ${clash.join(" and ")}\n\n${USAGE}`);
    return 2;
  }
  const { move, text } = await exportPoliciesProgram({
    workspaces: (values.workspace as string[] | undefined) ?? [],
    allWorkspaces: (values["all-workspaces"] as boolean | undefined) ?? false,
    only: (values.only as string[] | undefined) ?? [],
    exclude: (values.exclude as string[] | undefined) ?? [],
  });
  for (const n of move.notes) say(`note: ${n}\n`);
  if (path === "-") process.stdout.write(text);
  else {
    writeExport(dirname(path), [{ fileName: basename(path), text }], { force: values.force === true });
    say(
      `guardrails-export: wrote ${path} (${move.policies.length} policy(ies) of ${move.guardrails.length} guardrail(s), ${move.defaults.length} default policy(ies)); see docs/guides/moving-to-policies.md\n`,
    );
  }
  return 0;
}

// exitCode, not exit(): a large --stdout export must drain into its pipe first.
main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    // An expected failure is one line; a bug keeps its stack trace (key masked), so that it can be reported.
    say(`guardrails-export: ${failureText(err)}\n`);
    process.exitCode = 1;
  },
);
