/**
 * `adoptId`: bringing an existing guardrail under management instead of creating one, and
 * what a later change of `adoptId` may and may not do.
 */
import { NotFoundError } from "../client/errors";
import type { GuardrailsClient } from "../client/client";
import type { GuardrailInputs } from "../args/guardrail-args";
import type { WireGuardrail } from "../client/wire";
import { liveChanges } from "./changes";
import { patchBody } from "./bodies";
import type { GuardrailOutputs } from "./model";
import { lookUpDefaultWorkspace } from "./workspace";
import { sameUuid } from "../fields/constants";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";

/**
 * Reads the guardrail, checks it is in the workspace the program names (omitted: the
 * default one), then PATCHes what differs. Nothing is created. Answers the guardrail as the
 * service now holds it; the create records it (lifecycle.ts), as it records one it made.
 */
export async function adopt(
  client: GuardrailsClient,
  inputs: GuardrailInputs,
  id: string,
  annotate: (err: unknown) => Error,
): Promise<WireGuardrail> {
  let live: WireGuardrail;
  try {
    live = await client.getGuardrail(id);
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new UserError(
        `guardrail "${inputs.name}": adoptId ${id} names no guardrail; check the id (pulumi-guardrails lists ids with GET /api/v1/guardrails)`,
      );
    throw annotate(err);
  }
  if (live.workspace_id == null) {
    // Older than workspaces (docs/api-contract.md rule 10): listed with the default workspace,
    // which is what an omitted workspaceId means; a named workspace is not where it is.
    if (inputs.workspaceId) {
      throw new UserError(
        `guardrail "${inputs.name}": adoptId ${id} has no workspace (it is older than workspaces; the service lists it with the default workspace), but workspaceId says ${inputs.workspaceId}; omit workspaceId to adopt it`,
      );
    }
  } else if (inputs.workspaceId && !sameUuid(inputs.workspaceId, live.workspace_id)) {
    throw new UserError(
      `guardrail "${inputs.name}": adoptId ${id} is in workspace ${idText(live.workspace_id)}, but workspaceId says ${inputs.workspaceId}; make them agree`,
    );
  } else if (
    !inputs.workspaceId &&
    !sameUuid(await lookUpDefaultWorkspace(client).catch((err) => Promise.reject(annotate(err))), live.workspace_id)
  ) {
    throw new UserError(
      `guardrail "${inputs.name}": adoptId ${id} is in workspace ${idText(live.workspace_id)}, not the default workspace that an omitted workspaceId means; set workspaceId: ${JSON.stringify(idText(live.workspace_id))}`,
    );
  }
  // No record of what identifiers made its model lists: the service's answer settles the rest.
  const changed = liveChanges(live, inputs);
  if (changed.length === 0) return live;
  return client.updateGuardrail(id, patchBody(inputs, changed)).catch((err) => Promise.reject(annotate(err)));
}

/**
 * A resource manages one guardrail for its whole life. A changed `adoptId` names another one:
 * replacing the resource would delete the guardrail it manages now, and an update can only
 * PATCH that one, so neither is done without the user's explicit word. The error says how to
 * release the current guardrail or delete it. Dropping `adoptId`, or naming the guardrail the
 * resource already manages (in any case), is no change.
 */
export function assertSameGuardrail(
  id: string,
  recorded: GuardrailOutputs,
  inputs: Pick<GuardrailInputs, "name" | "adoptId">,
): void {
  if (!inputs.adoptId || sameUuid(inputs.adoptId, id)) return;
  const before = recorded.args?.adoptId ?? "unset (the guardrail was created by this resource)";
  throw new UserError(
    `guardrail "${inputs.name}": adoptId changed from ${before} to ${inputs.adoptId}, but this resource manages guardrail ${id}; nothing was changed. ` +
      `To release ${id} (it stays on the service, unmanaged) and adopt ${inputs.adoptId}: run \`pulumi state delete <this resource's URN>\`, then \`pulumi up\`. ` +
      `To delete ${id}: remove this resource from the program and run \`pulumi up\`, then add it back with the new adoptId.`,
  );
}

/**
 * A replacement creates before it deletes, and a create with `adoptId` adopts that guardrail:
 * if it is the one being replaced, the delete would remove what was just adopted. Refused.
 */
export function assertReplacementKeepsGuardrail(
  id: string,
  recorded: GuardrailOutputs,
  inputs: GuardrailInputs,
  target: string,
): void {
  if (!inputs.adoptId || !sameUuid(inputs.adoptId, id)) return;
  throw new UserError(
    `guardrail "${inputs.name}": adoptId ${id} is in workspace ${recorded.workspaceId}, but workspaceId says ${target}; ` +
      `a guardrail cannot change workspaces, and replacing this resource would adopt ${id} again and then delete it. Make them agree`,
  );
}
