#!/usr/bin/env node
/**
 * `guardrails-preview-summary [preview.json]`: Markdown for a pull-request comment from the
 * output of `pulumi preview --json` (a file, or standard input). Exits 1, with a "preview
 * failed" summary, when the preview reported errors or the input is empty or not a preview,
 * so a CI step can never post "no changes" for a preview that did not run.
 */
import { readFileSync } from "node:fs";
import { summarize } from "./summary";

function main(): void {
  const arg = process.argv[2];
  if (arg === "-h" || arg === "--help") {
    process.stdout.write("usage: pulumi preview --json | guardrails-preview-summary [preview.json]\n");
    return;
  }
  const source = arg && arg !== "-" ? arg : "standard input";
  let text: string;
  try {
    text = readFileSync(arg && arg !== "-" ? arg : 0, "utf8");
  } catch (err) {
    process.stderr.write(`guardrails-preview-summary: cannot read ${source} (${(err as NodeJS.ErrnoException).code ?? "error"})\n`);
    process.exit(2);
  }
  let json: unknown;
  try {
    json = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  const summary = json === undefined ? { failed: true, markdown: `**Guardrails: preview failed.** ${source} is ${text.trim() === "" ? "empty" : "not JSON"}, not the output of \`pulumi preview --json\`; nothing here says what would change.\n` } : summarize(json);
  process.stdout.write(summary.markdown);
  if (summary.failed) {
    process.stderr.write("guardrails-preview-summary: the preview failed or the input is not a preview; see the summary\n");
    process.exitCode = 1;
  }
}

main();
