#!/usr/bin/env node
/**
 * `guardrails-preview-summary [preview.json]`: Markdown for a pull-request comment from the
 * output of `pulumi preview --json` (a file, or standard input).
 */
import { readFileSync } from "node:fs";
import { summarizePreview, type PreviewJson } from "./summary";

function main(): void {
  const arg = process.argv[2];
  if (arg === "-h" || arg === "--help") {
    process.stdout.write("usage: pulumi preview --json | guardrails-preview-summary [preview.json]\n");
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
  process.stdout.write(summarizePreview(json));
}

main();
