#!/usr/bin/env node
/**
 * `guardrails-ci`: the commands the example GitHub workflows call, so that teams do not copy
 * their logic by hand.
 *
 *   guardrails-ci preview --base <ref> --head <ref> [--data guardrails] [--comment file.md]
 *   guardrails-ci drift-issue <preview.json> --open-issues <issues.json>
 *
 * Standard output holds `key=value` lines for `$GITHUB_OUTPUT`; the report goes to stderr.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { failureText, hasDrift, UserError } from "../../src/preview";
import { selectionComment } from "./comment";
import { actionOutputs, decideDriftIssue, parseOpenIssues } from "./drift-issue";
import { prepareDataPreview } from "./git";

const USAGE = `usage:
  guardrails-ci preview --base <ref> --head <ref> [--data guardrails] [--comment comment.md]
      Run in a checkout of the base: writes the PR head's data files over it when the PR changes
      nothing else, and prints preview=true|false (use the key only when true).
  guardrails-ci drift-issue <preview.json> --open-issues <issues.json>
      From \`pulumi preview --refresh --json\` and \`gh issue list --json number,author,body\`,
      prints action=open|update|close|none (and issue=N or issues=N M). Only issues that GitHub
      Actions' bot opened with the drift marker first in the body count; others are left alone.
`;

function preview(argv: string[]): void {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: "string" },
      head: { type: "string" },
      data: { type: "string", default: "guardrails" },
      comment: { type: "string" },
    },
    strict: true,
  });
  if (!values.base || !values.head) throw new UsageError("preview needs --base <ref> and --head <ref>");
  const sel = prepareDataPreview(process.cwd(), { base: values.base, head: values.head, dataDir: values.data! });
  if (values.comment)
    onFile(values.comment, (path) => writeFileSync(path, selectionComment(sel, { dataDir: values.data! })));
  const report = [
    `mode: ${sel.mode}`,
    ...sel.take.map((t) => `from head: ${t.path}`),
    ...sel.remove.map((p) => `deleted by the PR: ${p}`),
    ...sel.ignored.map((p) => `ignored (not read by the loader): ${p}`),
    ...sel.blockers.map((b) => `blocks the preview: ${JSON.stringify(b.path)} ${b.reason}`),
    ...sel.stale.map((p) => `also changed on the base: ${p}`),
  ];
  process.stderr.write(report.map((l) => `guardrails-ci: ${l}\n`).join(""));
  process.stdout.write(`mode=${sel.mode}\npreview=${sel.exposeKey}\n`);
}

function driftIssue(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { "open-issues": { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1 || !values["open-issues"])
    throw new UsageError("drift-issue needs <preview.json> and --open-issues <issues.json>");
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(positionals[0]!, "utf8"));
  } catch (err) {
    throw new UserError(`${positionals[0]} is not the JSON of \`pulumi preview --refresh --json\``, { cause: err });
  }
  const open = parseOpenIssues(onFile(values["open-issues"], (path) => readFileSync(path, "utf8")));
  for (const i of open.filter((i) => !i.ours))
    process.stderr.write(
      `guardrails-ci: issue #${i.number} was not opened by this workflow (no GitHub Actions author or no marker line); left alone\n`,
    );
  process.stdout.write(actionOutputs(decideDriftIssue(hasDrift(json as never), open)));
}

/** The command line is wrong: said with the usage. */
class UsageError extends UserError {}

/** A file the command was pointed at: the system refusing it (ENOENT, EACCES...) is said in one line. */
function onFile<T>(path: string, use: (path: string) => T): T {
  try {
    return use(path);
  } catch (err) {
    throw new UserError((err as Error).message, { cause: err });
  }
}

function main(): void {
  const [command, ...rest] = process.argv.slice(2);
  try {
    if (command === "preview") return void preview(rest);
    if (command === "drift-issue") return void driftIssue(rest);
    if (command === "-h" || command === "--help") return void process.stdout.write(USAGE);
    throw new UsageError(command ? `unknown command ${JSON.stringify(command)}` : "no command");
  } catch (err) {
    const usage =
      err instanceof UsageError || (err as { code?: string } | undefined)?.code?.startsWith("ERR_PARSE_ARGS");
    // An expected failure is one line; a bug keeps its stack trace, so that it can be reported.
    process.stderr.write(`guardrails-ci: ${usage ? (err as Error).message : failureText(err)}\n`);
    if (usage) process.stderr.write(USAGE);
    process.exit(2);
  }
}

main();
