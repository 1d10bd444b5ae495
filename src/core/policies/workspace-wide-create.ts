/**
 * The POST that creates a workspace-wide policy, never blindly repeated (as a workspace policy's:
 * create-once.ts, whose claims it shares). A 5xx, a timeout or a lost answer is ambiguous: the
 * policy may exist. Then the workspace-wide list is read, and the policies that are what this
 * create would have made (our name, kind, settings and coverage; created no earlier than our
 * POST; held by no other resource of this run) are candidates. None: nothing landed, the POST is
 * made again. One: adopted. More: a clear error naming them; adopting one would be a guess.
 * A run killed during its POST leaves a journal entry (resource/journaled-create.ts): the next
 * create of the same resource adopts what it made, once, rather than making a second policy.
 */
import { checkBaseUrl } from "../client/base-url";
import { PolicyClient } from "../client/policies";
import type { WireWorkspaceWidePolicy } from "../client/policy-wire";
import type { Connection } from "../connection";
import { POLICY_WIRE, type PolicyKind } from "../fields/policy-kinds";
import { createKey } from "../resource/create-journal";
import { claim, isClaimed, othersSettled } from "../resource/create-claims";
import { createJournaled } from "../resource/journaled-create";
import { UserError } from "../user-error";
import { shownIds } from "./changes";
import { sameSet } from "./model";
import type { WorkspaceWideInputs } from "./workspace-wide-args";
import { configBody } from "./workspace-wide-model";

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

/** The coverage a write sends: always whole (the PUT replaces it, rule 28). */
export const coverage = (inputs: WorkspaceWideInputs) => ({
  workspace_ids: [...new Set(inputs.workspaceIds ?? [])],
  opted_out_workspace_ids: [...new Set(inputs.optedOutWorkspaceIds ?? [])],
  is_default: inputs.allWorkspaces ?? false,
});

/** What the create of `inputs` sends (the client adds `policy_type`). */
export const createBody = (inputs: WorkspaceWideInputs): WorkspaceWideBody => ({
  name: inputs.name,
  config: configBody(inputs),
  ...coverage(inputs),
});

/** The journal key of a workspace-wide create: the resource, the service, the kind and exactly what it asks for. */
export const workspaceWideCreateKey = (
  resource: string,
  serviceUrl: string,
  kind: PolicyKind,
  body: WorkspaceWideBody,
) => createKey(resource, serviceUrl, { workspaceWide: POLICY_WIRE[kind].policyType, body });

/**
 * Creates the policy `body` describes exactly once; `what` names it in errors. With `resource`
 * (`project/stack/name` or a URN), a journal entry (resource/create-journal.ts) lets the next
 * create of the same resource and body recover the policy a killed run made.
 */
export function createWorkspaceWideOnce(
  conn: Connection,
  kind: PolicyKind,
  body: WorkspaceWideBody,
  what: string,
  resource?: string,
): Promise<WireWorkspaceWidePolicy> {
  const policies = new PolicyClient(conn.client());
  const s = conn.settings();
  const key = resource ? workspaceWideCreateKey(resource, checkBaseUrl(s.baseUrl, [s.apiKey]), kind, body) : undefined;
  const listed = async () => {
    const rows: WireWorkspaceWidePolicy[] = [];
    for await (const p of policies.listWorkspaceWidePolicies()) rows.push(p);
    return rows;
  };
  return createJournaled(
    { resource, key },
    {
      settle: (since, why, until) => settle(listed, kind, body, what, { since, until }, why),
      // The service has no get-by-id (rule 28): the list. The entry's id is adopted only when the
      // record is what this create would have made (a record edited since is someone's change).
      adopt: async (id, since) =>
        (await listed()).find((p) => p.id === id && matches(p, kind, body, { since, timeless: true })),
    },
    (outcome) => policies.createWorkspaceWidePolicy(kind, body as never, outcome),
  );
}

async function settle(
  listed: () => Promise<WireWorkspaceWidePolicy[]>,
  kind: PolicyKind,
  body: WorkspaceWideBody,
  what: string,
  when: Window,
  why: string,
): Promise<WireWorkspaceWidePolicy | undefined> {
  const rows = await listed();
  // POSTs of this process that answer while we list claim their ids before we choose.
  await othersSettled();
  const open = rows.filter((p) => matches(p, kind, body, when) && !isClaimed(p.id));
  if (open.length === 0) return undefined;
  if (open.length > 1)
    throw new UserError(
      `${what}: the create's outcome is unknown (${why}), and ${open.length} workspace-wide policies with this name, kind, settings and coverage were created since: ${shownIds(open.map((p) => p.id))}. Adopting one would be a guess, so none was adopted and no second create was sent. Delete the ones nobody uses and import the one to keep (\`pulumi import\` with its id).`,
    );
  return claim(open[0]!.id) ? open[0] : undefined;
}

/**
 * When a candidate may have been created: no earlier than `since` (and no later than `until`).
 * `timeless`: a record without a time is not refused for it (an id a journal entry recorded).
 */
interface Window {
  since: number;
  until?: number | undefined;
  timeless?: boolean;
}

/** Whether a listed policy is what this create would have made, created within `when`. */
function matches(p: WireWorkspaceWidePolicy, kind: PolicyKind, body: WorkspaceWideBody, when: Window): boolean {
  if (p.kind !== kind || p.name !== body.name) return false;
  const at = Date.parse(p.created_at ?? p.updated_at ?? "");
  // No time on the record: it cannot be told from one made before us, so it is no candidate.
  if (
    !Number.isFinite(at)
      ? !when.timeless
      : at < when.since - CLOCK_SKEW_MS || at > (when.until ?? Infinity) + CLOCK_SKEW_MS
  )
    return false;
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
