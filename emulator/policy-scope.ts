/**
 * Workspace scoping of the policy operations (docs/api-contract.md rule 26): which workspace a
 * call is about, the 403 of a workspace-scoped key for any other, and whether a member or key may
 * be named in that workspace.
 */
import { badRequest, HttpError } from "./http-error";
import type { Store } from "./store";

/**
 * The workspace a call names. A workspace-scoped key (`scope`) defaults to its own and gets 403 for
 * any other; an organization key must name one (400). An unknown workspace is a 400, as on a guardrail create.
 */
export function resolveWorkspace(store: Store, scope: string | undefined, given: string | undefined): string {
  if (scope !== undefined && given !== undefined && given !== scope)
    throw new HttpError(403, `this key is scoped to workspace ${scope} and cannot act on workspace ${given}`);
  const ws = given ?? scope;
  if (ws === undefined)
    throw badRequest(
      "workspace_id: required with an organization management key (the workspace the policy belongs to)",
    );
  if (!store.data.workspaces.includes(ws)) throw badRequest(`workspace_id: unknown workspace "${ws}"`);
  return ws;
}

/** Workspace-wide policies belong to the organization: a workspace-scoped key gets 403. */
export function requireOrganizationKey(scope: string | undefined): void {
  if (scope !== undefined)
    throw new HttpError(
      403,
      `workspace-wide policies need an organization management key (this key is scoped to workspace ${scope})`,
    );
}

/** The workspace a key hash belongs to, if the admin endpoint bound it to one (else it is usable in every workspace). */
export function keyWorkspace(store: Store, hash: string): string | undefined {
  return store.data.keyInfo?.[hash]?.workspace_id;
}

/** Why `hash` cannot be named in `ws`, or undefined when it can. */
export function keyProblem(store: Store, ws: string, hash: string): string | undefined {
  if (!store.isKey(hash)) return `unknown API key hash "${hash}"`;
  const own = keyWorkspace(store, hash);
  return own !== undefined && own !== ws ? `API key ${hash} belongs to workspace ${own}, not ${ws}` : undefined;
}

/** Why `id` cannot be named in `ws`, or undefined. Members belong to the organization and so to every workspace. */
export function memberProblem(store: Store, _ws: string, id: string): string | undefined {
  return store.isMember(id) ? undefined : `unknown member "${id}"`;
}

/**
 * Rule 26: every member and key a body names must belong to the policy's workspace; a 400 naming
 * each field, item and reason otherwise.
 */
export function checkSubjects(
  store: Store,
  ws: string,
  lists: { field: string; ids: string[] | undefined; kind: "member" | "key" }[],
): void {
  const problems: string[] = [];
  for (const { field, ids, kind } of lists) {
    (ids ?? []).forEach((id, i) => {
      const p = kind === "member" ? memberProblem(store, ws, id) : keyProblem(store, ws, id);
      if (p) problems.push(`${field}[${i}]: ${p}`);
    });
  }
  if (problems.length > 0) throw badRequest(problems.join("; "));
}
