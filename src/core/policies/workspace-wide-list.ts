/**
 * The workspace-wide policies as one read: the service has no get-by-id for them (rule 28), so a
 * refresh, an import and an update's concurrency check each read the whole list (one GET per
 * page of 100). A refresh reads every resource at once, so the reads of one provider instance
 * share one list: the one in flight, or one that ended less than `SHARE_MS` ago. A write through
 * the same instance forgets it, and an update's check always reads afresh (its list then serves
 * the reads that follow).
 */
import type { GuardrailsClient } from "../client/client";
import { PolicyClient } from "../client/policies";
import type { WireWorkspaceWidePolicy } from "../client/policy-wire";
import type { Connection } from "../connection";

/** How long a finished list serves the reads that follow it: one refresh's reads arrive together. */
export const SHARE_MS = 2_000;

interface Shared {
  rows: Promise<WireWorkspaceWidePolicy[]>;
  /** When the list ended; undefined while in flight. */
  endedAt?: number;
}

/** Per provider instance (its client): two organizations never share a list. */
const shared = new WeakMap<GuardrailsClient, Shared>();

/**
 * The list: `fresh` reads it afresh; otherwise a list in flight or just read is shared
 * (`shared` says so: a caller that misses an id in a shared list may read afresh once).
 */
export async function workspaceWidePolicies(
  conn: Connection,
  fresh: boolean,
): Promise<{ rows: WireWorkspaceWidePolicy[]; shared: boolean }> {
  const client = conn.client();
  const s = shared.get(client);
  if (!fresh && s && (s.endedAt === undefined || Date.now() - s.endedAt < SHARE_MS))
    return { rows: await s.rows, shared: true };
  const entry: Shared = { rows: collect(new PolicyClient(client)) };
  shared.set(client, entry);
  entry.rows.then(
    () => {
      entry.endedAt = Date.now();
    },
    // A failed list is never shared: the next read tries again.
    () => {
      if (shared.get(client) === entry) shared.delete(client);
    },
  );
  return { rows: await entry.rows, shared: false };
}

/** Forgets the shared list after a write through this instance. */
export function forgetWorkspaceWidePolicies(conn: Connection): void {
  shared.delete(conn.client());
}

async function collect(policies: PolicyClient): Promise<WireWorkspaceWidePolicy[]> {
  const rows: WireWorkspaceWidePolicy[] = [];
  for await (const p of policies.listWorkspaceWidePolicies()) rows.push(p);
  return rows;
}
