/**
 * The POST that creates a workspace-wide policy, never blindly repeated (as a workspace policy's:
 * create-once.ts, whose claims it shares). A 5xx, a timeout or a lost answer is ambiguous: the
 * policy may exist. Then the workspace-wide list is read, and the policies that are what this
 * create would have made (our name, kind, settings and coverage; created no earlier than our
 * POST; held by no other resource of this run) are candidates. None: nothing landed, the POST is
 * made again. One: adopted. More: a clear error naming them; adopting one would be a guess.
 */
import type { GuardrailsError } from "../client/errors";
import { PolicyClient } from "../client/policies";
import type { WireWorkspaceWidePolicy } from "../client/policy-wire";
import type { Connection } from "../connection";
import type { PolicyKind } from "../fields/policy-kinds";
import { claim, isClaimed, othersSettled, serially, trackedPost } from "../resource/create-claims";
import { UserError } from "../user-error";
import { shownIds } from "./changes";
import { sameSet } from "./model";

/** How far the service's clock may trail ours when judging a `created_at`. */
const CLOCK_SKEW_MS = 5_000;

/** What a create sends. */
export interface WorkspaceWideBody {
  name: string;
  config: Record<string, unknown>;
  workspace_ids: string[];
  opted_out_workspace_ids: string[];
  is_default: boolean;
}

/** Creates the policy `body` describes exactly once; `what` names it in errors. */
export function createWorkspaceWideOnce(
  conn: Connection,
  kind: PolicyKind,
  body: WorkspaceWideBody,
  what: string,
): Promise<WireWorkspaceWidePolicy> {
  const policies = new PolicyClient(conn.client());
  let started = Date.now();
  return policies.createWorkspaceWidePolicy(kind, body as never, {
    around: (post) => {
      started = Date.now();
      return trackedPost(post);
    },
    resolve: (err: GuardrailsError) => serially(() => settle(policies, kind, body, what, started, err.message)),
  });
}

async function settle(
  policies: PolicyClient,
  kind: PolicyKind,
  body: WorkspaceWideBody,
  what: string,
  since: number,
  why: string,
): Promise<WireWorkspaceWidePolicy | undefined> {
  const listed: WireWorkspaceWidePolicy[] = [];
  for await (const p of policies.listWorkspaceWidePolicies()) listed.push(p);
  // POSTs of this process that answer while we list claim their ids before we choose.
  await othersSettled();
  const open = listed.filter((p) => matches(p, kind, body, since) && !isClaimed(p.id));
  if (open.length === 0) return undefined;
  if (open.length > 1)
    throw new UserError(
      `${what}: the create's outcome is unknown (${why}), and ${open.length} workspace-wide policies with this name, kind, settings and coverage were created since: ${shownIds(open.map((p) => p.id))}. Adopting one would be a guess, so none was adopted and no second create was sent. Delete the ones nobody uses and import the one to keep (\`pulumi import\` with its id).`,
    );
  return claim(open[0]!.id) ? open[0] : undefined;
}

/** Whether a listed policy is what this create would have made, created no earlier than our POST. */
function matches(p: WireWorkspaceWidePolicy, kind: PolicyKind, body: WorkspaceWideBody, since: number): boolean {
  if (p.kind !== kind || p.name !== body.name) return false;
  const at = Date.parse(p.created_at ?? p.updated_at ?? "");
  // No time on the record: it cannot be told from one made before us, so it is no candidate.
  if (!Number.isFinite(at) || at < since - CLOCK_SKEW_MS) return false;
  if ((p.is_default === true) !== body.is_default) return false;
  if (
    p.workspace_ids &&
    !sameSet(
      p.workspace_ids.map((w) => w.toLowerCase()),
      body.workspace_ids,
    )
  )
    return false;
  const config = (p.config ?? {}) as Record<string, unknown>;
  return Object.entries(body.config).every(([k, v]) => JSON.stringify(config[k] ?? null) === JSON.stringify(v ?? null));
}
