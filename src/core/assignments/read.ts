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
import { setOutputs, statusesIn, statusMap } from "./state-map";
import { FOREIGN } from "./status";
import type { ReadResult } from "../results";

export async function readSet(
  kind: AssignmentSetKind,
  id: string,
  props: Record<string, unknown>,
): Promise<ReadResult | undefined> {
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
