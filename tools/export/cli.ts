#!/usr/bin/env node
/**
 * `guardrails-export [dir]`: writes the organization's guardrails, with their members and
 * keys, as declarative YAML files that `declareGuardrails(dir)` adopts with no change.
 * Key and URL from GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL, as the provider.
 */
import { lstatSync, readdirSync } from "node:fs";
import { basename, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { exportGuardrails, failureText, isPolicyFile, redact, shown, writeExport } from "../../src/export";

/**
 * Every line for stderr, with the API key masked: a key pasted into the wrong place (the base
 * URL, a number setting, --only, a folder) comes back in the message that refuses it.
 */
const say = (text: string) => process.stderr.write(redact(text, process.env.GUARDRAILS_API_KEY));

const USAGE = `usage: guardrails-export [dir] [options]

Writes one YAML file per guardrail into dir (default: guardrails), in the format
declareGuardrails reads, with adoptId, so the first pulumi up adopts them unchanged.
Reads GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL. Makes no write call.

  --workspace <uuid>     a workspace to export (repeatable; default: the default workspace,
                         with the guardrails older than workspaces)
  --all-workspaces       every workspace the service lists (not with --workspace)
  --only <name-or-id>    only this guardrail (repeatable); says so when another workspace has it
  --exclude <name-or-id> leave this guardrail out (repeatable)
  --exclusive            member and key sets own the whole current sets
                         (default: additive sets, which never remove anyone)
  --stdout               print every guardrail as one file instead of writing files
  --force                overwrite existing files (without it, nothing is written if any exists);
                         a symbolic link is never written through, with or without --force
`;

/** A file name of the folder (anyone's clone may hold any): as is when printable ASCII, else quoted and escaped. */
const fileShown = (f: string) => (/^[\x20-\x7e]+$/.test(f) ? f : shown(f));

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        workspace: { type: "string", multiple: true },
        "all-workspaces": { type: "boolean" },
        only: { type: "string", multiple: true },
        exclude: { type: "string", multiple: true },
        exclusive: { type: "boolean" },
        stdout: { type: "boolean" },
        force: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
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
  const dir = positionals[0] ?? "guardrails";
  const schemaFile = resolve("node_modules/pulumi-guardrails/schema/guardrails.schema.json");
  const result = await exportGuardrails({
    workspaces: values.workspace ?? [],
    allWorkspaces: values["all-workspaces"] ?? false,
    only: values.only ?? [],
    exclude: values.exclude ?? [],
    exclusive: values.exclusive ?? false,
    schemaRef: relative(values.stdout ? process.cwd() : resolve(dir), schemaFile),
  });
  for (const w of result.warnings) say(`warning: ${w}\n`);
  for (const n of result.notes) say(`note: ${n}\n`);
  if (values.stdout) {
    process.stdout.write(result.combined);
    return 0;
  }
  if (result.files.length === 0) {
    say("guardrails-export: no guardrails to export; nothing written\n");
    return 0;
  }
  // Only a real folder is listed: anything else is for writeExport to refuse, naming it.
  const others = lstatSync(dir, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(dir)
        .filter((f) => /\.(ya?ml|json)$/i.test(f) && !isPolicyFile(f))
        .filter((f: string) => !result.files.some((r) => r.fileName === basename(f)))
    : [];
  const written = writeExport(dir, result.files, { force: values.force ?? false });
  const shown = relative(process.cwd(), resolve(dir)) || ".";
  say(`guardrails-export: wrote ${written.length} file(s) to ${shown}/ (${result.files.length} guardrail(s))\n`);
  if (others.length > 0) {
    say(
      `note: ${shown}/ also holds ${others.map((f: string) => fileShown(basename(f))).join(", ")}, which declareGuardrails("${shown}") loads too\n`,
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
