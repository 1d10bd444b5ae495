/**
 * When a policy's answer says it is gone: a 404 is believed only from a working service
 * (confirm-gone.ts), and a 400 on its workspace only once that workspace's own 404 is confirmed.
 */
import type { ValidationError } from "../client/errors";
import type { Connection } from "../connection";
import { KINDS, type PolicyTypeName } from "../kinds";
import { askWorkspace } from "../resource/workspace";
import { UserError } from "../user-error";
import { annotate } from "./inputs";
import { policyOps } from "./ops";

/**
 * A 400 on a policy of a workspace (the service's "unknown workspace"): the policy went with its
 * workspace only when the workspace's own 404 is confirmed (workspace.ts); a workspace that still
 * answers, or one that cannot be confirmed gone, fails naming what was seen and the way out.
 */
export async function workspaceGone(
  conn: Connection,
  what: string,
  workspaceId: string,
  err: ValidationError,
): Promise<void> {
  const said = annotate(what, err).message;
  const out = `If you know the policy is gone, remove it from the state with \`pulumi state delete <urn>\`.`;
  const ws = await askWorkspace(conn, workspaceId, what).catch((e: Error) => {
    throw new UserError(
      `${said}. Whether its workspace ${workspaceId} is gone could not be confirmed (${e.message}), so the state keeps the policy. ${out}`,
      { cause: err },
    );
  });
  if (ws)
    throw new UserError(
      `${said}. Its workspace ${workspaceId} still exists (the service answered it), so the policy is not taken as gone and the state keeps it. ${out}`,
      { cause: err },
    );
}

/** What confirms a policy's 404: its kind's list in its workspace must not hold it. */
export const goneQuestion = (
  conn: Connection,
  type: PolicyTypeName,
  what: string,
  id: string,
  workspaceId: string,
) => ({
  what,
  guardrailId: id,
  workspaceId,
  list: (ws: string | undefined) => policyOps(conn, type).ids(ws!),
  noun: KINDS[type].policy.noun,
});
