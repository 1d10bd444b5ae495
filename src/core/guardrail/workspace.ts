/**
 * Which workspace a guardrail belongs in. An omitted `workspaceId` means the organization's
 * default workspace (spec, create rule 1), so omitting it and naming the default workspace's
 * id are the same value: switching between the two never replaces the guardrail. Workspace
 * ids are UUIDs and compare case-insensitively.
 */
import type { GuardrailsClient } from "../client/client";
import type { GuardrailInputs } from "../args/guardrail-args";
import { UserError } from "../user-error";
import { sameUuid } from "../fields/constants";

/** The part of the recorded outputs these rules read. */
export interface RecordedWorkspace {
  workspaceId: string | null;
  defaultWorkspaceId?: string | null;
  args: GuardrailInputs | null;
}

/**
 * The default workspace's id when the state knows it: recorded, or (state of earlier
 * versions) the workspace of a guardrail the program created without naming one.
 */
export function knownDefaultWorkspace(recorded: RecordedWorkspace): string | null {
  if (recorded.defaultWorkspaceId) return recorded.defaultWorkspaceId;
  return recorded.args && !recorded.args.workspaceId ? recorded.workspaceId : null;
}

/** The default workspace's id as each client (one per provider instance and process) learned it. */
const learned = new WeakMap<GuardrailsClient, Promise<string | null>>();

/**
 * Asks the service: `GET /guardrails` without `workspace_id` lists the default workspace,
 * so any row names it. `null` when that workspace holds no guardrail, which also says that
 * no guardrail of ours is in it. Asked once per client (one provider process, one command):
 * every guardrail of the stack shares the id; a failure or a `null` is not kept.
 */
export function lookUpDefaultWorkspace(client: GuardrailsClient): Promise<string | null> {
  let known = learned.get(client);
  if (!known) {
    known = askDefaultWorkspace(client);
    learned.set(client, known);
    // Only an id is kept: "holds no guardrail" may change within the command (a create).
    known.then(
      (id) => id === null && learned.delete(client),
      () => learned.delete(client),
    );
  }
  return known;
}

async function askDefaultWorkspace(client: GuardrailsClient): Promise<string | null> {
  let rows = 0;
  for await (const g of client.listGuardrails()) {
    if (g.workspace_id) return g.workspace_id;
    rows++;
  }
  // Rows older than workspaces name none (docs/api-contract.md rule 10): a guess here could replace a guardrail.
  if (rows > 0)
    throw new UserError(
      `cannot tell the default workspace's id: its ${rows} guardrail(s) carry no workspace_id; set workspaceId explicitly`,
    );
  return null;
}

/**
 * Whether the program asks for another workspace than the recorded guardrail is in, which
 * forces a replacement. An omitted `workspaceId` is compared as the default workspace; when
 * the state does not know that id, the service is asked (one list call, only then).
 */
export async function workspaceMoves(
  recorded: RecordedWorkspace,
  asked: string | undefined,
  client: () => GuardrailsClient,
): Promise<boolean> {
  // A guardrail older than workspaces has none (docs/api-contract.md rule 10): nothing says it
  // is elsewhere, and replacing it on that ground would delete it. Never inferred.
  if (!recorded.workspaceId) return false;
  if (asked) return !sameUuid(asked, recorded.workspaceId);
  const known = knownDefaultWorkspace(recorded);
  if (known) return !sameUuid(known, recorded.workspaceId);
  return !sameUuid(await lookUpDefaultWorkspace(client()), recorded.workspaceId);
}

/**
 * Outputs read by an import, or a refresh of state an earlier release imported (no `args`),
 * with the default workspace's id recorded when the state does not know it: a program that
 * leaves `workspaceId` out is then compared with no call, in every later preview, refresh and
 * `up` (issue 43). One list call, shared by every guardrail of the command; best effort (a
 * failure records nothing, and the diff asks again).
 */
export async function withDefaultWorkspace<O extends RecordedWorkspace>(
  client: GuardrailsClient,
  outs: O,
  importing: boolean,
): Promise<O> {
  if (knownDefaultWorkspace(outs) || !outs.workspaceId || !(importing || outs.args === null)) return outs;
  const id = await lookUpDefaultWorkspace(client).catch(() => null);
  return id ? { ...outs, defaultWorkspaceId: id } : outs;
}
