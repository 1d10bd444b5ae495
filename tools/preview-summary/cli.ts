#!/usr/bin/env node
/**
 * `guardrails-preview-summary [preview.json]`: Markdown for a pull-request comment from the
 * output of `pulumi preview --json` (a file, or standard input). Exits 1, with a "preview
 * failed" summary, when the preview reported errors or the input is empty or not a preview,
 * so a CI step can never post "no changes" for a preview that did not run.
 * `--drift`: the drift check's Markdown instead (src/preview/drift.ts), from `pulumi preview --refresh --json`;
 * exits 2 when drift cannot be determined.
 * `--event-log FILE`: policy violations from the engine's event log, listed after the opening
 * line (src/preview/policy-events.ts); with a mandatory violation the plan is still listed.
 * `--key-owners FILE`: a JSON object from each key hash to its owner's member id, so that a key's
 * effective access counts its owner's layers (the service has no key -> owner lookup).
 * `--fail-on-loosening`: exit 3, with one line on standard error, when anything loosens or may
 * loosen (the Markdown is written all the same), for teams that require an approval then.
 */
import { readFileSync } from "node:fs";
import {
  DriftUnknownError,
  failureText,
  policySection,
  summarize,
  summarizeDrift,
  type PreviewJson,
} from "../../src/preview";
import { readKeyOwners } from "./key-owners-file";
import { readEventLog } from "./policy-events-file";

const FLAGS = ["--drift", "--fail-on-loosening"];

function main(): void {
  const argv = process.argv.slice(2);
  const drift = argv.includes("--drift");
  const failOnLoosening = argv.includes("--fail-on-loosening");
  const logAt = argv.indexOf("--event-log");
  const eventLog = logAt >= 0 ? argv[logAt + 1] : undefined;
  const ownersAt = argv.indexOf("--key-owners");
  const valued = [logAt, ownersAt].filter((i) => i >= 0).flatMap((i) => [i, i + 1]);
  const arg = argv.find((a, i) => !FLAGS.includes(a) && !valued.includes(i));
  if (arg === "-h" || arg === "--help") {
    process.stdout.write(
      "usage: pulumi preview --json | guardrails-preview-summary [--drift] [--event-log events.jsonl] [--key-owners owners.json] [--fail-on-loosening] [preview.json]\n",
    );
    return;
  }
  if (arg?.startsWith("--")) {
    process.stderr.write(`guardrails-preview-summary: unknown option ${JSON.stringify(arg.slice(0, 60))}\n`);
    process.exit(2);
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
  const policies = logAt >= 0 ? readEventLog(eventLog) : undefined;
  const keyOwners = ownersAt >= 0 ? readKeyOwners(argv[ownersAt + 1]) : undefined;
  const summary =
    json === undefined
      ? {
          failed: true,
          loosens: false,
          markdown: `${policies ? `${policySection(policies)}\n` : ""}**Guardrails: preview failed.** ${source} is ${text.trim() === "" ? "empty" : "not JSON"}, not the output of \`pulumi preview --json\`; nothing here says what would change.\n`,
        }
      : summarize(json, { ...(policies ? { policies } : {}), ...(keyOwners ? { keyOwners } : {}) });
  process.stdout.write(summary.markdown);
  if (summary.failed) {
    process.stderr.write(
      "guardrails-preview-summary: the preview failed or the input is not a preview; see the summary\n",
    );
    process.exitCode = 1;
  }
  if (failOnLoosening && summary.loosens) {
    process.stderr.write(
      "guardrails-preview-summary: --fail-on-loosening: this change loosens (or may loosen) a guardrail; see the summary's first line\n",
    );
    if (!summary.failed) process.exitCode = 3;
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
