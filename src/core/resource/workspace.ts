/**
 * The workspace a policy names, asked of the service and checked: the answer must be the
 * workspace asked for (its id or its slug), and a 404 means "no such workspace" only once the
 * service at the configured URL lists its workspaces without it (confirm-gone.ts). A wrong base
 * URL answers 404 too; read as "gone", it would create a policy elsewhere, preview a replace, or
 * drop a live policy from the state.
 */
import { NotFoundError } from "../client/errors";
import { workspacePath } from "../client/workspace-default";
import { dataEnvelope, wireWorkspace, type WireWorkspace } from "../client/wire";
import type { Connection } from "../connection";
import { confirmGone } from "../confirm-gone";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import { shown } from "../args/messages";
import { annotateAs } from "./annotate";
import { sameUuid, UUID_RE } from "../fields/constants";

/**
 * `GET /workspaces/{ref}`: the workspace, or undefined when the service confirms it has none.
 * Throws when the answer names another workspace, when a 404 is not confirmed, and on any other
 * failure (as the client raised it).
 */
export async function askWorkspace(conn: Connection, ref: string, what: string): Promise<WireWorkspace | undefined> {
  const client = conn.client();
  const asked = UUID_RE.test(ref) ? ref.toLowerCase() : ref;
  let ws: WireWorkspace;
  try {
    ws = (await client.call({ method: "GET", path: workspacePath(asked), schema: dataEnvelope(wireWorkspace) })).data;
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    await confirmGone(conn, err, {
      what,
      guardrailId: asked,
      noun: "workspace",
      list: () => idsAndSlugs(conn),
      refusal: {
        verdict: `workspace ${idText(asked)} is not taken as missing`,
        kept: "Nothing was changed.",
      },
    });
    return undefined;
  }
  // As readWorkspaceDefault: an answer for another workspace than the one asked for is refused.
  if (!sameUuid(ws.id, asked) && ws.slug !== asked)
    throw new UserError(
      `${what}: asked the service for workspace ${idText(asked)}, it answered workspace ${idText(ws.id)} (slug ${idText(ws.slug)}); not using another workspace`,
    );
  return ws;
}

/** Every workspace's id and slug, as rows confirm-gone reads. */
async function* idsAndSlugs(conn: Connection): AsyncGenerator<{ id: string }> {
  for await (const w of conn.client().listWorkspaces()) {
    yield { id: w.id.toLowerCase() };
    if (w.slug) yield { id: w.slug };
  }
}

/**
 * The workspace's id for a reference in a program (`workspaceId`: an id, or a slug asked of the
 * service once and checked by askWorkspace); a slug no workspace has is an error naming it.
 */
export async function workspaceIdOf(conn: Connection, ref: string, what: string): Promise<string> {
  if (UUID_RE.test(ref)) return ref.toLowerCase();
  const ws = await askWorkspace(conn, ref, what).catch((err) => Promise.reject(annotateAs(what, err)));
  if (!ws)
    throw new UserError(
      `${what}: the service has no workspace ${shown(ref)}; workspaceId takes a workspace's id or slug (the getWorkspaces data source lists them)`,
    );
  return ws.id.toLowerCase();
}
