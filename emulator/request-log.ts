/** The request log the admin endpoints expose: what tests count API calls with. No headers, no keys. */
import type { OperationName } from "./routes";

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
  entries: LogEntry[] = [];
  private seq = 0;

  add(entry: Omit<LogEntry, "seq">): void {
    this.entries.push({ seq: ++this.seq, ...entry });
  }

  clear(): void {
    this.entries = [];
  }

  /** Counts per operation, plus `writes` (every non-GET API call) and `total`. */
  summary() {
    const counts: Record<string, number> = {};
    let writes = 0;
    for (const e of this.entries) {
      const key = e.operation ?? "unknown";
      counts[key] = (counts[key] ?? 0) + 1;
      if (e.method !== "GET") writes++;
    }
    return { total: this.entries.length, writes, counts, entries: this.entries };
  }
}
