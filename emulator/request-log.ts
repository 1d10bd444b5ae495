/**
 * The request log the admin endpoints expose: what tests count API calls with, and, for each
 * write, the JSON body it carried, so a test can assert a PATCH's exact body. No headers, no keys:
 * a body is redacted before it is kept (a configured key, a bearer token or anything that looks
 * like an API key becomes `[REDACTED]`, and so does every value of a key-like field), then bounded.
 * So is the URL: each path segment and query parameter, percent-decoded, is redacted the same
 * way (a query parameter with a key-like name loses its value), for the log and `--log-requests`.
 *
 * Bounded three ways: only the latest `REQUEST_LOG_CAP` entries are kept (counts stay exact
 * since the last clear), a body above `LOG_BODY_CHARS` is kept as a truncated text, and the
 * bodies together stay under `LOG_BODY_BUDGET` (the oldest lose theirs first).
 */
import type { OperationName } from "./routes";

/** Entries kept; older ones are dropped (and counted in `dropped`). */
export const REQUEST_LOG_CAP = 10_000;
/** Largest body kept whole, in characters of its JSON text; a larger one is kept truncated. */
export const LOG_BODY_CHARS = 64 * 1024;
/** Characters of JSON the kept bodies may hold together. */
export const LOG_BODY_BUDGET = 16 * 1024 * 1024;
/** Nesting kept in a body; deeper values become `"[too deep]"`. */
const MAX_DEPTH = 32;
export const REDACTED = "[REDACTED]";

/** One API call as the request log records it: operation, status, injected fault, redacted body. */
export interface LogEntry {
  seq: number;
  method: string;
  path: string;
  query: string;
  operation: OperationName | null;
  status: number;
  /** `dropped` when a write was applied and its answer destroyed; `rate-limit` / `server-error` / `conflict` when injected. */
  fault?: "dropped" | "rate-limit" | "server-error" | "conflict";
  /** When the call arrived, ms since the epoch (before any added latency): shows a client backing off after a 429. */
  receivedAt?: number;
  /** Latency the emulator added before answering, in ms. */
  delayedMs?: number;
  /** The request's JSON body, redacted; absent for GET/DELETE, an unparsable body, or after `bodyTruncated`/`bodyDropped`. */
  body?: unknown;
  /** The body was larger than `LOG_BODY_CHARS`: its redacted JSON text, cut at that length. */
  bodyTruncated?: string;
  /** The body was let go to keep the bodies under `LOG_BODY_BUDGET`. */
  bodyDropped?: true;
}

type NewEntry = Omit<LogEntry, "seq" | "bodyTruncated" | "bodyDropped">;

/** Field names whose values are credentials, whatever they hold. `key_hashes` is not one. */
const SECRET_FIELD = /(?:^|[_-])(?:api[_-]?key|apikey|key|token|secret|password|passwd|authorization|credential)s?$/i;
/** Values that look like a credential: a bearer header, an `sk-...` API key. */
const SECRET_VALUE = /\bBearer\s+\S+|\bsk-[A-Za-z0-9_-]{8,}/g;

export class RequestLog {
  private ring: LogEntry[] = [];
  private seq = 0;
  private total = 0;
  private writes = 0;
  private counts: Record<string, number> = {};
  /** Entries that hold a body, oldest first, with the size each counts against the budget. */
  private withBody: Array<{ entry: LogEntry; chars: number }> = [];
  private bodyHead = 0;
  private bodyChars = 0;

  /** @param secrets the configured keys: any string containing one is redacted. */
  constructor(
    private readonly cap = REQUEST_LOG_CAP,
    private readonly secrets: string[] = [],
    private readonly budget = LOG_BODY_BUDGET,
  ) {}

  /** Redacts one more key from now on (a workspace-scoped key the admin endpoint added). */
  addSecret(secret: string): void {
    this.secrets.push(secret);
  }

  /** The kept entries, oldest first. */
  get entries(): LogEntry[] {
    return this.ring;
  }

  /** Records a call, its URL and body redacted; answers the entry as kept. */
  add(input: NewEntry): LogEntry {
    const { body, ...rest } = input;
    const entry: LogEntry = {
      seq: ++this.seq,
      ...rest,
      path: this.redactPath(rest.path),
      query: this.redactQuery(rest.query),
    };
    if (body !== undefined) this.keepBody(entry, body);
    this.ring.push(entry);
    // Drop in batches: one splice per `cap / 10` adds keeps adding O(1) amortised.
    if (this.ring.length > this.cap + Math.ceil(this.cap / 10)) this.ring.splice(0, this.ring.length - this.cap);
    this.total++;
    if (entry.method !== "GET") this.writes++;
    const key = entry.operation ?? "unknown";
    this.counts[key] = (this.counts[key] ?? 0) + 1;
    return entry;
  }

  /** A URL path with every segment that holds a key (plain or percent-encoded) redacted. */
  redactPath(path: string): string {
    // Whole first: a key may hold a `/`.
    return this.redactString(path)
      .split("/")
      .map((segment) => this.redactUrlPart(segment))
      .join("/");
  }

  /** A query string (`?a=b&c`) with key-like parameters' values and anything holding a key redacted. */
  redactQuery(query: string): string {
    if (!query) return query;
    // Whole first: a key may hold a `&` or a `=`.
    const params = this.redactString(query)
      .replace(/^\?/, "")
      .split("&")
      .map((param) => {
        const eq = param.indexOf("=");
        if (eq < 0) return this.redactUrlPart(param);
        const name = param.slice(0, eq);
        return `${this.redactUrlPart(name)}=${SECRET_FIELD.test(urlDecoded(name)) ? REDACTED : this.redactUrlPart(param.slice(eq + 1))}`;
      });
    return `?${params.join("&")}`;
  }

  /** One segment or query part: kept as sent, or, when its decoded text holds a key, that text redacted and encoded again. */
  private redactUrlPart(raw: string): string {
    const direct = this.redactString(raw);
    const decoded = urlDecoded(direct);
    const redacted = this.redactString(decoded);
    if (redacted === decoded) return direct;
    return encodeURIComponent(redacted).split(encodeURIComponent(REDACTED)).join(REDACTED);
  }

  clear(): void {
    this.ring = [];
    this.total = 0;
    this.writes = 0;
    this.counts = {};
    this.withBody = [];
    this.bodyHead = 0;
    this.bodyChars = 0;
  }

  /** Counts per operation, `writes` (every non-GET API call) and `total`, exact since the last clear; the latest entries, at most the cap. */
  summary() {
    const entries = this.ring.length > this.cap ? this.ring.slice(this.ring.length - this.cap) : this.ring;
    return {
      total: this.total,
      writes: this.writes,
      counts: { ...this.counts },
      entries,
      dropped: this.total - entries.length,
      cap: this.cap,
    };
  }

  /** Redact first, then measure and bound: a cut never lands inside a secret. */
  private keepBody(entry: LogEntry, body: unknown): void {
    const redacted = this.redact(body, 0);
    const text = JSON.stringify(redacted) ?? "null";
    let chars = text.length;
    if (chars > LOG_BODY_CHARS) {
      entry.bodyTruncated = text.slice(0, LOG_BODY_CHARS);
      chars = LOG_BODY_CHARS;
    } else {
      entry.body = redacted;
    }
    this.withBody.push({ entry, chars });
    this.bodyChars += chars;
    while (this.bodyChars > this.budget && this.bodyHead < this.withBody.length) {
      const old = this.withBody[this.bodyHead++]!;
      delete old.entry.body;
      delete old.entry.bodyTruncated;
      old.entry.bodyDropped = true;
      this.bodyChars -= old.chars;
    }
    if (this.bodyHead > 1024 && this.bodyHead * 2 > this.withBody.length) {
      this.withBody = this.withBody.slice(this.bodyHead);
      this.bodyHead = 0;
    }
  }

  private redact(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.redactString(value);
    if (value === null || typeof value !== "object") return value;
    if (depth >= MAX_DEPTH) return "[too deep]";
    if (Array.isArray(value)) return value.map((v) => this.redact(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      out[this.redactString(k)] = SECRET_FIELD.test(k) && v !== null ? REDACTED : this.redact(v, depth + 1);
    return out;
  }

  private redactString(s: string): string {
    let out = s.replace(SECRET_VALUE, REDACTED);
    for (const secret of this.secrets) if (secret && out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }
}

/** Percent-decoded (`+` as a space, as forms send it); the text itself when it is not valid encoding. */
function urlDecoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}
