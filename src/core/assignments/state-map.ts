/**
 * The state of an assignment set: `{guardrailId, exclusive, <members|keys>: {id: status}}`.
 * The map holds every id the program asked for: `true` when it is assigned to this guardrail,
 * else a status saying where it went (status.ts), so a refreshed preview reads
 * `~ user_bob: "on guardrail Engineering (3f2b8c1e…)" => true`. In exclusive mode it also holds
 * each live id the program did not ask for, as FOREIGN, which the next preview shows as
 * `- user_eve: "..."`. Pure: no client, no config.
 */
import type { AssignmentInputs } from "../args/assignment-args";
import { FOREIGN, isForeign, NOT_ASSIGNED, parseUnconfirmed } from "./status";

/** An id map as state holds it. */
export type StatusMap = Record<string, true | string>;

/** The map stored under the kind's state key, or an empty one. */
export function statusesIn(props: Record<string, unknown> | undefined, stateKey: string): StatusMap {
  return (props?.[stateKey] as StatusMap | undefined) ?? {};
}

/** Ids the state says are on this guardrail (the program's, and foreign ones in its care). */
export function assignedIn(map: StatusMap): Set<string> {
  return new Set(Object.keys(map).filter((id) => map[id] === true || map[id] === FOREIGN));
}

/**
 * Ids whose fate a failed `up` left unknown (status.ts): the next write reads the service first.
 * `own`: only the program's (an additive set never touches a foreign one).
 */
export function unconfirmedIn(map: StatusMap, own = false): Set<string> {
  return new Set(
    Object.keys(map).filter((id) => {
      const mark = parseUnconfirmed(map[id]);
      return mark !== undefined && !(own && mark.foreign);
    }),
  );
}

/** Ids the map holds that are not the program's: foreign, sure or marked unconfirmed. */
export function foreignIn(map: StatusMap): Set<string> {
  return new Set(Object.keys(map).filter((id) => isForeign(map[id])));
}

/** The map without foreign ids, marked ones too (exclusive -> additive releases them). */
export function withoutForeign(map: StatusMap): StatusMap {
  return Object.fromEntries(Object.entries(map).filter(([, status]) => !isForeign(status)));
}

/**
 * The state map: each wanted id with its status, plus (exclusive) every other live id as
 * FOREIGN. `elsewhere` gives the status of a wanted id found on a competing guardrail.
 */
export function statusMap(
  wanted: Iterable<string>,
  live: ReadonlySet<string>,
  exclusive: boolean,
  elsewhere: Readonly<Record<string, string>> = {},
): StatusMap {
  const map: StatusMap = {};
  for (const id of wanted) map[id] = live.has(id) ? true : (elsewhere[id] ?? NOT_ASSIGNED);
  if (exclusive) for (const id of live) if (!(id in map)) map[id] = FOREIGN;
  return map;
}

/** The resource's outputs (and refreshed inputs): ids sorted, so state is byte-stable. */
export function setOutputs(
  stateKey: string,
  inputs: Pick<AssignmentInputs, "guardrailId" | "exclusive">,
  map: StatusMap,
): Record<string, unknown> {
  const sorted = Object.fromEntries(
    Object.keys(map)
      .sort()
      .map((k) => [k, map[k]!]),
  );
  return { guardrailId: inputs.guardrailId, exclusive: inputs.exclusive, [stateKey]: sorted };
}

/** The resource id of a set: one set per guardrail and kind. */
export function setResourceId(guardrailId: string, stateKey: string): string {
  return `${guardrailId}/${stateKey}`;
}
