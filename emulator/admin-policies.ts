/**
 * Admin endpoints for Guardrail Policies (under `/__emulator/`, with admin.ts's header rule):
 * the enforcement answer (enforcement.ts), workspace-scoped management keys (docs/api-contract.md
 * rule 26) and which workspace and member a key hash belongs to.
 */
import { z } from "zod";
import type { KeyRing } from "./auth";
import { enforcement } from "./enforcement";
import { badRequest } from "./http-error";
import type { PolicyServices } from "./policy-dispatch";
import type { RequestLog } from "./request-log";
import type { Store } from "./store";
import { parseOr400, uuid } from "./validation";

export interface PolicyAdminDeps {
  store: Store;
  keys: KeyRing;
  log: RequestLog;
  policies: PolicyServices;
}

/** `POST /__emulator/workspace-keys`: a management key that acts only in one workspace (rule 26). */
const workspaceKeyBody = z.strictObject({ key: z.string().regex(/^\S{8,}$/), workspace_id: uuid });

/** `POST /__emulator/key-info`: the workspace a key hash belongs to and the member who owns it (null: none). */
const keyInfoBody = z.strictObject({
  key_hashes: z.array(z.string().min(1)).min(1),
  workspace_id: uuid.nullable().optional(),
  member_user_id: z.string().min(1).nullable().optional(),
});

/** Answers a policy admin route, or undefined when `route` is none of them. */
export function policyAdminRoute(route: string, url: URL, body: unknown, deps: PolicyAdminDeps): unknown {
  const { store } = deps;
  switch (route) {
    case "GET /__emulator/enforcement":
      return enforcement(store, deps.policies.policies, url.searchParams);
    case "POST /__emulator/workspace-keys": {
      const { key, workspace_id } = parseOr400(workspaceKeyBody, body);
      if (!store.data.workspaces.includes(workspace_id))
        throw badRequest(`workspace_id: unknown workspace "${workspace_id}"`);
      deps.keys.addWorkspaceKey(key, workspace_id);
      deps.log.addSecret(key);
      return { workspace_id };
    }
    case "POST /__emulator/key-info": {
      const info = parseOr400(keyInfoBody, body);
      store.addKeyHashes(info.key_hashes);
      store.data.keyInfo ??= {};
      const all = store.data.keyInfo;
      for (const hash of info.key_hashes) {
        const entry: Record<string, string | null | undefined> = { ...all[hash] };
        if (info.workspace_id !== undefined) entry.workspace_id = info.workspace_id;
        if (info.member_user_id !== undefined) entry.member_user_id = info.member_user_id;
        // A null clears the fact; JSON drops it.
        all[hash] = JSON.parse(JSON.stringify(entry, (_k, v: unknown) => (v === null ? undefined : v))) as never;
      }
      store.save();
      return { data: Object.fromEntries(info.key_hashes.map((h) => [h, all[h]])) };
    }
    default:
      return undefined;
  }
}
