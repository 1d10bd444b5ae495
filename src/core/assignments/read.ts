/**
 * `read` of an assignment set: the live set, with each id the program asked for that is not
 * here located (another guardrail, or gone), and the foreign ids re-derived.
 */
import { collect } from "../client/pagination";
import { NotFoundError } from "../client/errors";
import type { Connection } from "../connection";
import { confirmGone } from "../confirm-gone";
import type { AssignmentSetKind } from "./kind";
import { heldElsewhere } from "./held-elsewhere";
import { setOutputs, setResourceId, statusesIn, statusMap } from "./state-map";
import { FOREIGN, isForeign } from "./status";
import type { ReadResult } from "../results";
import { parseSetImportId } from "./import-id";

export async function readSet(
  conn: Connection,
  kind: AssignmentSetKind,
  id: string,
  props: Record<string, unknown> | undefined,
): Promise<ReadResult | undefined> {
  if (props === undefined) return importSet(conn, kind, id);
  const client = conn.client();
  const guardrailId = ((props?.guardrailId as string | undefined) ?? id.split("/")[0]!).toLowerCase();
  let live: Set<string>;
  try {
    live = new Set(await collect(kind.list(client, guardrailId)));
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    await confirmGone(conn, err, { what: `${kind.typeName} of guardrail ${guardrailId}`, guardrailId });
    return undefined;
  }
  const exclusive = Boolean(props?.exclusive);
  const previous = statusesIn(props, kind.stateKey);
  // Ids the program asked for keep their place; foreign ids (marked ones too: issue 38) are
  // re-derived from `live`.
  const wanted = Object.keys(previous).filter((k) => !isForeign(previous[k]));
  const elsewhere = await heldElsewhere(
    client,
    kind,
    guardrailId,
    wanted.filter((k) => !live.has(k)),
  );
  const map = statusMap(wanted, live, exclusive, elsewhere);
  // An id this resource still has to remove (a failed unassign) stays in its care while it is here.
  for (const k of Object.keys(previous)) if (isForeign(previous[k]) && live.has(k)) map[k] = FOREIGN;
  const outs = setOutputs(kind.stateKey, { guardrailId, exclusive }, map);
  return { id, properties: outs, inputs: outs };
}

/** The guardrail of an import id (import-id.ts has the forms); anything else is refused, saying them. */
export function importedGuardrail(kind: AssignmentSetKind, id: string): string {
  return parseSetImportId(kind, id).guardrailId;
}

/**
 * `read` with nothing but the id (an import). The plain id: the guardrail's whole set as it
 * is now, every id assigned, in additive mode. Additive is what an import can say for sure:
 * exclusive would claim the guardrail's whole set from then on, a decision the program makes
 * (`exclusive: true` previews as an update in place). The managed id (import-id.ts): only the
 * ids it names, each with where it is now, in its mode; an id assigned out of band is left
 * out even in exclusive mode (the next refresh finds it, as it would have before the import).
 * Undefined when the guardrail is gone.
 */
async function importSet(conn: Connection, kind: AssignmentSetKind, id: string): Promise<ReadResult | undefined> {
  const { guardrailId, managed } = parseSetImportId(kind, id);
  const client = conn.client();
  let live: Set<string>;
  try {
    live = new Set(await collect(kind.list(client, guardrailId)));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
  const wanted = managed ? managed.ids : [...live];
  const exclusive = managed?.exclusive ?? false;
  const elsewhere = managed
    ? await heldElsewhere(
        client,
        kind,
        guardrailId,
        wanted.filter((k) => !live.has(k)),
      )
    : {};
  const outs = setOutputs(kind.stateKey, { guardrailId, exclusive }, statusMap(wanted, live, false, elsewhere));
  return { id: setResourceId(guardrailId, kind.stateKey), properties: outs, inputs: outs };
}
