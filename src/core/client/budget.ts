/**
 * One budget of requests in flight for the whole provider process (issue 29). The engine runs
 * resources at once, and a list walk or a bulk apply sends several calls at once: every HTTP
 * exchange of every client takes a slot here, so the service sees at most `limit` requests
 * from this process, whatever runs. A slot is held for one exchange only (never across a
 * retry's backoff), so nothing that waits on another call can starve.
 *
 * A 429 with `Retry-After` pauses the whole budget: no request of the process starts before
 * the time the server asked for, not just the one that was told.
 */

/** Requests in flight per provider process when `guardrails:maxConcurrency` is not set. */
export const DEFAULT_MAX_CONCURRENCY = 4;
/** Largest `guardrails:maxConcurrency` accepted (the keep-alive pool holds 16 connections). */
export const MAX_MAX_CONCURRENCY = 16;

/** The clock of a budget, for tests. */
export interface BudgetClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const realClock: BudgetClock = { now: Date.now, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** A limit on requests in flight, shared by every caller, that a rate limit pauses as a whole. */
export class Budget {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  private pausedUntil = 0;
  private max: number;
  /** Pauses taken, for reports and tests: the server's asks that held back the whole budget. */
  pauses = 0;

  constructor(
    limit: number = DEFAULT_MAX_CONCURRENCY,
    private readonly clock: BudgetClock = realClock,
  ) {
    this.max = Budget.checked(limit);
  }

  private static checked(limit: number): number {
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new RangeError(`a budget needs a positive integer (got ${limit})`);
    return limit;
  }

  /** Requests allowed in flight at once. */
  get limit(): number {
    return this.max;
  }

  /** Changes the limit (the settings may change between calls); waiters get the new room at once. */
  setLimit(limit: number): void {
    this.max = Budget.checked(limit);
    for (let room = this.max - this.inFlight; room > 0 && this.waiting.length > 0; room--) this.waiting.shift()?.();
  }

  /** Holds back every request not yet started until `ms` from now. */
  pause(ms: number): void {
    if (!(ms > 0)) return;
    this.pauses++;
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /**
   * Runs `exchange` in a slot. When it fails, `pauseFor(err)` says how long the whole budget
   * waits (a `Retry-After`), if at all; the error is raised either way.
   */
  async run<T>(exchange: () => Promise<T>, pauseFor?: (err: unknown) => number | undefined): Promise<T> {
    await this.acquire();
    try {
      return await exchange();
    } catch (err) {
      const ms = pauseFor?.(err);
      if (ms !== undefined) this.pause(ms);
      throw err;
    } finally {
      this.release();
    }
  }

  private async acquire(): Promise<void> {
    let front = false;
    for (;;) {
      const wait = this.pausedUntil - this.clock.now();
      if (wait > 0) await this.clock.sleep(wait);
      else if (this.inFlight < this.max) {
        this.inFlight++;
        return;
      } else {
        await new Promise<void>((wake) => (front ? this.waiting.unshift(wake) : this.waiting.push(wake)));
        front = true;
      }
    }
  }

  private release(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }
}

/** The budget of this process, shared by every client unless one is given its own. */
export const processBudget = new Budget();
