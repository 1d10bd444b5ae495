/**
 * Retries as they happen, for the person waiting on `pulumi up`. A dynamic provider has no
 * connection to the engine (`pulumi.log` goes nowhere from it: pulumi/pulumi issues 6065 and
 * 18249), but the CLI passes a dynamic provider's stderr through to its output
 * (pulumi/pulumi pull 18253; proven under CLI 3.248 by test/e2e/hostile-input.test.ts), so one
 * plain line per retry is what a user can see.
 */
import type { GuardrailsError } from "./errors";

/** One line per retry, on stderr: what failed (already redacted), which attempt, and the wait. */
export function reportRetry(
  err: GuardrailsError,
  attempt: number,
  delayMs: number,
  write: (line: string) => void = (l) => process.stderr.write(l),
): void {
  const wait = delayMs >= 1000 ? `${(delayMs / 1000).toFixed(1)} s` : `${delayMs} ms`;
  const firstLine = err.message.split("\n")[0] ?? err.message;
  write(`pulumi-guardrails: attempt ${attempt} failed: ${firstLine}; retrying in ${wait}\n`);
}
