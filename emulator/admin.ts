/**
 * Admin endpoints under `/__emulator/` (never under `/api/v1`): the request log, reset, fault
 * settings, a state dump, adding members or key hashes, adding and removing workspaces, and
 * reshaping a stored guardrail by hand; the policy ones (enforcement, workspace-scoped keys, key
 * facts) are in admin-policies.ts.
 * For tests and demos.
 *
 * Every call must carry `x-guardrails-emulator: 1`, and every call that changes something a
 * JSON body: a web page the developer opens can send neither without a CORS preflight, which
 * the emulator never answers, so no page can reset or reconfigure a local emulator.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { NO_FAULTS, type Faults, type FaultSettings } from "./faults";
import { HttpError } from "./http-error";
import { readJson, sendError, sendJson } from "./http-io";
import type { Operations } from "./operations";
import { policyAdminRoute, type PolicyAdminDeps } from "./admin-policies";
import { freshData, type SeedData } from "./store";
import { reshapeGuardrail, reshapeBody } from "./reshape";
import { OPERATION_NAMES } from "./routes";
import { parseOr400, requireUuid } from "./validation";

interface AdminDeps extends PolicyAdminDeps {
  faults: Faults;
  ops: Operations;
  seed: SeedData;
  /** The fault settings the emulator started with (what reset returns to). */
  initialFaults: Partial<FaultSettings>;
}

/** Body of `POST /__emulator/workspaces`: a workspace with the given name and slug (the id is made when absent). */
const workspaceBody = z
  .object({
    id: z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
      .optional(),
    name: z.string().min(1).max(200),
    slug: z.string().min(1).max(100),
    description: z.string().max(1000).nullable().optional(),
  })
  .strict();

/** A `PUT /__emulator/faults` body: any of the settings (faults.ts). */
const faultPatch = z
  .object({
    seed: z.number().int(),
    errorRate: z.number().min(0).max(1),
    rateLimitRate: z.number().min(0).max(1),
    rateLimitBurst: z.number().int().min(1),
    retryAfterSeconds: z.number().int().min(0),
    latencyMs: z.number().min(0),
    dropAfterApplyRate: z.number().min(0).max(1),
    shortPages: z.boolean(),
    updateConflicts: z.number().int().min(0),
    script: z
      .array(
        z
          .object({
            operation: z.enum(OPERATION_NAMES),
            fault: z.union([z.literal("drop"), z.literal(500), z.literal(502), z.literal(503)]),
            times: z.number().int().min(1).max(1000).optional(),
          })
          .strict(),
      )
      .max(100),
  })
  .partial()
  .strict();

/** The header every admin call must carry, with the value `1`. */
export const ADMIN_HEADER = "x-guardrails-emulator";
/** Admin bodies may be large (a benchmark adds 10,000 members at once). */
const ADMIN_BODY_BYTES = 64 * 1024 * 1024;

export function adminHandler(deps: AdminDeps) {
  const { store, faults, ops, log, seed, initialFaults } = deps;
  return async function handleAdmin(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = `${req.method} ${url.pathname}`;
    try {
      if (req.headers[ADMIN_HEADER] !== "1")
        throw new HttpError(
          403,
          `admin endpoints need the header ${ADMIN_HEADER}: 1 (a browser cannot send it without a preflight)`,
        );
      // Every change carries a JSON body (`{}` when there is nothing to say): a plain cross-origin form POST cannot.
      const body = req.method === "GET" ? undefined : await readJson(req, ADMIN_BODY_BYTES);
      switch (route) {
        case "GET /__emulator/health":
          return sendJson(res, 200, { ok: true });
        case "GET /__emulator/log":
          return sendJson(res, 200, log.summary());
        case "DELETE /__emulator/log":
          log.clear();
          return sendJson(res, 200, { cleared: true });
        case "POST /__emulator/reset":
          store.replace(freshData({ ...seed, defaultWorkspaceId: store.data.defaultWorkspaceId }));
          log.clear();
          faults.update({ ...NO_FAULTS, ...initialFaults });
          ops.tombstones = faults.settings.shortPages;
          return sendJson(res, 200, { reset: true });
        case "GET /__emulator/faults":
          return sendJson(res, 200, faults.settings);
        case "PUT /__emulator/faults": {
          const settings = faults.update(parseOr400(faultPatch, body) as Partial<FaultSettings>);
          ops.tombstones = settings.shortPages;
          return sendJson(res, 200, settings);
        }
        case "GET /__emulator/state":
          return sendJson(res, 200, store.data);
        case "POST /__emulator/members": {
          const ids = parseOr400(z.object({ user_ids: z.array(z.string().min(1)) }), body).user_ids;
          store.addMembers(ids);
          store.save();
          return sendJson(res, 200, { members: store.data.members.length });
        }
        case "POST /__emulator/key-hashes": {
          const hashes = parseOr400(z.object({ key_hashes: z.array(z.string().min(1)) }), body).key_hashes;
          store.addKeyHashes(hashes);
          store.save();
          return sendJson(res, 200, { key_hashes: store.data.keyHashes.length });
        }
        default: {
          const changed = workspaceRoute(route, body, ops) ?? policyAdminRoute(route, url, body, deps);
          if (changed !== undefined) return sendJson(res, 200, changed);
          const reshape = /^PATCH \/__emulator\/guardrails\/([^/]+)$/.exec(route);
          if (reshape?.[1]) {
            // A UUID needs no escapes: the raw segment is checked as it came.
            const id = requireUuid(reshape[1], "id");
            const g = reshapeGuardrail(ops.getGuardrail(id), parseOr400(reshapeBody, body));
            store.save();
            return sendJson(res, 200, { data: g });
          }
          throw new HttpError(404, `no admin route ${route}`);
        }
      }
    } catch (err) {
      sendError(res, err instanceof HttpError ? err : new HttpError(500, (err as Error).message));
    }
  };
}

/**
 * `POST /__emulator/workspaces` (a workspace with the given name and slug) and
 * `DELETE /__emulator/workspaces/{id}`; undefined for any other route.
 */
function workspaceRoute(route: string, body: unknown, ops: Operations): unknown {
  if (route === "POST /__emulator/workspaces") {
    const w = parseOr400(workspaceBody, body);
    const id = ops.workspaces.add({ ...w, id: w.id ?? randomUUID() });
    ops.store.save();
    return { data: ops.workspaces.record(id) };
  }
  const gone = /^DELETE \/__emulator\/workspaces\/([^/]+)$/.exec(route);
  if (!gone?.[1]) return undefined;
  // Rule 20: a default guardrail goes only with its workspace, and so do the others there.
  const id = requireUuid(gone[1], "id");
  ops.workspaces.remove(id);
  for (const g of ops.store.data.guardrails.filter((x) => x.workspace_id === id)) ops.deleteGuardrail(g.id);
  ops.store.data.policies = ops.store.policies().filter((p) => p.workspace_id !== id);
  // A workspace-wide policy outlives a workspace it covered (it covers others); the deleted one
  // leaves its coverage and opt-outs (the emulator's choice: docs/api-contract.md, rule 28's note).
  for (const p of ops.store.accountPolicies()) {
    p.workspace_ids = p.workspace_ids.filter((w) => w !== id);
    p.opted_out_workspace_ids = p.opted_out_workspace_ids.filter((w) => w !== id);
  }
  ops.store.save();
  return { deleted: true };
}
