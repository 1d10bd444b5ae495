/**
 * One HTTP exchange over undici: JSON in, zod-validated JSON out, every failure mapped to a
 * `GuardrailsError`. Redirects are never followed. Retries are `retry.ts`'s business.
 */
import { Agent, type Dispatcher, request } from "undici";
import type { z } from "zod";
import { apiError, ConnectionError, type GuardrailsError, redact, redactUrl, ResponseShapeError, TimeoutError } from "./errors";
import { parseRetryAfter } from "./retry";
import { wireErrorBody } from "../schema/wire";

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  /** @default a keep-alive Agent owned by this transport */
  dispatcher?: Dispatcher;
  /** Per-request timeout for headers and body, in ms. @default 30000 */
  timeoutMs?: number;
  userAgent?: string;
}

export interface Exchange<T> {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
}

/** Error codes that mean the request never left this machine. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "UND_ERR_CONNECT_TIMEOUT", "EADDRNOTAVAIL"]);
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

export class Transport {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;

  constructor(private readonly options: TransportOptions) {
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 16 });
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async send<T>(ex: Exchange<T>): Promise<T> {
    const url = new URL(`${this.options.baseUrl}/api/v1${ex.path}`);
    for (const [k, v] of Object.entries(ex.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const shownUrl = redactUrl(url.toString());
    const ctx = { method: ex.method, url: shownUrl };
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        method: ex.method,
        dispatcher: this.dispatcher,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: "application/json",
          "user-agent": this.options.userAgent ?? "pulumi-guardrails",
          ...(ex.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(ex.body === undefined ? {} : { body: JSON.stringify(ex.body) }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
    } catch (cause) {
      throw this.noAnswer(cause, ctx);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (cause) {
      throw this.noAnswer(cause, ctx);
    }
    if (res.statusCode >= 300) throw this.errorFromBody(res.statusCode, text, res.headers, ctx);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new ResponseShapeError(res.statusCode, "response is not JSON", { ...ctx, cause });
    }
    const parsed = ex.schema.safeParse(json);
    if (!parsed.success) {
      const detail = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
      throw new ResponseShapeError(res.statusCode, `unexpected response shape (${detail})`, ctx);
    }
    return parsed.data;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private errorFromBody(status: number, text: string, headers: Dispatcher.ResponseData["headers"], ctx: { method: string; url: string }): GuardrailsError {
    let serverMessage: string | undefined;
    let metadata: Record<string, unknown> | null | undefined;
    try {
      const body = wireErrorBody.safeParse(JSON.parse(text));
      if (body.success) ({ message: serverMessage, metadata } = body.data.error);
    } catch {
      serverMessage = text.slice(0, 200) || undefined;
    }
    const retryAfterSeconds = parseRetryAfter(headers["retry-after"]);
    return apiError(status, {
      ...ctx,
      ...(serverMessage === undefined ? {} : { serverMessage: redact(serverMessage, this.options.apiKey) }),
      ...(metadata === undefined ? {} : { metadata }),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }

  private noAnswer(cause: unknown, ctx: { method: string; url: string }): GuardrailsError {
    const codes = errorCodes(cause);
    if (codes.some((c) => TIMEOUTS.has(c))) return new TimeoutError(0, `no answer within ${this.timeoutMs} ms; the request may have been applied`, { ...ctx, cause });
    const requestSent = !codes.some((c) => NOT_SENT.has(c));
    const what = requestSent ? "connection lost before an answer; the request may have been applied" : "could not connect; nothing was sent";
    return new ConnectionError(`${what} (${codes.join(", ") || "unknown error"})`, { ...ctx, cause, requestSent });
  }
}

/** The `code`s along an error's cause chain (undici wraps socket errors). */
function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
  }
  return codes;
}
