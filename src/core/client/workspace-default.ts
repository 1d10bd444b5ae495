/**
 * The read of a workspace's default guardrail (docs/api-contract.md rules 18 to 21): whether it
 * exists is the workspace's answer, never the guardrail's own 404.
 */
import { escapeInvisible } from "../text/controls";
import { UserError } from "../user-error";
import { NotFoundError } from "./errors";
import type { WireGuardrail, WireWorkspace } from "./wire";

/** A value for a message: JSON, with what JSON leaves raw (bidi, zero-width) escaped. */
const quoted = (v: unknown) => escapeInvisible(JSON.stringify(v));

/**
 * What a read of a workspace's default guardrail found:
 * - `gone`: the workspace answered 404, so its default is gone with it (rule 21);
 * - `unconfigured`: the workspace exists and its default was never written (the guardrail's own
 *   404, rule 19): in force with no restriction;
 * - `configured`: the workspace exists and its default has been written.
 */
export type WorkspaceDefaultRead =
  | { state: "gone" }
  | { state: "unconfigured"; workspace: WireWorkspace }
  | { state: "configured"; workspace: WireWorkspace; guardrail: WireGuardrail };

/** The two calls the read needs, as the client offers them. */
export interface WorkspaceDefaultReader {
  getWorkspace(idOrSlug: string): Promise<WireWorkspace | undefined>;
  getGuardrail(id: string): Promise<WireGuardrail>;
}

/**
 * Asks the workspace first (404: gone), then `GET /guardrails/{default_guardrail_id}`, whose 404
 * means "not written yet", never "gone". Every other failure is thrown as it came, and so is an
 * answer for another workspace than the one asked for (neither its id nor its slug matches).
 */
export async function readWorkspaceDefault(
  client: WorkspaceDefaultReader,
  workspaceIdOrSlug: string,
): Promise<WorkspaceDefaultRead> {
  const workspace = await client.getWorkspace(workspaceIdOrSlug);
  if (workspace === undefined) return { state: "gone" };
  if (workspace.id !== workspaceIdOrSlug && workspace.slug !== workspaceIdOrSlug)
    throw new UserError(
      `asked for workspace ${quoted(workspaceIdOrSlug)}, the service answered workspace ${quoted(workspace.id)} (slug ${quoted(workspace.slug)}); not reading another workspace's default guardrail`,
    );
  try {
    const guardrail = await client.getGuardrail(workspace.default_guardrail_id);
    return { state: "configured", workspace, guardrail };
  } catch (err) {
    if (err instanceof NotFoundError) return { state: "unconfigured", workspace };
    throw err;
  }
}

/**
 * The path of `GET /workspaces/{id-or-slug}`, the segment encoded. "", "." and ".." are refused:
 * they would leave the segment (or be normalized away), and the 404 they bring would read as "gone".
 */
export function workspacePath(idOrSlug: string): string {
  if (idOrSlug === "" || idOrSlug === "." || idOrSlug === "..")
    throw new UserError(`a workspace id or slug must be one path segment; got ${quoted(idOrSlug)}`);
  return `/workspaces/${encodeURIComponent(idOrSlug)}`;
}
