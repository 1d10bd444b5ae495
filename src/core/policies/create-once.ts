/**
 * The POST that creates a workspace policy, never blindly repeated (as a Guardrail's:
 * guardrail/create-once.ts, whose claims it shares). A 429 or a connection that failed before
 * sending is retried by the client; a 5xx, a timeout or a lost answer is ambiguous: the policy
 * may exist. Then this process's other POSTs are let settle, the kind's list of the workspace is
 * read, and the policies that are what this create would have made (our name, settings, default
 * flag and assignment counts; not legacy-mapped; not updated before our POST started; held by no
 * other resource of this run) are candidates. None: nothing landed, the POST is made again. One:
 * its detail is read and, if its lists are exactly the ones sent, it is adopted. More than one,
 * or one that does not hold what was sent: a clear error naming what was seen; adopting one
 * would be a guess.
 *
 * The service gives a workspace policy no creation time (rule 23's summary and detail), so a
 * same-named policy with the same settings and assignments made before this create and never
 * updated since cannot be told from ours; that is the one residual case (docs/errors.md).
 */
import { checkBaseUrl } from "../client/base-url";
import { NotFoundError } from "../client/errors";
import type { Connection } from "../connection";
import { claim, isClaimed, othersSettled } from "../resource/create-claims";
import { createKey } from "../resource/create-journal";
import { createJournaled } from "../resource/journaled-create";
import { KINDS, type PolicyTypeName } from "../kinds";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import { fieldsOf, key, LIST_WIRE, sameSet, settingsOf } from "./model";
import { shownIds } from "./changes";
import { policyOps, type WirePolicy, type WirePolicyDetail, type WirePolicyWrite } from "./ops";
import type { IdList } from "./args";

/** How far the service's clock may trail ours when judging an `updated_at`. */
const CLOCK_SKEW_MS = 5_000;

/** A row of the kind's list, as read loosely. */
interface ListedPolicy {
  id: string;
  name: string;
  config: Record<string, unknown>;
  member_count?: number;
  api_key_count?: number;
  is_workspace_default?: boolean | null | undefined;
  is_legacy_mapped?: boolean | null | undefined;
  updated_at?: string | null | undefined;
}

/** The journal key of a policy create: the resource, the service, the kind and exactly what it asks for. */
export const policyCreateKey = (resource: string, serviceUrl: string, type: PolicyTypeName, body: WirePolicyWrite) =>
  createKey(resource, serviceUrl, { policy: KINDS[type].policy.policyType, body });

/**
 * Creates the policy `body` describes exactly once; `what` names it in errors. With `resource`
 * (`project/stack/name` or a URN), a journal entry (resource/create-journal.ts) lets the next
 * create of the same resource and body recover the policy a killed run made.
 */
export async function createPolicyOnce(
  conn: Connection,
  type: PolicyTypeName,
  body: WirePolicyWrite,
  what: string,
  resource?: string,
): Promise<WirePolicy> {
  const ops = policyOps(conn, type);
  const s = conn.settings();
  const key = resource ? policyCreateKey(resource, checkBaseUrl(s.baseUrl, [s.apiKey]), type, body) : undefined;
  return createJournaled(
    { resource, key },
    {
      settle: (since, why) => resolveAmbiguous(conn, type, body, what, since, why),
      adopt: async (id, since) => {
        // ops.get refuses an answer about another id or kind; its workspace is the one asked.
        const p = await ops
          .get(id, body.workspace_id)
          .catch((err) => (err instanceof NotFoundError ? undefined : Promise.reject(err)));
        return p && matches(type, listedOf(p), body, since) && sameLists(p, body).length === 0 ? p : undefined;
      },
    },
    (outcome) => ops.create(body, outcome),
  );
}

/** A detail record as a list row reads it. */
const listedOf = (p: WirePolicyDetail): ListedPolicy => ({
  ...p,
  member_count: new Set(p.member_ids).size,
  api_key_count: new Set(p.api_key_hashes).size,
});

/** The lists `body` sends that the record does not hold exactly. */
function sameLists(detail: WirePolicyDetail, body: WirePolicyWrite): IdList[] {
  const sent = (l: IdList) => (body as unknown as Record<string, string[] | undefined>)[LIST_WIRE[l]];
  return (Object.keys(LIST_WIRE) as IdList[]).filter((l) => {
    const want = sent(l);
    return want !== undefined && !sameSet(want, detail[LIST_WIRE[l] as keyof WirePolicyDetail] as string[] | null);
  });
}

/** Our policy among the candidates, undefined when none landed; throws when it cannot tell. */
async function resolveAmbiguous(
  conn: Connection,
  type: PolicyTypeName,
  body: WirePolicyWrite,
  what: string,
  since: number,
  why: string,
): Promise<WirePolicy | undefined> {
  const ops = policyOps(conn, type);
  const listed: ListedPolicy[] = [];
  for await (const row of ops.ids(body.workspace_id)) listed.push(row as unknown as ListedPolicy);
  // POSTs of this process that answer while we list claim their ids before we choose.
  await othersSettled();
  const open = listed.filter((p) => matches(type, p, body, since) && !isClaimed(p.id));
  if (open.length === 0) return undefined;
  const refuse = (seen: string) =>
    new UserError(
      `${what}: the create's outcome is unknown (${why}), and ${seen}. Adopting one would be a guess, so none was adopted ` +
        `and no second create was sent. Check the workspace's policies (the getPolicies data source lists them), delete the ones nobody uses, ` +
        `and import the one to keep (\`pulumi import\` with id <workspaceId>/<policyId>).`,
    );
  if (open.length > 1)
    throw refuse(
      `${open.length} policies of this kind with this name, these settings and assignments are in workspace ${idText(body.workspace_id)} ` +
        `that no other resource of this run holds: ${shownIds(open.map((p) => p.id))}`,
    );
  const only = open[0]!;
  const detail = await ops.get(only.id, body.workspace_id);
  const differs = sameLists(detail, body);
  if (detail.id !== only.id || differs.length > 0)
    throw refuse(
      `the one candidate the list shows, ${idText(only.id)}, ${detail.id !== only.id ? `was answered as ${idText(detail.id)}` : `holds other ${differs.join(", ")} than were sent`}`,
    );
  if (!claim(only.id)) return undefined;
  return detail;
}

/** Whether a listed policy is what this create would have made. */
function matches(type: PolicyTypeName, p: ListedPolicy, body: WirePolicyWrite, since: number): boolean {
  if (p.name !== body.name || p.is_legacy_mapped === true) return false;
  if ((p.is_workspace_default === true) !== (body.is_workspace_default === true)) return false;
  if (body.member_ids && p.member_count !== undefined && p.member_count !== new Set(body.member_ids).size) return false;
  if (body.api_key_hashes && p.api_key_count !== undefined && p.api_key_count !== new Set(body.api_key_hashes).size)
    return false;
  // Updated before our POST started: older than our create, so not ours.
  const at = p.updated_at ? Date.parse(p.updated_at) : Number.NaN;
  if (Number.isFinite(at) && at < since - CLOCK_SKEW_MS) return false;
  const have = settingsOf(type, p.config);
  const want = settingsOf(type, body.config);
  return fieldsOf(type).every((k) => key(k, have[k]) === key(k, want[k]));
}
