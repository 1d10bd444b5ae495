/**
 * The retry policy, in one place. Idempotent calls (GET, PATCH, DELETE, bulk assign/unassign:
 * idempotent by the contract) are retried on 408/429/5xx, timeouts and connection errors,
 * with jittered exponential backoff that honours `Retry-After`. A create is retried only when
 * the connection failed before anything was sent.
 */
import { ConnectionError, GuardrailsError, RateLimitError, ServerError, TimeoutError } from "./errors";

export interface RetryOptions {
  /** Attempts in all, the first included. @default 5 */
  maxAttempts: number;
  /** First backoff, in ms. @default 250 */
  baseDelayMs: number;
  /** Largest backoff, in ms (a longer `Retry-After` is still honoured, up to `maxRetryAfterMs`). @default 8000 */
  maxDelayMs: number;
  /** Longest `Retry-After` honoured; past it the error is raised. @default 60000 */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

/** `idempotent`: safe to repeat. `create`: repeat only if it never left. */
export type RetryClass = "idempotent" | "create";

/** Whether `err` on attempt `attempt` (1-based) should be tried again. */
export function shouldRetry(err: unknown, retryClass: RetryClass, attempt: number, options: RetryOptions): boolean {
  if (attempt >= options.maxAttempts) return false;
  if (!(err instanceof GuardrailsError)) return false;
  if (retryClass === "create") return err instanceof ConnectionError && !err.requestSent;
  if (err instanceof RateLimitError) return err.retryAfterSeconds === undefined || err.retryAfterSeconds * 1000 <= options.maxRetryAfterMs;
  return err instanceof ServerError || err instanceof TimeoutError || err instanceof ConnectionError;
}

/**
 * Delay before attempt `attempt + 1`: full jitter over `base * 2^(attempt-1)` capped at
 * `maxDelayMs`, and never less than the server's `Retry-After`.
 */
export function retryDelayMs(err: unknown, attempt: number, options: RetryOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  const retryAfter = err instanceof RateLimitError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
  return Math.max(backoff, retryAfter);
}

export interface RetryHooks {
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  onRetry?: (err: GuardrailsError, attempt: number, delayMs: number) => void;
}

/** Runs `attempt` until it succeeds or the policy says stop; the last error is raised. */
export async function withRetry<T>(run: (attempt: number) => Promise<T>, retryClass: RetryClass, options: RetryOptions, hooks: RetryHooks = {}): Promise<T> {
  const sleep = hooks.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      if (!shouldRetry(err, retryClass, attempt, options)) throw err;
      const delay = retryDelayMs(err, attempt, options, hooks.random);
      hooks.onRetry?.(err as GuardrailsError, attempt, delay);
      await sleep(delay);
    }
  }
}

/** Parses `Retry-After` (seconds or an HTTP date) into seconds. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === "") return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
