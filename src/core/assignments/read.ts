/**
 * `read` of an assignment set: the live set, with each id the program asked for that is not
 * here located (another guardrail, or gone), and the foreign ids re-derived.
 */
import { collect } from "../client/pagination";
import { NotFoundError } from "../client/errors";
import { getClient } from "../settings/config";
import { confirmGone } from "../confirm-gone";
import type { AssignmentSetKind } from "./kind";
import { heldElsewhere } from "./held-elsewhere";
import { setOutputs, setResourceId, statusesIn, statusMap } from "./state-map";
import { FOREIGN } from "./status";
import type { ReadResult } from "../results";
import { UUID_RE } from "../fields/constants";
import { UserError } from "../user-error";

export async function readSet(
  kind: AssignmentSetKind,
  id: string,
  props: Record<string, unknown> | undefined,
): Promise<ReadResult | undefined> {
  if (props === undefined) return importSet(kind, id);
  const client = getClient();
  const guardrailId = ((props?.guardrailId as string | undefined) ?? id.split("/")[0]!).toLowerCase();
  let live: Set<string>;
  try {
    live = new Set(await collect(kind.list(client, guardrailId)));
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    await confirmGone(client, err, { what: `${kind.typeName} of guardrail ${guardrailId}`, guardrailId });
    return undefined;
  }
  const exclusive = Boolean(props?.exclusive);
  const previous = statusesIn(props, kind.stateKey);
  // Ids the program asked for keep their place; foreign ids are re-derived from `live`.
  const wanted = Object.keys(previous).filter((k) => previous[k] !== FOREIGN);
  const elsewhere = await heldElsewhere(
    client,
    kind,
    guardrailId,
    wanted.filter((k) => !live.has(k)),
  );
  const map = statusMap(wanted, live, exclusive, elsewhere);
  // An id this resource still has to remove (a failed unassign) stays in its care while it is here.
  for (const k of Object.keys(previous)) if (previous[k] === FOREIGN && live.has(k)) map[k] = FOREIGN;
  const outs = setOutputs(kind.stateKey, { guardrailId, exclusive }, map);
  return { id, properties: outs, inputs: outs };
}

/**
 * The guardrail of an import id, which names the set: `<guardrail id>/members` or
 * `<guardrail id>/keys` (the id `create` records). Anything else is refused, saying the form.
 */
export function importedGuardrail(kind: AssignmentSetKind, id: string): string {
  const [guardrailId = "", suffix, ...rest] = id.split("/");
  if (UUID_RE.test(guardrailId) && suffix === kind.stateKey && rest.length === 0) return guardrailId.toLowerCase();
  const shown = id.length > 120 ? `${JSON.stringify(id.slice(0, 117))}...` : JSON.stringify(id);
  throw new UserError(
    `${kind.typeName}: cannot import ${shown}: the id of a ${kind.noun} set is <guardrail id>/${kind.stateKey} (e.g. 3f2b8c1e-0000-4000-8000-000000000000/${kind.stateKey})`,
  );
}

/**
 * `read` with nothing but the id (an import): the guardrail's whole set as it is now, every
 * id assigned, in additive mode. Additive is what an import can say for sure: exclusive would
 * claim the guardrail's whole set from then on, a decision the program makes (`exclusive: true`
 * previews as an update in place). Undefined when the guardrail is gone.
 */
async function importSet(kind: AssignmentSetKind, id: string): Promise<ReadResult | undefined> {
  const guardrailId = importedGuardrail(kind, id);
  let live: Set<string>;
  try {
    live = new Set(await collect(kind.list(getClient(), guardrailId)));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const outs = setOutputs(kind.stateKey, { guardrailId, exclusive: false }, statusMap(live, live, false));
  return { id: setResourceId(guardrailId, kind.stateKey), properties: outs, inputs: outs };
}
