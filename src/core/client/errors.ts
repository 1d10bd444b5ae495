/**
 * One error factory for the API: `apiError(status, ...)` picks the subclass. Every error
 * carries the status, method, a redacted URL, the server's message and the cause; none
 * ever carries the API key (redaction.ts).
 */
import { visible } from "../text/terminal";
import { UserError } from "../user-error";

/**
 * Longest server message shown on an error once neutralised: the redacted, cut message
 * (redaction.ts `serverText`) with room for its escapes.
 */
const SHOWN_SERVER_MESSAGE = 400;

/**
 * Longest URL a message shows: a path may carry an id the program or an import gave (2 KB of
 * it, say), which the message need not repeat whole; the error's `url` keeps it all.
 */
const SHOWN_URL = 200;

/** What every API error carries besides its status and summary. */
export interface ErrorContext {
  method: string;
  /** Already redacted with `redactUrl`. */
  url: string;
  /** The server's `error.message` (redacted), when it sent one; the error keeps it neutralised (text/terminal.ts). */
  serverMessage?: string;
  /** The server's `error.metadata`, when it sent one. */
  metadata?: Record<string, unknown> | null;
  /** Seconds from a `Retry-After` header. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/** Base class of every error the client raises; a failure meant for a person, like every `UserError`. */
export class GuardrailsError extends UserError {
  /** HTTP status, or 0 when no answer came. */
  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly serverMessage: string | undefined;
  readonly metadata: Record<string, unknown> | null | undefined;

  constructor(status: number, summary: string, ctx: ErrorContext) {
    // Whatever the server said is shown only neutralised: no escape, bidi or zero-width character reaches a terminal.
    const said = ctx.serverMessage ? visible(ctx.serverMessage, SHOWN_SERVER_MESSAGE) : undefined;
    super(
      `${ctx.method} ${visible(ctx.url, SHOWN_URL)}: ${summary}${said ? `: ${said}` : ""}`,
      ctx.cause === undefined ? undefined : { cause: ctx.cause },
    );
    this.status = status;
    this.method = ctx.method;
    this.url = ctx.url;
    this.serverMessage = said;
    this.metadata = ctx.metadata;
  }

  /**
   * A new error of the same class and details whose message is `message`, with this one as its
   * `cause`: callers add context by wrapping, never by editing an error they did not make.
   */
  wrap(message: string): this {
    const copy = Object.assign(Object.create(Object.getPrototypeOf(this) as object) as this, this);
    Object.defineProperty(copy, "message", { value: message, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(copy, "cause", { value: this, writable: true, configurable: true, enumerable: false });
    Object.defineProperty(copy, "stack", {
      value: `${this.name}: ${message}\n${(this.stack ?? "").split("\n").slice(1).join("\n")}`,
      writable: true,
      configurable: true,
      enumerable: false,
    });
    return copy;
  }
}

/** 400: the request broke a rule; the message names the field. */
export class ValidationError extends GuardrailsError {}
/** 401: missing, malformed or unknown key. */
export class AuthenticationError extends GuardrailsError {}
/** 403: a valid key that may not do this (not a management key). */
export class PermissionError extends GuardrailsError {}
/** 404: no such guardrail. */
export class NotFoundError extends GuardrailsError {}
/**
 * 409: the service refused an update because of a conflicting change (docs/api-contract.md
 * rule 15). Not retried: the same PATCH would meet the same conflict; read, then apply again.
 */
export class ConflictError extends GuardrailsError {}
/**
 * 409 of a per-subject policy assignment change (docs/api-contract.md rule 25): the subject's
 * assignment is no longer what `expected_assignment` said, so nothing was changed. The message
 * names the subject only as its caller allowed (policies.ts, `PolicySubject.showId`), and then
 * keeps the server's words and the original error as `cause`; otherwise neither, since either may
 * echo a member id or key hash a program holds secret.
 */
export class AssignmentConflictError extends ConflictError {
  constructor(
    summary: string,
    ctx: ErrorContext,
    /** Which kind of subject, the policy's `policy_type` and id (never the subject's id). */
    readonly subject: "member" | "key",
    readonly policyType: string,
    readonly policyId: string,
  ) {
    super(409, summary, ctx);
  }
}
/** 429: rate limited; `retryAfterSeconds` from the header. */
export class RateLimitError extends GuardrailsError {
  readonly retryAfterSeconds: number | undefined;
  constructor(status: number, summary: string, ctx: ErrorContext) {
    super(status, summary, ctx);
    this.retryAfterSeconds = ctx.retryAfterSeconds;
  }
}
/** 5xx (and 408): the service failed. */
export class ServerError extends GuardrailsError {}
/** Any other unexpected status (3xx redirects included: they are never followed). */
export class UnexpectedStatusError extends GuardrailsError {}
/** One thing a response schema found wrong: where, and what (never the value itself). */
export interface ShapeIssue {
  path: PropertyKey[];
  code: string;
  message: string;
}
/** A 2xx whose body is not what the contract says; `issues` holds what the schema found. */
export class ResponseShapeError extends GuardrailsError {
  readonly issues: readonly ShapeIssue[];
  constructor(status: number, summary: string, ctx: ErrorContext & { issues?: readonly ShapeIssue[] }) {
    super(status, summary, ctx);
    this.issues = ctx.issues ?? [];
  }
}
/**
 * No answer. `requestSent` is false only when the connection failed before any byte of the
 * request left (refused, unresolvable): the one case in which a create may be retried.
 */
export class ConnectionError extends GuardrailsError {
  readonly requestSent: boolean;
  constructor(summary: string, ctx: ErrorContext & { requestSent: boolean }) {
    super(0, summary, ctx);
    this.requestSent = ctx.requestSent;
  }
}
/** No complete answer within the request's deadline; its message says whether a write may have been applied. */
export class TimeoutError extends GuardrailsError {}
/** A response body larger than the client's cap: reading stopped there (a broken or hostile server). */
export class ResponseTooLargeError extends GuardrailsError {}
/** A list whose pages cannot be right (no new rows, a page longer than asked, an impossible count): paging stopped. */
export class PaginationError extends GuardrailsError {}

const STATUS_TEXT: Record<number, string> = {
  400: "400 Bad Request",
  401: "401 Unauthorized",
  403: "403 Forbidden",
  404: "404 Not Found",
  409: "409 Conflict",
  408: "408 Request Timeout",
  429: "429 Too Many Requests",
};

/** The factory: the right subclass for a status. */
export function apiError(status: number, ctx: ErrorContext): GuardrailsError {
  const summary = STATUS_TEXT[status] ?? `HTTP ${status}`;
  if (status === 400) return new ValidationError(status, summary, ctx);
  if (status === 401) return new AuthenticationError(status, `${summary} (check the API key)`, ctx);
  if (status === 403) return new PermissionError(status, `${summary} (a management key is required)`, ctx);
  if (status === 404) return new NotFoundError(status, summary, ctx);
  if (status === 409)
    return new ConflictError(
      status,
      `${summary} (the guardrail changed meanwhile; run \`pulumi refresh\`, then \`pulumi up\` again)`,
      ctx,
    );
  if (status === 429) return new RateLimitError(status, summary, ctx);
  if (status === 408 || status >= 500) return new ServerError(status, summary, ctx);
  if (status >= 300 && status < 400)
    return new UnexpectedStatusError(
      status,
      `${summary} (redirects are not followed, so the key never leaves the configured host)`,
      ctx,
    );
  return new UnexpectedStatusError(status, summary, ctx);
}

/** Thrown instead of reporting a resource gone when the 404 cannot be trusted. */
export class UntrustedNotFoundError extends UserError {
  constructor(
    message: string,
    /** How the message names the resource (confirm-gone.ts `GoneQuestion.what`), for a shorter repeat. */
    readonly what: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
