/**
 * The emulator's HTTP server (node:http): routing, auth, faults and the error body for the
 * API under `/api/v1`; `/__emulator/` goes to admin.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { adminHandler } from "./admin";
import { KeyRing } from "./auth";
import { Faults, type FaultSettings } from "./faults";
import { HttpError } from "./http-error";
import { KEYS, MEMBERS, Operations } from "./operations";
import { REQUEST_LOG_CAP, RequestLog } from "./request-log";
import { isWrite, matchRoute, type OperationName } from "./routes";
import { drain, readJson, sendError, sendJson, sleep } from "./http-io";
import { Store, type SeedData } from "./store";
import { bulkBody, createBody, pageQuery, parseOr400, requireUuid, updateBody } from "./validation";

export interface ServerOptions {
  managementKeys: string[];
  plainKeys: string[];
  seed: SeedData;
  stateFile?: string;
  maxBulk: number;
  maxBodyBytes: number;
  faults: Partial<FaultSettings>;
  /** Print one line per API call (method, path, status; never a header). */
  logRequests: boolean;
}

export interface EmulatorServer {
  server: Server;
  store: Store;
  ops: Operations;
  faults: Faults;
  log: RequestLog;
  listen(port: number, host: string): Promise<string>;
}

const API_PREFIX = "/api/v1";

export function createEmulatorServer(options: ServerOptions): EmulatorServer {
  const store = Store.open(options.seed, options.stateFile);
  const faults = new Faults(options.faults);
  const ops = new Operations(store, faults.settings.shortPages);
  const keys = new KeyRing(options.managementKeys, options.plainKeys);
  const log = new RequestLog(REQUEST_LOG_CAP, [...options.managementKeys, ...options.plainKeys]);

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? "GET";
    const path = url.pathname.slice(API_PREFIX.length) || "/";
    let operation: OperationName | null = null;
    let delayedMs = 0;
    let loggedBody: unknown;
    const record = (status: number, fault?: "dropped" | "rate-limit" | "server-error" | "conflict") => {
      log.add({ method, path: url.pathname, query: url.search, operation, status, ...(fault ? { fault } : {}), ...(delayedMs ? { delayedMs } : {}), ...(loggedBody !== undefined ? { body: loggedBody } : {}) });
      if (options.logRequests) process.stdout.write(`${method} ${url.pathname}${url.search} -> ${fault === "dropped" ? "dropped" : status}\n`);
    };
    try {
      const route = matchRoute(method, path);
      if (route.operation === null) {
        if (route.allowed.length > 0) throw new HttpError(405, `method ${method} not allowed; use ${route.allowed.join(", ")}`, null, { Allow: route.allowed.join(", ") });
        throw new HttpError(404, `no route for ${method} ${url.pathname}`);
      }
      operation = route.operation;
      const credential = keys.identify(req.headers.authorization);
      if (credential === null) throw new HttpError(401, "missing, malformed or unknown API key; send Authorization: Bearer <key>");
      if (credential !== "management") throw new HttpError(403, "a management key is required for guardrail operations");
      if (faults.settings.latencyMs > 0) await sleep((delayedMs = faults.settings.latencyMs));
      const decision = faults.before();
      if (decision.kind === "rate-limit") {
        loggedBody = parsedOrUndefined(await drain(req, options.maxBodyBytes).catch(() => ""));
        sendError(res, new HttpError(429, "rate limited; retry after the Retry-After interval", null, { "Retry-After": String(decision.retryAfter) }));
        return record(429, "rate-limit");
      }
      if (decision.kind === "server-error") {
        loggedBody = parsedOrUndefined(await drain(req, options.maxBodyBytes).catch(() => ""));
        sendError(res, new HttpError(decision.status, "injected fault: the service failed to answer"));
        return record(decision.status, "server-error");
      }
      const body = method === "GET" || method === "DELETE" ? undefined : await readJson(req, options.maxBodyBytes);
      loggedBody = body;
      const result = run(operation, route.id, body, url.searchParams);
      if (isWrite(method) && faults.dropAfterApply()) {
        // The write is applied; the answer is lost. The ambiguous failure real networks produce.
        req.socket.destroy();
        return record(0, "dropped");
      }
      const status = operation === "createGuardrail" ? 201 : 200;
      sendJson(res, status, result);
      record(status);
    } catch (err) {
      const e = err instanceof HttpError ? err : new HttpError(500, "internal error");
      if (!(err instanceof HttpError)) process.stderr.write(`emulator: internal error on ${method} ${url.pathname}: ${(err as Error).stack}\n`);
      sendError(res, e);
      record(e.status, e.status === 409 ? "conflict" : undefined);
    }
  }

  function run(operation: OperationName, rawId: string | undefined, body: unknown, query: URLSearchParams): unknown {
    const id = rawId === undefined ? undefined : requireUuid(rawId, "id");
    const page = () => parseOr400(pageQuery, { offset: query.get("offset") ?? undefined, limit: query.get("limit") ?? undefined });
    const guardrailId = () => id as string;
    switch (operation) {
      case "listGuardrails": {
        const { offset, limit } = page();
        const ws = query.get("workspace_id") ?? undefined;
        return ops.listGuardrails(ws === undefined ? undefined : requireUuid(ws, "workspace_id"), offset, limit);
      }
      case "createGuardrail":
        return { data: ops.createGuardrail(parseOr400(createBody, body)) };
      case "getGuardrail":
        return { data: ops.getGuardrail(guardrailId()) };
      case "updateGuardrail": {
        // 400, then 404, then the injected 409: a conflict is only ever spent on an update that would apply.
        const update = parseOr400(updateBody, body);
        ops.getGuardrail(guardrailId());
        if (faults.conflictOnUpdate()) throw new HttpError(409, `guardrail ${guardrailId()} was changed by another request; fetch it and try again`);
        return { data: ops.updateGuardrail(guardrailId(), update) };
      }
      case "deleteGuardrail":
        ops.deleteGuardrail(guardrailId());
        return { deleted: true };
      case "listGuardrailKeyAssignments":
      case "listAllKeyAssignments": {
        const { offset, limit } = page();
        return ops.listAssignments(KEYS, id, offset, limit);
      }
      case "listGuardrailMemberAssignments":
      case "listAllMemberAssignments": {
        const { offset, limit } = page();
        return ops.listAssignments(MEMBERS, id, offset, limit);
      }
      case "assignKeys":
        return { assigned_count: ops.assign(KEYS, guardrailId(), bulk("key_hashes", body)) };
      case "unassignKeys":
        return { unassigned_count: ops.unassign(KEYS, guardrailId(), bulk("key_hashes", body)) };
      case "assignMembers":
        return { assigned_count: ops.assign(MEMBERS, guardrailId(), bulk("member_user_ids", body)) };
      case "unassignMembers":
        return { unassigned_count: ops.unassign(MEMBERS, guardrailId(), bulk("member_user_ids", body)) };
    }
  }

  function bulk(field: "member_user_ids" | "key_hashes", body: unknown): string[] {
    return (parseOr400(bulkBody(field, options.maxBulk), body) as Record<string, string[]>)[field] ?? [];
  }

  const handleAdmin = adminHandler({ store, faults, ops, log, seed: options.seed, initialFaults: options.faults });

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator.invalid");
    } catch {
      return sendError(res, new HttpError(400, "malformed request URL"));
    }
    const handler = url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`) ? handleApi : url.pathname.startsWith("/__emulator/") ? handleAdmin : null;
    if (!handler) return sendError(res, new HttpError(404, `no route for ${req.method} ${url.pathname}`));
    handler(req, res, url).catch((err) => {
      process.stderr.write(`emulator: ${(err as Error).stack}\n`);
      if (!res.headersSent) sendError(res, new HttpError(500, "internal error"));
    });
  });
  server.keepAliveTimeout = 30_000;

  return {
    server,
    store,
    ops,
    faults,
    log,
    listen: (port, host) =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
          resolve(`http://${shown}:${address.port}`);
        });
      }),
  };
}

/** A drained body for the log: its JSON value, or nothing when it is not JSON. */
function parsedOrUndefined(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
