import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiError, ConnectionError, TimeoutError } from "../../src/core/client/errors";
import {
  budgetPauseMs,
  createOnce,
  DEFAULT_RETRY,
  parseRetryAfter,
  retryDelayMs,
  shouldRetry,
  withRetry,
} from "../../src/core/client/retry";

const ctx = { method: "GET", url: "http://127.0.0.1/api/v1/guardrails" };
const policy = { ...DEFAULT_RETRY, maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };

describe("shouldRetry", () => {
  it("retries 408, 429, 5xx, timeouts and connection errors for idempotent calls", () => {
    for (const s of [408, 429, 500, 502, 503])
      expect(shouldRetry(apiError(s, ctx), "idempotent", 1, policy)).toBe(true);
    expect(shouldRetry(new TimeoutError(0, "slow", ctx), "idempotent", 1, policy)).toBe(true);
    expect(shouldRetry(new ConnectionError("lost", { ...ctx, requestSent: true }), "idempotent", 1, policy)).toBe(true);
  });

  it("never retries 400, 401, 403, 404 or non-API errors", () => {
    for (const s of [400, 401, 403, 404]) expect(shouldRetry(apiError(s, ctx), "idempotent", 1, policy)).toBe(false);
    expect(shouldRetry(new Error("bug"), "idempotent", 1, policy)).toBe(false);
  });

  it("a create is retried only when nothing was sent", () => {
    expect(shouldRetry(new ConnectionError("refused", { ...ctx, requestSent: false }), "create", 1, policy)).toBe(true);
    expect(shouldRetry(new ConnectionError("lost", { ...ctx, requestSent: true }), "create", 1, policy)).toBe(false);
    expect(shouldRetry(new TimeoutError(0, "slow", ctx), "create", 1, policy)).toBe(false);
    for (const s of [429, 500, 503]) expect(shouldRetry(apiError(s, ctx), "create", 1, policy)).toBe(false);
  });

  it("stops at the attempt cap", () => {
    expect(shouldRetry(apiError(503, ctx), "idempotent", 3, policy)).toBe(true);
    expect(shouldRetry(apiError(503, ctx), "idempotent", 4, policy)).toBe(false);
  });

  it("a 429 with a honoured Retry-After gets 10 attempts (never fewer than maxAttempts); the rest stop at maxAttempts", () => {
    const paced = apiError(429, { ...ctx, retryAfterSeconds: 1 });
    const d = DEFAULT_RETRY;
    expect(shouldRetry(paced, "idempotent", 5, d)).toBe(true);
    expect(shouldRetry(paced, "idempotent", 9, d)).toBe(true);
    expect(shouldRetry(paced, "idempotent", 10, d)).toBe(false);
    // No Retry-After: the service said nothing about when; a 5xx: maybe processed. Both keep the cap.
    expect(shouldRetry(apiError(429, ctx), "idempotent", 5, d)).toBe(false);
    expect(shouldRetry(apiError(503, ctx), "idempotent", 5, d)).toBe(false);
    // A larger maxAttempts wins.
    expect(shouldRetry(paced, "idempotent", 11, { ...d, maxAttempts: 12 })).toBe(true);
    expect(shouldRetry(paced, "idempotent", 12, { ...d, maxAttempts: 12 })).toBe(false);
  });

  it("waits a Retry-After of exactly the longest honoured; a 429 without one backs off like a 5xx", () => {
    expect(shouldRetry(apiError(429, { ...ctx, retryAfterSeconds: 60 }), "idempotent", 1, policy)).toBe(true);
    const bare = retryDelayMs(apiError(429, ctx), 2, policy, () => 1);
    expect(bare).toBe(retryDelayMs(apiError(503, ctx), 2, policy, () => 1));
    expect(Number.isFinite(bare)).toBe(true);
  });

  it("budgetPauseMs: only a honoured Retry-After of a 429 holds the whole budget back", () => {
    expect(budgetPauseMs(apiError(429, { ...ctx, retryAfterSeconds: 2 }), policy)).toBe(2000);
    expect(budgetPauseMs(apiError(429, { ...ctx, retryAfterSeconds: 60 }), policy)).toBe(60_000);
    for (const err of [
      apiError(429, ctx),
      apiError(429, { ...ctx, retryAfterSeconds: 0 }),
      apiError(429, { ...ctx, retryAfterSeconds: 61 }),
      apiError(503, ctx),
      new TimeoutError(0, "slow", ctx),
      null,
      "429",
    ])
      expect(budgetPauseMs(err, policy)).toBeUndefined();
  });

  it("gives up on a Retry-After longer than the longest honoured", () => {
    expect(shouldRetry(apiError(429, { ...ctx, retryAfterSeconds: 61 }), "idempotent", 1, policy)).toBe(false);
  });
});

describe("retryDelayMs", () => {
  it("backs off exponentially with jitter in [ceiling/2, ceiling], capped", () => {
    const err = apiError(503, ctx);
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(err, a, policy, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(err, a, policy, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });

  it("never waits less than Retry-After", () => {
    expect(retryDelayMs(apiError(429, { ...ctx, retryAfterSeconds: 3 }), 1, policy, () => 0.5)).toBe(3000);
  });

  it("parses Retry-After as seconds or an HTTP date", () => {
    expect(parseRetryAfter("5")).toBe(5);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 0)).toBe(10);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it("seconds are digits only, several of them, spaces around allowed; a date counts from now", () => {
    expect(parseRetryAfter("120")).toBe(120);
    expect(parseRetryAfter(" 7 ")).toBe(7);
    expect(parseRetryAfter(["3", "9"])).toBe(3);
    // Blank is no header; digits with anything else are not seconds (nor a date here).
    for (const v of ["", "   ", "x5", "5x"]) expect(parseRetryAfter(v), JSON.stringify(v)).toBeUndefined();
    // An HTTP date 6 s after `now`; one in the past is no wait.
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 20_000)).toBe(0);
  });
});

describe("withRetry under fake timers", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A create whose every attempt fails to connect, before or after its request went out. */
  const failingCreate = (message: string, requestSent: boolean) => {
    const attempts = { count: 0 };
    const p = withRetry(
      async () => {
        attempts.count++;
        throw new ConnectionError(message, { ...ctx, method: "POST", requestSent });
      },
      "create",
      policy,
    );
    return { p, attempts };
  };

  it("waits Retry-After, then backoff, and returns the first success", async () => {
    const outcomes = [apiError(429, { ...ctx, retryAfterSeconds: 2 }), apiError(503, ctx)];
    const started: number[] = [];
    const t0 = Date.now();
    const p = withRetry(
      async () => {
        started.push(Date.now() - t0);
        const next = outcomes.shift();
        if (next) throw next;
        return "ok";
      },
      "idempotent",
      policy,
      { random: () => 1 },
    );
    await vi.advanceTimersByTimeAsync(1999);
    expect(started).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([0, 2000]);
    await vi.advanceTimersByTimeAsync(200);
    await expect(p).resolves.toBe("ok");
    expect(started).toEqual([0, 2000, 2200]);
  });

  it("a create answered 429 waits the Retry-After on the real clock before its next attempt", async () => {
    let n = 0;
    const p = createOnce(
      async () => {
        if (++n === 1) throw apiError(429, { ...ctx, retryAfterSeconds: 1 });
        return "made";
      },
      { resolve: async () => undefined },
      DEFAULT_RETRY,
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(n).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(p).resolves.toBe("made");
    expect(n).toBe(2);
  });

  it("a create that may have been sent is attempted exactly once", async () => {
    const { p, attempts } = failingCreate("lost", true);
    await expect(p).rejects.toBeInstanceOf(ConnectionError);
    await vi.runAllTimersAsync();
    expect(attempts.count).toBe(1);
  });

  it("a create refused before sending is retried up to the cap", async () => {
    const { p, attempts } = failingCreate("refused", false);
    const settled = p.catch((e) => e);
    await vi.runAllTimersAsync();
    expect(await settled).toBeInstanceOf(ConnectionError);
    expect(attempts.count).toBe(4);
  });
});

describe("a run under a rate limit slows down instead of failing", () => {
  const limited = () => apiError(429, { ...ctx, retryAfterSeconds: 1 });
  const noSleep = { sleep: async () => {} };

  it("an idempotent call answered 429 seven times succeeds on the eighth, after waiting each Retry-After", async () => {
    let n = 0;
    const waits: number[] = [];
    const result = await withRetry(
      async () => {
        if (++n <= 7) throw limited();
        return "ok";
      },
      "idempotent",
      DEFAULT_RETRY,
      { sleep: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe("ok");
    expect(n).toBe(8);
    expect(waits.every((ms) => ms >= 1000)).toBe(true);
  });

  it("a create answered 429 is tried again up to 10 attempts, then the 429 is raised", async () => {
    let n = 0;
    const made = await createOnce(
      async () => {
        if (++n <= 6) throw limited();
        return "made";
      },
      { resolve: async () => undefined },
      DEFAULT_RETRY,
      noSleep,
    );
    expect([made, n]).toEqual(["made", 7]);
    n = 0;
    const err = await createOnce(
      async () => {
        n++;
        throw limited();
      },
      { resolve: async () => undefined },
      DEFAULT_RETRY,
      noSleep,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429 });
    expect(n).toBe(10);
  });

  it("a create answered 429 with a Retry-After past the longest honoured is raised at once", async () => {
    let n = 0;
    const err = await createOnce(
      async () => {
        n++;
        throw apiError(429, { ...ctx, retryAfterSeconds: 61 });
      },
      { resolve: async () => undefined },
      DEFAULT_RETRY,
      noSleep,
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429 });
    expect(n).toBe(1);
  });
});
