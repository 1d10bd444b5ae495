/**
 * The emulator's HTTP server (node:http): the API under `/api/v1` goes to api.ts, and
 * `/__emulator/` to admin.ts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { adminHandler } from "./admin";
import { API_PREFIX, apiHandler } from "./api";
import { KeyRing } from "./auth";
import { Faults, type FaultSettings } from "./faults";
import { HttpError } from "./http-error";
import { sendError } from "./http-io";
import { LegacyMapping } from "./legacy-mapping";
import { Operations } from "./operations";
import { policyServices } from "./policy-dispatch";
import { REQUEST_LOG_CAP, RequestLog } from "./request-log";
import { Store, type SeedData } from "./store";

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

export function createEmulatorServer(options: ServerOptions): EmulatorServer {
  const store = Store.open(options.seed, options.stateFile);
  const faults = new Faults(options.faults);
  const ops = new Operations(store, faults.settings.shortPages);
  const keys = new KeyRing(options.managementKeys, options.plainKeys);
  const log = new RequestLog(REQUEST_LOG_CAP, [...options.managementKeys, ...options.plainKeys]);

  const policies = policyServices(store);
  const legacy = new LegacyMapping(store, policies.policies, ops.workspaces);

  const handleApi = apiHandler({
    keys,
    faults,
    log,
    options,
    dispatchContext: { ops, faults, maxBulk: options.maxBulk, policies, legacy },
  });
  const handleAdmin = adminHandler({
    store,
    faults,
    ops,
    log,
    keys,
    policies,
    seed: options.seed,
    initialFaults: options.faults,
  });

  const server = createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://emulator.invalid");
    } catch {
      return sendError(res, new HttpError(400, "malformed request URL"));
    }
    const handler =
      url.pathname === API_PREFIX || url.pathname.startsWith(`${API_PREFIX}/`)
        ? handleApi
        : url.pathname.startsWith("/__emulator/")
          ? handleAdmin
          : null;
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
