/**
 * Whether a workspace is gone, and so its default guardrail with it (docs/api-contract.md rule 21).
 */
import { UntrustedNotFoundError } from "../client/errors";
import type { Connection } from "../connection";
import { sameUuid } from "../fields/constants";

/**
 * A workspace's 404 is believed only when the workspace list at the same address answers and
 * does not hold it: a wrong base URL answers 404 too, and "gone" drops the resource from state.
 */
export async function confirmWorkspaceGone(conn: Connection, ref: string, what: string): Promise<void> {
  const refuse = (why: string, cause?: unknown) => {
    const s = conn.settings();
    return new UntrustedNotFoundError(
      `${what}: not reported as deleted, because ${why}. The state keeps the resource. Check the base URL (${s.baseUrlSource}): it must be the service's address without /api/v1`,
      what,
      { cause },
    );
  };
  try {
    for await (const w of conn.client().listWorkspaces())
      if (sameUuid(w.id, ref)) throw refuse(`the service answered 404 for workspace ${ref}, yet lists it`);
  } catch (err) {
    if (err instanceof UntrustedNotFoundError) throw err;
    throw refuse(
      `the service answered 404 for workspace ${ref}, and its workspace list failed too (${(err as Error).message})`,
      err,
    );
  }
}
