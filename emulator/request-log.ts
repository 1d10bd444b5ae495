/**
 * The request log the admin endpoints expose: what tests count API calls with. No headers,
 * no keys. Bounded: counts are exact since the last clear, but only the latest
 * `REQUEST_LOG_CAP` entries are kept, so a long-running emulator cannot grow without limit.
 */
import type { OperationName } from "./routes";

/** Entries kept; older ones are dropped (and counted in `dropped`). */
export const REQUEST_LOG_CAP = 10_000;

export interface LogEntry {
  seq: number;
  method: string;
  path: string;
  query: string;
  operation: OperationName | null;
  status: number;
  /** `dropped` when a write was applied and its answer destroyed; `rate-limit` / `server-error` when injected. */
  fault?: "dropped" | "rate-limit" | "server-error";
  /** Latency the emulator added before answering, in ms. */
  delayedMs?: number;
}

export class RequestLog {
  private ring: LogEntry[] = [];
  private seq = 0;
  private total = 0;
  private writes = 0;
  private counts: Record<string, number> = {};

  constructor(private readonly cap = REQUEST_LOG_CAP) {}

  /** The kept entries, oldest first. */
  get entries(): LogEntry[] {
    return this.ring;
  }

  add(entry: Omit<LogEntry, "seq">): void {
    this.ring.push({ seq: ++this.seq, ...entry });
    // Drop in batches: one splice per `cap / 10` adds keeps adding O(1) amortised.
    if (this.ring.length > this.cap + Math.ceil(this.cap / 10)) this.ring.splice(0, this.ring.length - this.cap);
    this.total++;
    if (entry.method !== "GET") this.writes++;
    const key = entry.operation ?? "unknown";
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }

  clear(): void {
    this.ring = [];
    this.total = 0;
    this.writes = 0;
    this.counts = {};
  }

  /** Counts per operation, `writes` (every non-GET API call) and `total`, exact since the last clear; the latest entries, at most the cap. */
  summary() {
    const entries = this.ring.length > this.cap ? this.ring.slice(this.ring.length - this.cap) : this.ring;
    return { total: this.total, writes: this.writes, counts: { ...this.counts }, entries, dropped: this.total - entries.length, cap: this.cap };
  }
}
