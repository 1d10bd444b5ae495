/** `--event-log FILE` of the summary CLI: the policy events, or exit 2 naming what is wrong. */
import { readFileSync, statSync } from "node:fs";
import { MAX_EVENT_LOG_BYTES, readPolicyEvents, type PolicyEvents } from "../../src/preview";

export function readEventLog(path: string | undefined): PolicyEvents {
  const fail = (why: string): never => {
    process.stderr.write(`guardrails-preview-summary: --event-log ${why}\n`);
    process.exit(2);
  };
  if (!path || path.startsWith("--"))
    return fail("needs a file (PULUMI_DEBUG_COMMANDS=1 pulumi preview --json --event-log FILE)");
  try {
    const size = statSync(path).size;
    if (size > MAX_EVENT_LOG_BYTES) return fail(`${path} is ${size} bytes, over the ${MAX_EVENT_LOG_BYTES}-byte limit`);
    return readPolicyEvents(readFileSync(path, "utf8"));
  } catch (err) {
    return fail(`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? "error"})`);
  }
}
