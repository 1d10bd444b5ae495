/**
 * The retry policy, in one place. Idempotent calls (GET, PATCH, DELETE, bulk assign/unassign:
 * idempotent by the contract) are retried on 408/429/5xx, timeouts and connection errors,
 * with jittered exponential backoff that honours `Retry-After`. A create is retried only when
 * the connection failed before anything was sent, unless the caller can find out what an
 * ambiguous create made (`createOnce`).
 */
import { ConnectionError, GuardrailsError, RateLimitError, ServerError, TimeoutError } from "./errors";

/** The retry policy: attempts and backoff bounds. */
export interface RetryOptions {
  /** Attempts in all, the first included. @default 5 */
  maxAttempts: number;
  /** First backoff, in ms. @default 250 */
  baseDelayMs: number;
  /** Largest backoff, in ms (a longer `Retry-After` is still honoured, up to `maxRetryAfterMs`). @default 8000 */
  maxDelayMs: number;
  /** Longest `Retry-After` honoured; past it the error is raised. @default 60000 */
  maxRetryAfterMs: number;
  /**
   * Attempts in all while the service answers 429 with a `Retry-After` this policy honours (never
   * fewer than `maxAttempts`): such a call was not processed, and the wait is the one the service
   * asked for, so a run under a rate limit slows down instead of failing. @default 10
   */
  rateLimitedAttempts: number;
}

/** 5 attempts (10 under a honoured 429), 250 ms first backoff doubling to 8 s, a `Retry-After` up to 60 s honoured. */
export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  rateLimitedAttempts: 10,
};

/** The attempts a call gets, given the failure of its last one. */
export function attemptCap(err: unknown, options: RetryOptions): number {
  const paced = err instanceof RateLimitError && err.retryAfterSeconds !== undefined;
  return paced ? Math.max(options.maxAttempts, options.rateLimitedAttempts) : options.maxAttempts;
}

/** `idempotent`: safe to repeat. `create`: repeat only if it never left. */
export type RetryClass = "idempotent" | "create";

/** Whether `err` on attempt `attempt` (1-based) should be tried again. */
export function shouldRetry(err: unknown, retryClass: RetryClass, attempt: number, options: RetryOptions): boolean {
  if (attempt >= attemptCap(err, options)) return false;
  // Every answer below is an instance test of a GuardrailsError subclass: anything else is false.
  if (retryClass === "create") return err instanceof ConnectionError && !err.requestSent;
  if (err instanceof RateLimitError) return waitIsHonoured(err, options);
  return err instanceof ServerError || err instanceof TimeoutError || err instanceof ConnectionError;
}

/** A 429 is waited out when it names no wait, or one no longer than `maxRetryAfterMs`. */
function waitIsHonoured(err: RateLimitError, options: RetryOptions): boolean {
  return err.retryAfterSeconds === undefined || err.retryAfterSeconds * 1000 <= options.maxRetryAfterMs;
}

/**
 * Delay before attempt `attempt + 1`: full jitter over `base * 2^(attempt-1)` capped at
 * `maxDelayMs`, and never less than the server's `Retry-After`.
 */
export function retryDelayMs(
  err: unknown,
  attempt: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  const retryAfter =
    err instanceof RateLimitError && err.retryAfterSeconds !== undefined ? err.retryAfterSeconds * 1000 : 0;
  return Math.max(backoff, retryAfter);
}

/**
 * How long a failure holds back every request of the process (the shared budget, issue 29):
 * a 429's `Retry-After`, when it is one the policy honours; otherwise none.
 */
export function budgetPauseMs(err: unknown, options: RetryOptions): number | undefined {
  if (!(err instanceof RateLimitError)) return undefined;
  // No Retry-After is no pause: 0 fails `ms > 0`.
  const ms = (err.retryAfterSeconds ?? 0) * 1000;
  return ms > 0 && ms <= options.maxRetryAfterMs ? ms : undefined;
}

/** Test and reporting hooks of the retry loop: the clock, the jitter, and a callback per retry. */
export interface RetryHooks {
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  onRetry?: (err: GuardrailsError, attempt: number, delayMs: number) => void;
}

/** Runs `attempt` until it succeeds or the policy says stop; the last error is raised. */
export async function withRetry<T>(
  run: (attempt: number) => Promise<T>,
  retryClass: RetryClass,
  options: RetryOptions,
  hooks: RetryHooks = {},
): Promise<T> {
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

/** A 429 is answered before anything is done; so is a connection that never sent a byte. */
export function notProcessed(err: unknown): boolean {
  return err instanceof RateLimitError || (err instanceof ConnectionError && !err.requestSent);
}

/** A failure after which the request may or may not have been applied. */
export function isAmbiguous(err: unknown): boolean {
  return (
    !notProcessed(err) && (err instanceof ConnectionError || err instanceof TimeoutError || err instanceof ServerError)
  );
}

/** How a create whose outcome is unknown is settled (guardrail/create-once.ts supplies it). */
export interface UnknownOutcome<T> {
  /** Wraps each POST, e.g. to journal it and claim what it returns. @default the POST itself */
  around?: (post: () => Promise<T>) => Promise<T>;
  /** After a failure that was not processed or that settled nothing: the POST is tried again. */
  onGiveUp?: (err: GuardrailsError) => void;
  /**
   * The outcome is unknown (5xx, timeout, lost answer): what the POST made, `undefined` when
   * nothing landed (then it is made again, after the backoff), or a throw when it cannot tell.
   */
  resolve: (err: GuardrailsError) => Promise<T | undefined>;
}

/**
 * A create that is never blindly repeated: a failure that was not processed (429, nothing sent)
 * is retried; an ambiguous one is settled by `outcome.resolve` first, and retried only when it
 * says nothing landed; anything else is raised. Attempts and backoff follow `options`.
 */
export async function createOnce<T>(
  post: () => Promise<T>,
  outcome: UnknownOutcome<T>,
  options: RetryOptions,
  hooks: RetryHooks = {},
): Promise<T> {
  const sleep = hooks.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const around = outcome.around ?? ((p: () => Promise<T>) => p());
  for (let attempt = 1; ; attempt++) {
    try {
      return await around(post);
    } catch (err) {
      if (!(err instanceof GuardrailsError) || !(notProcessed(err) || isAmbiguous(err))) throw err;
      if (isAmbiguous(err)) {
        const found = await outcome.resolve(err);
        if (found !== undefined) return found;
      }
      outcome.onGiveUp?.(err);
      if (attempt >= attemptCap(err, options) || (err instanceof RateLimitError && !waitIsHonoured(err, options)))
        throw err;
      const delay = retryDelayMs(err, attempt, options, hooks.random);
      hooks.onRetry?.(err, attempt, delay);
      await sleep(delay);
    }
  }
}

/** Parses `Retry-After` (seconds or an HTTP date) into seconds. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  // Blank parses as neither seconds nor a date: no separate check.
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (v === undefined) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
