#!/usr/bin/env node
/**
 * `guardrails-preview-summary [preview.json]`: Markdown for a pull-request comment from the
 * output of `pulumi preview --json` (a file, or standard input). Exits 1, with a "preview
 * failed" summary, when the preview reported errors or the input is empty or not a preview,
 * so a CI step can never post "no changes" for a preview that did not run.
 * `--drift`: the drift check's Markdown instead (src/preview/drift.ts), from `pulumi preview --refresh --json`;
 * exits 2 when drift cannot be determined.
 * `--event-log FILE`: policy violations from the engine's event log, listed first (src/preview/policy-events.ts).
 */
import { readFileSync } from "node:fs";
import { DriftUnknownError, failureText, summarize, summarizeDrift, type PreviewJson } from "../../src/preview";
import { readEventLogSection } from "./policy-events-file";

function main(): void {
  const drift = process.argv.includes("--drift");
  const logAt = process.argv.indexOf("--event-log");
  const eventLog = logAt > 1 ? process.argv[logAt + 1] : undefined;
  const arg = process.argv.slice(2).find((a, i) => a !== "--drift" && i + 2 !== logAt && i + 2 !== logAt + 1);
  if (arg === "-h" || arg === "--help") {
    process.stdout.write(
      "usage: pulumi preview --json | guardrails-preview-summary [--drift] [--event-log events.jsonl] [preview.json]\n",
    );
    return;
  }
  const source = arg && arg !== "-" ? arg : "standard input";
  let text: string;
  try {
    text = readFileSync(arg && arg !== "-" ? arg : 0, "utf8");
  } catch (err) {
    process.stderr.write(
      `guardrails-preview-summary: cannot read ${source} (${(err as NodeJS.ErrnoException).code ?? "error"})\n`,
    );
    process.exit(2);
  }
  let json: unknown;
  try {
    json = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (drift) return void writeDrift(json);
  const summary =
    json === undefined
      ? {
          failed: true,
          markdown: `**Guardrails: preview failed.** ${source} is ${text.trim() === "" ? "empty" : "not JSON"}, not the output of \`pulumi preview --json\`; nothing here says what would change.\n`,
        }
      : summarize(json);
  const policies = logAt > 1 ? readEventLogSection(eventLog) : "";
  process.stdout.write(policies ? `${policies}\n${summary.markdown}` : summary.markdown);
  if (summary.failed) {
    process.stderr.write(
      "guardrails-preview-summary: the preview failed or the input is not a preview; see the summary\n",
    );
    process.exitCode = 1;
  }
}

/** A failed preview must not read as "no drift": say so and exit non-zero. */
function writeDrift(json: unknown): void {
  try {
    if (json === undefined)
      throw new DriftUnknownError("the input is empty or not JSON, so drift cannot be determined");
    process.stdout.write(summarizeDrift(json as PreviewJson));
  } catch (err) {
    // An expected failure is one line; a bug keeps its stack trace, so that it can be reported.
    process.stderr.write(`guardrails-preview-summary --drift: ${failureText(err)}\n`);
    process.exit(2);
  }
}

main();
