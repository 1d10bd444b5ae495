/**
 * Deterministic fault injection: the same `seed` and settings give the same faults for the
 * same sequence of requests, so a failing run can be replayed.
 */

export interface FaultSettings {
  /** Seed of the fault generator. @default 1 */
  seed: number;
  /** Share of API calls answered 500/502/503 before anything is applied, 0..1. @default 0 */
  errorRate: number;
  /** Chance that a call starts a burst of 429s, 0..1. @default 0 */
  rateLimitRate: number;
  /** Calls answered 429 in one burst, the first included. @default 3 */
  rateLimitBurst: number;
  /** `Retry-After` seconds sent with each 429. @default 1 */
  retryAfterSeconds: number;
  /** Added latency per API call, in milliseconds. @default 0 */
  latencyMs: number;
  /** Share of writes applied and then answered by a destroyed connection, 0..1. @default 0 */
  dropAfterApplyRate: number;
  /** Keep removed assignment rows in list windows, so pages come back short. @default false */
  shortPages: boolean;
  /**
   * The next this-many valid updates of an existing guardrail answer 409 Conflict and change
   * nothing (docs/api-contract.md rule 15); counts down to 0. @default 0
   */
  updateConflicts: number;
  /**
   * Faults aimed at named calls, in order: only the first entry is armed, and the next call of
   * its operation (routes.ts names: `assignMembers`, `listGuardrailMemberAssignments`, ...)
   * takes it, `times` calls in a row, then the entry after it is armed. Deterministic, no
   * randomness: a test can stage "this assign lands and loses its answer, then the re-list
   * fails". @default []
   */
  script: ScriptedFault[];
}

/** One entry of `script`. */
export interface ScriptedFault {
  /** The operation it hits, by its name in routes.ts. */
  operation: string;
  /** `drop`: the call is applied, then its connection destroyed unanswered; a status: answered so before anything is applied. */
  fault: "drop" | 500 | 502 | 503;
  /** Calls of the operation it hits in a row. @default 1 */
  times?: number;
}

export const NO_FAULTS: FaultSettings = {
  seed: 1,
  errorRate: 0,
  rateLimitRate: 0,
  rateLimitBurst: 3,
  retryAfterSeconds: 1,
  latencyMs: 0,
  dropAfterApplyRate: 0,
  shortPages: false,
  updateConflicts: 0,
  script: [],
};

/** mulberry32: small, fast, good enough for test faults. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultDecision =
  | { kind: "none" }
  | { kind: "rate-limit"; retryAfter: number }
  | { kind: "server-error"; status: number };

export class Faults {
  private random: () => number;
  private burstLeft = 0;
  settings: FaultSettings;

  constructor(settings: Partial<FaultSettings> = {}) {
    this.settings = { ...NO_FAULTS, ...settings };
    this.random = seededRandom(this.settings.seed);
  }

  /** Replaces the settings and restarts the generator from the (new) seed. */
  update(settings: Partial<FaultSettings>): FaultSettings {
    this.settings = { ...this.settings, ...settings };
    this.random = seededRandom(this.settings.seed);
    this.burstLeft = 0;
    return this.settings;
  }

  /** What happens to a call before it is applied. */
  before(): FaultDecision {
    const s = this.settings;
    if (this.burstLeft > 0 || (s.rateLimitRate > 0 && this.random() < s.rateLimitRate)) {
      if (this.burstLeft === 0) this.burstLeft = Math.max(1, s.rateLimitBurst);
      this.burstLeft--;
      return { kind: "rate-limit", retryAfter: s.retryAfterSeconds };
    }
    if (s.errorRate > 0 && this.random() < s.errorRate) {
      const statuses = [500, 502, 503];
      return { kind: "server-error", status: statuses[Math.floor(this.random() * statuses.length)] ?? 500 };
    }
    return { kind: "none" };
  }

  /** Whether this update answers 409 (rule 15): spends one of `updateConflicts`. Deterministic, no randomness. */
  conflictOnUpdate(): boolean {
    if (!(this.settings.updateConflicts >= 1)) return false;
    this.settings = { ...this.settings, updateConflicts: this.settings.updateConflicts - 1 };
    return true;
  }

  /** The scripted fault a call of `operation` takes, if the armed entry names it; spends one of its `times`. */
  scripted(operation: string): ScriptedFault["fault"] | undefined {
    const [armed, ...rest] = this.settings.script;
    if (armed?.operation !== operation) return undefined;
    const left = (armed.times ?? 1) - 1;
    this.settings = { ...this.settings, script: left > 0 ? [{ ...armed, times: left }, ...rest] : rest };
    return armed.fault;
  }

  /** Whether a write that was just applied loses its answer. */
  dropAfterApply(): boolean {
    return this.settings.dropAfterApplyRate > 0 && this.random() < this.settings.dropAfterApplyRate;
  }
}
