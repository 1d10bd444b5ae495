/**
 * The POST that creates a guardrail, which is never blindly repeated, and what happens when
 * its outcome is unknown.
 *
 * - A 429 (or a connection that failed before sending) was not processed: wait, POST again.
 * - A 5xx, a timeout or a lost answer is ambiguous: the guardrail may exist. Wait for this
 *   process's other POSTs to settle, list the workspace, and keep the guardrails with our
 *   name and settings created since our request started that no other resource of this run
 *   holds. One is adopted; none means nothing landed and the POST is made again; more than
 *   one fails, naming them, since adopting one would be a guess.
 * - A run killed mid-create leaves a journal entry (create-journal.ts); the next create of
 *   the same resource with the same URL and body recovers the guardrail it made instead of
 *   making a second one.
 */
import { collect } from "../client/pagination";
import { NotFoundError } from "../client/errors";
import type { GuardrailsClient } from "../client/client";
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrail, WireGuardrailCreate } from "../client/wire";
import { claim, isClaimed, othersSettled } from "../resource/create-claims";
import { createKey } from "../resource/create-journal";
import { createJournaled } from "../resource/journaled-create";
import { createBody } from "./bodies";
import { settingsMatch } from "./changes";
import { lookUpDefaultWorkspace } from "./workspace";
import { sameUuid } from "../fields/constants";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";

/** How far the service's clock may trail ours when matching an ambiguous create. */
const CLOCK_SKEW_MS = 5_000;
/**
 * Creates the guardrail the program asks for (its POST body: bodies.ts) exactly once. The
 * attempts and backoff are the client's (retry.ts `createOnce`); the journal around each POST is
 * resource/journaled-create.ts; this supplies what only a guardrail knows: how to recognise what
 * an ambiguous POST (or a killed run) made.
 */
export async function createGuardrailOnce(
  client: GuardrailsClient,
  /** `project/stack/name`, or undefined (then no journal: nothing to recover by). */
  resource: string | undefined,
  serviceUrl: string,
  inputs: GuardrailInputs,
): Promise<WireGuardrail> {
  const body = createBody(inputs);
  const key = resource ? createKey(resource, serviceUrl, body) : undefined;
  return createJournaled(
    { resource, key },
    {
      settle: (since, why, until) => resolveAmbiguous(client, inputs, body, since, why, until),
      adopt: async (id, since) => {
        const g = await client
          .getGuardrail(id)
          .catch((err) => (err instanceof NotFoundError ? undefined : Promise.reject(err)));
        // A server that answers the id with another guardrail is not telling us where ours is.
        const ours = g && g.id === id && matches(g, inputs, body, since) && (await inAskedWorkspace(client, g, inputs));
        return ours ? g : undefined;
      },
    },
    (outcome) => client.createGuardrail(body, outcome),
  );
}

/** Our guardrail among the candidates, undefined when none landed; throws when it cannot tell. */
async function resolveAmbiguous(
  client: GuardrailsClient,
  inputs: GuardrailInputs,
  body: WireGuardrailCreate,
  since: number,
  why: string,
  until: number | undefined = Infinity,
): Promise<WireGuardrail | undefined> {
  const listed = await collect(client.listGuardrails(inputs.workspaceId ? { workspaceId: inputs.workspaceId } : {}));
  // POSTs of this process that answer while we list claim their ids before we choose.
  await othersSettled();
  const open = listed.filter((g) => matches(g, inputs, body, since, until) && !isClaimed(g.id));
  if (open.length === 0) return undefined;
  if (open.length === 1 && claim(open[0]!.id)) return open[0];
  throw new UserError(
    `guardrail "${inputs.name}": the create's outcome is unknown (${why}), and ${open.length} guardrails with this name and these settings ` +
      `were created since it started that no other resource of this run holds: ${open.map((g) => `${idText(g.id)} (created ${idText(g.created_at)})`).join(", ")}. ` +
      `Adopting one would be a guess, so none was adopted. Check them, delete the ones nobody uses, and set adoptId to the one to keep.`,
  );
}

function matches(
  g: WireGuardrail,
  inputs: GuardrailInputs,
  _body: WireGuardrailCreate,
  since: number,
  until = Infinity,
): boolean {
  const at = Date.parse(g.created_at);
  return (
    g.name === inputs.name && at >= since - CLOCK_SKEW_MS && at <= until + CLOCK_SKEW_MS && settingsMatch(g, inputs)
  );
}

/** Whether `g` is in the workspace the create asks for; an omitted one is the default workspace (spec, create rule 1). */
async function inAskedWorkspace(client: GuardrailsClient, g: WireGuardrail, inputs: GuardrailInputs): Promise<boolean> {
  if (inputs.workspaceId) return sameUuid(g.workspace_id, inputs.workspaceId);
  // Older than workspaces (docs/api-contract.md rule 10): listed with the default workspace.
  return g.workspace_id == null || sameUuid(await lookUpDefaultWorkspace(client), g.workspace_id);
}
