/** The options of `GuardrailsClient` (client.ts), apart so the class stays readable. */
import type { Dispatcher } from "undici";
import type { Budget } from "./budget";
import type { RetryHooks, RetryOptions } from "./retry";
import { MAX_LIST_ROWS } from "./pagination";

/** How a `GuardrailsClient` reaches the service: address, key, and the bounds on each call. */
export interface GuardrailsClientOptions {
  /** Service address without `/api/v1`; https unless loopback. */
  baseUrl: string;
  /** Bearer key (a management key for guardrail operations). Never logged. */
  apiKey: string;
  /** undici dispatcher, for tests or proxies. @default a keep-alive Agent */
  dispatcher?: Dispatcher;
  /** Deadline of each request as a whole (connect, headers, the complete body), in ms. @default 30000 */
  timeoutMs?: number;
  /** Largest successful response body read, in bytes. @default 8 MiB */
  maxResponseBytes?: number;
  /** Most rows any one list may hold before paging stops with an error; replaces each list's own bound. @default LIST_ROWS in client.ts: 10,000 workspaces, guardrails or policies of a kind, 100,000 assignments */
  maxListRows?: number;
  /** Most bytes of responses one list read may take, over all its pages (a read may walk a list more than once); past it the read stops with a `PaginationError`. @default 256 MiB */
  maxListBytes?: number;
  /** Retry policy. @default DEFAULT_RETRY (5 attempts) */
  retry?: Partial<RetryOptions>;
  /** Test hooks for the retry loop (sleep, random, onRetry). */
  retryHooks?: RetryHooks;
  /** Page size of list calls, 1..100. @default 100 */
  pageSize?: number;
  /** The budget of requests in flight this client shares; it also sets the pages of a list in flight. @default processBudget, one per process */
  budget?: Budget;
}

/**
 * Most rows each list may hold by default: what its operation can need, with room (issue 38).
 * An organization has a few workspaces and guardrails per workspace, and members and keys in
 * the thousands; issue 29's bench reads 100,000 of them. A count past the bound stops the read
 * at its first page. `maxListRows` replaces these; a call's own `maxRows` can only lower them.
 */
export const LIST_ROWS = {
  workspaces: 10_000,
  guardrails: 10_000,
  policies: 10_000,
  assignments: MAX_LIST_ROWS,
} as const;

/** Bounds of one list call. */
export interface ListOptions {
  /** Most rows this call may need; a count above it stops the read. @default the list's bound (LIST_ROWS, or the client's maxListRows) */
  maxRows?: number;
}
