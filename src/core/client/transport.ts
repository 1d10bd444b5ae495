/**
 * One HTTP exchange over undici: JSON in, zod-validated JSON out, every failure mapped to a
 * `GuardrailsError`. Redirects are never followed. Retries are `retry.ts`'s business.
 *
 * Bounded against a broken or hostile server: one deadline covers the whole exchange
 * (connect, headers and every byte of the body, not undici's gap between chunks), a body
 * is read up to a cap while it streams, and everything the server says is redacted before it
 * is cut or kept on an error.
 */
import type { Agent as AgentClass, Dispatcher } from "undici";
import type { z } from "zod";
import {
  apiError,
  ConnectionError,
  GuardrailsError,
  ResponseShapeError,
  ResponseTooLargeError,
  TimeoutError,
} from "./errors";
import { readCapped } from "./read-body";
import { redactCause, redactUrl, redactValue, serverText } from "./redaction";
import { parseRetryAfter } from "./retry";
import { visible } from "../text/terminal";
import { wireErrorBody } from "./wire";

// undici's entry point also loads fetch, WebSocket, caches and mocks, half of a fresh provider's
// load (issue 43); only these two are needed (test/unit/transport-load.test.ts: if undici moves them).
const Agent = require("undici/lib/dispatcher/agent") as typeof AgentClass;
const request = require("undici/lib/api/api-request") as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

/** Default whole-request deadline, ms. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Default cap on a successful response body: a full page of large guardrails fits many times. */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
/** An error body is read only this far: its message is all the client uses. */
export const ERROR_BODY_BYTES = 64 * 1024;

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  /** @default a keep-alive Agent owned by this transport */
  dispatcher?: Dispatcher;
  /** Deadline of a whole request (connect, headers and the complete body), in ms. @default 30000 */
  timeoutMs?: number;
  /** Largest successful response body read, in bytes; past it the call fails. @default 8 MiB */
  maxResponseBytes?: number;
  userAgent?: string;
}

export interface Exchange<T> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  /** The path as errors show it, when `path` holds what a message must not (a key hash). @default path */
  shownPath?: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
  /** Told the size in bytes of a successful body before it is parsed (a paged read counts its pages' bytes). */
  onBytes?: (bytes: number) => void;
}

interface Ctx {
  method: string;
  url: string;
}

/** Error codes that mean the request never left this machine. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "EADDRNOTAVAIL",
]);
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/** The reason the deadline aborts with, told apart from any other abort. */
class DeadlinePassed extends Error {}

export class Transport {
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;

  constructor(private readonly options: TransportOptions) {
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 16 });
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  async send<T>(ex: Exchange<T>): Promise<T> {
    const url = new URL(`${this.options.baseUrl}/api/v1${ex.path}`);
    for (const [k, v] of Object.entries(ex.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const shown =
      ex.shownPath === undefined ? url : new URL(`${this.options.baseUrl}/api/v1${ex.shownPath}${url.search}`);
    const ctx: Ctx = { method: ex.method, url: redactUrl(shown.toString()) };
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new DeadlinePassed()), this.timeoutMs);
    let status: number | undefined;
    try {
      const res = await request.call(this.dispatcher, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: ex.method,
        signal: deadline.signal,
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
      status = res.statusCode;
      const failed = res.statusCode >= 300;
      const body = await readCapped(
        res.body,
        failed ? ERROR_BODY_BYTES : this.maxResponseBytes,
        res.headers["content-length"],
      );
      if (failed) throw this.errorFromBody(res.statusCode, body.text, res.headers, ctx);
      if (body.truncated) {
        const size =
          body.announced === undefined ? `more than ${this.maxResponseBytes} bytes` : `${body.announced} bytes`;
        throw new ResponseTooLargeError(
          res.statusCode,
          `the response body is ${size}, over the client's cap of ${this.maxResponseBytes} bytes; reading stopped there`,
          ctx,
        );
      }
      ex.onBytes?.(Buffer.byteLength(body.text));
      return this.parse(res.statusCode, body.text, ex.schema, ctx);
    } catch (err) {
      if (err instanceof GuardrailsError) throw err;
      throw this.noAnswer(err, ctx, status, deadline.signal.aborted);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private parse<T>(status: number, text: string, schema: z.ZodType<T>, ctx: Ctx): T {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // Not the parser's own error as cause: its message quotes the text around the fault, and a
      // quoted head of a key is beyond what `redact` can recognise.
      throw new ResponseShapeError(status, "response is not JSON", {
        ...ctx,
        cause: new SyntaxError(`the ${text.length}-character body is not valid JSON`),
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      const detail = parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
        .join("; ");
      const issues = parsed.error.issues.map((i) => ({
        path: i.path,
        code: i.code,
        message: visible(serverText(i.message, this.options.apiKey), 1000),
      }));
      // An issue may quote what the server sent (an id not shaped like one): neutralised like any server text.
      const shown = visible(serverText(detail, this.options.apiKey), 1000);
      throw new ResponseShapeError(status, `unexpected response shape (${shown})`, {
        ...ctx,
        issues,
      });
    }
    return parsed.data;
  }

  private errorFromBody(
    status: number,
    text: string,
    headers: Dispatcher.ResponseData["headers"],
    ctx: Ctx,
  ): GuardrailsError {
    const key = this.options.apiKey;
    let serverMessage: string | undefined;
    let metadata: Record<string, unknown> | null | undefined;
    try {
      const body = wireErrorBody.safeParse(JSON.parse(text));
      if (body.success) ({ message: serverMessage, metadata } = body.data.error);
    } catch {
      // Not JSON: the text itself, redacted before `serverText` cuts it (a key straddling the cut would leak its head).
      serverMessage = text || undefined;
    }
    const retryAfterSeconds = parseRetryAfter(headers["retry-after"]);
    const shownMessage = serverMessage === undefined ? "" : serverText(serverMessage, key, 200);
    return apiError(status, {
      ...ctx,
      ...(shownMessage ? { serverMessage: shownMessage } : {}),
      ...(metadata === undefined ? {} : { metadata: redactValue(metadata, key) as Record<string, unknown> | null }),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }

  /** No complete answer: a timeout or a lost connection, worded for what the method may have done. */
  private noAnswer(err: unknown, ctx: Ctx, status: number | undefined, deadlinePassed: boolean): GuardrailsError {
    const cause = redactCause(err, this.options.apiKey);
    const codes = errorCodes(err);
    const write = ctx.method !== "GET";
    const outcome = !write
      ? "nothing was changed (a GET only reads)"
      : status !== undefined && status < 300
        ? `the service answered ${status}, so the request was applied`
        : "the request may have been applied";
    if (deadlinePassed || codes.some((c) => TIMEOUTS.has(c))) {
      const got = status === undefined ? "no answer" : `status ${status} but not the whole body`;
      return new TimeoutError(0, `${got} within the ${this.timeoutMs} ms deadline; ${outcome}`, {
        ...ctx,
        ...(cause ? { cause } : {}),
      });
    }
    const requestSent = !codes.some((c) => NOT_SENT.has(c));
    const what = requestSent
      ? `connection lost before a complete answer; ${outcome}`
      : "could not connect; nothing was sent";
    return new ConnectionError(`${what} (${codes.join(", ") || "unknown error"})`, {
      ...ctx,
      ...(cause ? { cause } : {}),
      requestSent,
    });
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
