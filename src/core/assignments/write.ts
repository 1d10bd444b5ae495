/**
 * `create`, `update` and `delete` of an assignment set: read what is there, plan, apply
 * (apply.ts), and record what landed.
 */
import { collect } from "../client/pagination";
import { NotFoundError } from "../client/errors";
import type { GuardrailsClient } from "../client/client";
import type { Connection } from "../connection";
import { confirmGone } from "../confirm-gone";
import { DEFAULT_MAX_BULK } from "../fields/constants";
import type { AssignmentInputs } from "../args/assignment-args";
import { applyPlanToService, chunk, describeFailure, type ApplyContext } from "./apply";
import type { AssignmentSetKind } from "./kind";
import { movesWarning } from "./moves";
import { planChanges } from "./plan";
import {
  assignedIn,
  foreignIn,
  setOutputs,
  setResourceId,
  statusesIn,
  statusMap,
  unconfirmedIn,
  withoutForeign,
  type StatusMap,
} from "./state-map";
import { UserError } from "../user-error";
import type { CreateResult, UpdateResult } from "../results";

const chunkSize = (conn: Connection) => conn.settings().maxBulk ?? DEFAULT_MAX_BULK;
const context = (
  conn: Connection,
  kind: AssignmentSetKind,
  client: GuardrailsClient,
  inputs: AssignmentInputs,
  provider: unknown,
  foreign: ReadonlySet<string> = new Set(),
): ApplyContext => ({ client, kind, inputs, chunkSize: chunkSize(conn), provider, foreign });

async function listOrExplain(
  kind: AssignmentSetKind,
  client: GuardrailsClient,
  guardrailId: string,
): Promise<string[]> {
  try {
    return await collect(kind.list(client, guardrailId));
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new UserError(`${kind.typeName}: guardrail ${guardrailId} does not exist; check guardrailId`, {
        cause: err,
      });
    throw err;
  }
}

/**
 * Read before writing, in both modes: ids already here (an adopted guardrail) cost no assign
 * call, so adopting an existing set exactly makes no write at all, and a new guardrail's empty
 * set is one list call. Exclusive mode on a guardrail that already has ids adds ours and
 * removes nothing yet: the foreign ids are recorded, so the next refreshed preview names
 * their removal before any `up` performs it.
 */
export async function createSet(
  conn: Connection,
  kind: AssignmentSetKind,
  inputs: AssignmentInputs,
  provider: unknown,
  moves: Record<string, string> = {},
): Promise<CreateResult> {
  const client = conn.client();
  const live = new Set(await listOrExplain(kind, client, inputs.guardrailId));
  const plan = planChanges({ desired: inputs.ids, live, managed: new Set(), exclusive: false });
  const now = await applyPlanToService(context(conn, kind, client, inputs, provider), plan, live);
  warnMoves(kind, inputs.guardrailId, moves, now, plan.add);
  return {
    id: setResourceId(inputs.guardrailId, kind.stateKey),
    properties: setOutputs(kind.stateKey, inputs, statusMap(inputs.ids, now, inputs.exclusive)),
  };
}

/**
 * Additive -> exclusive, as an exclusive create does: list the guardrail's set, add the
 * program's ids, remove only ids this resource managed that the program dropped, and record
 * every other id as FOREIGN, so the next preview names them before an update removes them.
 */
async function claim(
  conn: Connection,
  kind: AssignmentSetKind,
  client: GuardrailsClient,
  inputs: AssignmentInputs,
  previous: StatusMap,
  provider: unknown,
  moves: Record<string, string>,
): Promise<Record<string, unknown>> {
  const live = new Set(await listOrExplain(kind, client, inputs.guardrailId));
  const plan = planChanges({ desired: inputs.ids, live, managed: new Set(Object.keys(previous)), exclusive: false });
  const now = await applyPlanToService(context(conn, kind, client, inputs, provider), plan, live);
  warnMoves(kind, inputs.guardrailId, moves, now, plan.add);
  return setOutputs(kind.stateKey, inputs, statusMap(inputs.ids, now, true));
}

export async function updateSet(
  conn: Connection,
  kind: AssignmentSetKind,
  olds: Record<string, unknown>,
  inputs: AssignmentInputs,
  provider: unknown,
  moves: Record<string, string> = {},
): Promise<UpdateResult> {
  const client = conn.client();
  const wasExclusive = Boolean(olds.exclusive);
  if (!wasExclusive && inputs.exclusive)
    return { properties: await claim(conn, kind, client, inputs, statusesIn(olds, kind.stateKey), provider, moves) };
  // Exclusive -> additive releases the foreign ids, marked ones too (issue 38): they leave the
  // state and stay on the service, since additive never touches what the program does not list.
  const map =
    wasExclusive && !inputs.exclusive
      ? withoutForeign(statusesIn(olds, kind.stateKey))
      : statusesIn(olds, kind.stateKey);
  // An `up` that failed before the service said what landed marked those ids (state-map.ts):
  // then the state is no picture of the service, and the plan starts from a read of it. It
  // removes only ids the state names (a live id it does not name is recorded FOREIGN in
  // exclusive mode, for the next preview to name before an up removes it).
  const unsure = unconfirmedIn(map).size > 0;
  const read = () => listOrExplain(kind, client, inputs.guardrailId).then((ids) => new Set(ids));
  const live = unsure ? await read() : assignedIn(map);
  const plan = planChanges({
    desired: inputs.ids,
    live,
    managed: new Set(Object.keys(map)),
    exclusive: inputs.exclusive && !unsure,
  });
  // Nothing to write: a change of the state alone, or the engine's new attempt at a resource
  // whose last apply failed (it updates a partly applied resource even when nothing differs).
  // "Updated" then means checked: the set is read and recorded, as a refresh would.
  if (plan.add.length + plan.remove.length === 0 && !unsure)
    return { properties: setOutputs(kind.stateKey, inputs, statusMap(inputs.ids, await read(), inputs.exclusive)) };
  // An exclusive set's foreign ids stay foreign in a mark a failure leaves (apply.ts). In an
  // additive set's map FOREIGN means an id the program dropped that is still here: its own.
  const foreign = wasExclusive ? foreignIn(map) : new Set<string>();
  const now = await applyPlanToService(context(conn, kind, client, inputs, provider, foreign), plan, live);
  warnMoves(kind, inputs.guardrailId, moves, now, plan.add);
  return { properties: setOutputs(kind.stateKey, inputs, statusMap(inputs.ids, now, inputs.exclusive)) };
}

/** The `up`'s word on ids it took off other guardrails, from what `check` recorded (moves.ts); no call. */
function warnMoves(
  kind: AssignmentSetKind,
  guardrailId: string,
  moves: Record<string, string>,
  now: ReadonlySet<string>,
  added: readonly string[],
): void {
  const warning = movesWarning(kind, guardrailId, moves, now, added);
  // The engine shows the provider's stderr in the run's output; the host has no warning channel.
  if (warning) console.error(warning);
}

export async function deleteSet(
  conn: Connection,
  kind: AssignmentSetKind,
  props: Record<string, unknown>,
): Promise<void> {
  const client = conn.client();
  const guardrailId = (props.guardrailId as string).toLowerCase();
  const gone = (err: NotFoundError) =>
    confirmGone(conn, err, { what: `${kind.typeName} of guardrail ${guardrailId}`, guardrailId });
  let ids: string[];
  try {
    ids = props.exclusive
      ? await collect(kind.list(client, guardrailId))
      : [...assignedIn(statusesIn(props, kind.stateKey)), ...unconfirmedIn(statusesIn(props, kind.stateKey), true)];
  } catch (err) {
    // The guardrail is gone, and its assignments with it (rule 9), if a working service says so.
    if (err instanceof NotFoundError) return gone(err);
    throw err;
  }
  for (const part of chunk(ids.sort(), chunkSize(conn))) {
    try {
      await client.unassign(kind.wire, guardrailId, part);
    } catch (err) {
      if (err instanceof NotFoundError) return gone(err);
      throw new UserError(
        `${kind.typeName} for guardrail ${guardrailId}: ${describeFailure(kind, `unassigning ${part.length} ${kind.noun}(s)`, err)}`,
        { cause: err },
      );
    }
  }
}
