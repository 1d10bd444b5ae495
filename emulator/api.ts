/**
 * The API under `/api/v1`: routing, auth, faults and the error body; every call recorded in
 * the request log (bodies redacted there).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { KeyRing } from "./auth";
import { dispatch, type DispatchContext } from "./dispatch";
import type { Faults } from "./faults";
import { HttpError } from "./http-error";
import { drain, readJson, sendError, sendJson, sleep } from "./http-io";
import type { RequestLog } from "./request-log";
import { isCreate } from "./policy-routes";
import { isWrite, matchRoute, type OperationName } from "./routes";

export const API_PREFIX = "/api/v1";

export interface ApiContext {
  keys: KeyRing;
  faults: Faults;
  log: RequestLog;
  options: { maxBodyBytes: number; logRequests: boolean };
  dispatchContext: DispatchContext;
}

export function apiHandler({ keys, faults, log, options, dispatchContext }: ApiContext) {
  return async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const receivedAt = Date.now();
    const method = req.method ?? "GET";
    const path = url.pathname.slice(API_PREFIX.length) || "/";
    let operation: OperationName | null = null;
    let delayedMs = 0;
    let loggedBody: unknown;
    const record = (status: number, fault?: "dropped" | "rate-limit" | "server-error" | "conflict") => {
      const entry = log.add({
        method,
        path: url.pathname,
        query: url.search,
        operation,
        status,
        receivedAt,
        ...(fault ? { fault } : {}),
        ...(delayedMs ? { delayedMs } : {}),
        ...(loggedBody !== undefined ? { body: loggedBody } : {}),
      });
      // The redacted URL: a key sent in a path or a query stays out of the output too.
      if (options.logRequests)
        process.stdout.write(`${method} ${entry.path}${entry.query} -> ${fault === "dropped" ? "dropped" : status}\n`);
    };
    try {
      const route = matchRoute(method, path);
      if (route.operation === null) {
        if (route.allowed.length > 0)
          throw new HttpError(405, `method ${method} not allowed; use ${route.allowed.join(", ")}`, null, {
            Allow: route.allowed.join(", "),
          });
        throw new HttpError(404, `no route for ${method} ${url.pathname}`);
      }
      operation = route.operation;
      const credential = keys.identity(req.headers.authorization);
      if (credential === null)
        throw new HttpError(401, "missing, malformed or unknown API key; send Authorization: Bearer <key>");
      if (credential.kind !== "management")
        throw new HttpError(403, "a management key is required for guardrail operations");
      if (faults.settings.latencyMs > 0) delayedMs = faults.settings.latencyMs;
      if (delayedMs > 0) await sleep(delayedMs);
      const fault = faultBefore(faults, operation);
      if (fault.answer) {
        loggedBody = parsedOrUndefined(await drain(req, options.maxBodyBytes).catch(() => ""));
        sendError(res, fault.answer);
        return record(fault.answer.status, fault.answer.status === 429 ? "rate-limit" : "server-error");
      }
      const body = method === "GET" || method === "DELETE" ? undefined : await readJson(req, options.maxBodyBytes);
      loggedBody = body;
      const result = dispatch(dispatchContext, operation, route.id, body, url.searchParams, credential.workspace);
      if (fault.drop || (isWrite(method) && faults.dropAfterApply())) {
        // The write is applied; the answer is lost. The ambiguous failure real networks produce.
        req.socket.destroy();
        return record(0, "dropped");
      }
      const status = isCreate(operation) ? 201 : 200;
      sendJson(res, status, result);
      record(status);
    } catch (err) {
      const e = err instanceof HttpError ? err : new HttpError(500, "internal error");
      if (!(err instanceof HttpError))
        process.stderr.write(
          `emulator: internal error on ${method} ${log.redactPath(url.pathname)}: ${(err as Error).stack}\n`,
        );
      sendError(res, e);
      record(e.status, e.status === 409 ? "conflict" : undefined);
    }
  };
}

/**
 * What the faults do to a call before it is applied: an answer instead of applying it (a
 * scripted 5xx, a 429 of a burst, a random 5xx), or, for a scripted drop, that its answer is
 * lost after it is applied. A scripted fault replaces the random ones for that call.
 */
function faultBefore(faults: Faults, operation: OperationName): { answer?: HttpError; drop?: boolean } {
  const scripted = faults.scripted(operation);
  if (typeof scripted === "number") return { answer: new HttpError(scripted, INJECTED) };
  if (scripted === "drop") return { drop: true };
  const decision = faults.before();
  if (decision.kind === "rate-limit")
    return {
      answer: new HttpError(429, "rate limited; retry after the Retry-After interval", null, {
        "Retry-After": String(decision.retryAfter),
      }),
    };
  return decision.kind === "server-error" ? { answer: new HttpError(decision.status, INJECTED) } : {};
}

const INJECTED = "injected fault: the service failed to answer";

/** A drained body for the log: its JSON value, or nothing when it is not JSON. */
function parsedOrUndefined(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
