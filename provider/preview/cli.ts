#!/usr/bin/env node
/**
 * `guardrails-preview-summary [preview.json]`: Markdown for a pull-request comment from the
 * output of `pulumi preview --json` (a file, or standard input).
 * `--drift`: the drift check's Markdown instead (drift.ts), from `pulumi preview --refresh --json`.
 */
import { readFileSync } from "node:fs";
import { summarizeDrift } from "./drift";
import { summarizePreview, type PreviewJson } from "./summary";

function main(): void {
  const drift = process.argv.includes("--drift");
  const arg = process.argv.slice(2).find((a) => a !== "--drift");
  if (arg === "-h" || arg === "--help") {
    process.stdout.write("usage: pulumi preview --json | guardrails-preview-summary [--drift] [preview.json]\n");
    return;
  }
  const text = readFileSync(arg && arg !== "-" ? arg : 0, "utf8");
  let json: PreviewJson;
  try {
    json = JSON.parse(text) as PreviewJson;
  } catch {
    process.stderr.write(`guardrails-preview-summary: ${arg ?? "standard input"} is not the JSON of \`pulumi preview --json\`\n`);
    process.exit(2);
  }
  if (drift) return writeDrift(json);
  process.stdout.write(summarizePreview(json));
}

/** A failed preview must not read as "no drift": say so and exit non-zero. */
function writeDrift(json: PreviewJson): void {
  try {
    process.stdout.write(summarizeDrift(json));
  } catch (err) {
    process.stderr.write(`guardrails-preview-summary --drift: ${(err as Error).message}\n`);
    process.exit(2);
  }
}

main();
