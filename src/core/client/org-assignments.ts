/**
 * The organization's assignment listings (`GET /guardrails/assignments/members` and `/keys`),
 * read at most once per kind per client (one per provider instance: connection.ts) and shared
 * by every set it serves: the moves lookup of `check` and the reads that name where a missing
 * id went (issue 43). The service has no filter on them (contract rule 32), so each read walks
 * every assignment of the organization.
 *
 * Never stale about this process's own writes: every assign, unassign and guardrail delete
 * through any client of the process goes through `noted`, which updates the view of the client
 * that wrote (a write whose outcome is not known exactly forgets it) and makes every other
 * client's view of that kind of the same service stale, to be read again when next asked. A write that lands
 * while the read is in flight is applied to its answer. Writes by anyone else during the command
 * are not seen, as they would not be by a read made a moment earlier. The process lives for one
 * CLI command on both faces, so the next command reads again.
 */
import type { AssigneeKind, GuardrailsClient } from "./client";

/** Each id's guardrails, the one this process assigned it to last first (held-elsewhere.ts relies on that order). */
export type Holders = ReadonlyMap<string, readonly string[]>;

/**
 * The listing, and the members whose rows behind the first may be stale: assigning a member moves
 * it off the other guardrail of that workspace, and which of its rows that was is not known here.
 * While the assigned guardrail leads they are harmless (the first competing guardrail is named);
 * a change that would bring one to the front answers false, and the view is read again.
 */
interface Data {
  holders: Map<string, string[]>;
  unsure: Set<string>;
}
type Change = (d: Data) => boolean;

interface View {
  /** The service's write count this view has seen (`epochs`). */
  epoch: number;
  holders: Promise<Map<string, string[]>>;
  /** The listing once read. */
  data?: Data | undefined;
  /** Changes by writes that landed while the read was in flight; undefined once it ended. */
  pending?: Change[] | undefined;
}

const views = new WeakMap<GuardrailsClient, Partial<Record<AssigneeKind, View>>>();
/** Each view's answer's unsure ids, for `ledByOwnWrite`. */
const unsureOf = new WeakMap<Holders, ReadonlySet<string>>();

/**
 * Whether `id`'s first guardrail in `holders` is the one this process assigned it to last, with
 * rows behind it that may be stale: a member moved within a workspace leaves its old row there.
 */
export const ledByOwnWrite = (holders: Holders, id: string): boolean => unsureOf.get(holders)?.has(id) === true;
/**
 * Per service (base URL) and kind, how many writes of that kind this process made: a view that saw
 * fewer is stale. Per kind, so that a member write never sends the key listing to be read again
 * (which set the engine runs first would otherwise change the calls).
 */
const epochs = new Map<string, number>();
const epochKey = (client: GuardrailsClient, kind: AssigneeKind) => `${kind} ${client.baseUrl}`;
const epochOf = (client: GuardrailsClient, kind: AssigneeKind) => epochs.get(epochKey(client, kind)) ?? 0;

async function readAll(client: GuardrailsClient, kind: AssigneeKind): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const rows =
    kind === "members"
      ? mapRows(client.listAllMemberAssignments(), (r) => [r.user_id, r.guardrail_id])
      : mapRows(client.listAllKeyAssignments(), (r) => [r.key_hash, r.guardrail_id]);
  for await (const [id, guardrailId] of rows) {
    const held = out.get(id);
    if (held) held.push(guardrailId);
    else out.set(id, [guardrailId]);
  }
  return out;
}

async function* mapRows<T>(rows: AsyncIterable<T>, f: (row: T) => [string, string]): AsyncIterable<[string, string]> {
  for await (const row of rows) yield f(row);
}

/** Whether `orgHolders` would answer without a call (a current view, read or in flight). */
export function hasOrgView(client: GuardrailsClient, kind: AssigneeKind): boolean {
  return views.get(client)?.[kind]?.epoch === epochOf(client, kind);
}

/** Each id's guardrails across the organization: the shared view, read once (concurrent callers share one read). */
export function orgHolders(client: GuardrailsClient, kind: AssigneeKind): Promise<Holders> {
  const mine = views.get(client) ?? {};
  views.set(client, mine);
  const known = mine[kind];
  if (known && known.epoch === epochOf(client, kind)) return known.holders;
  const view: View = { epoch: epochOf(client, kind), pending: [], holders: Promise.resolve(new Map()) };
  view.holders = readAll(client, kind).then(
    (holders) => {
      const data: Data = { holders, unsure: new Set() };
      unsureOf.set(holders, data.unsure);
      // Callers that asked before these writes landed get this answer; later ones read again if one broke it.
      const broken = (view.pending ?? []).filter((change) => !change(data)).length > 0;
      view.pending = undefined;
      view.data = data;
      if (broken && mine[kind] === view) delete mine[kind];
      return holders;
    },
    (err: unknown) => {
      // A failed read is never shared: the next caller reads again.
      if (mine[kind] === view) delete mine[kind];
      throw err;
    },
  );
  mine[kind] = view;
  return view.holders;
}

/** Applies a change to this client's views that are current, forgets the others; every other client's view goes stale. */
function wrote(client: GuardrailsClient, kinds: readonly AssigneeKind[], change: Change | undefined): void {
  const mine = views.get(client);
  for (const kind of kinds) {
    const before = epochOf(client, kind);
    epochs.set(epochKey(client, kind), before + 1);
    const view = mine?.[kind];
    if (!mine || !view) continue;
    if (view.epoch !== before || !change) {
      delete mine[kind];
      continue;
    }
    view.epoch = before + 1;
    if (view.pending) view.pending.push(change);
    else if (view.data && !change(view.data)) delete mine[kind];
  }
}

/** A key holds one guardrail at all: assigned, it is on that one only. A member's other rows stay, unsure. */
const assigned =
  (kind: AssigneeKind, guardrailId: string, ids: readonly string[]): Change =>
  ({ holders, unsure }) => {
    for (const id of ids) {
      const others = kind === "keys" ? [] : (holders.get(id) ?? []).filter((g) => g !== guardrailId);
      holders.set(id, [guardrailId, ...others]);
      if (others.length > 0) unsure.add(id);
    }
    return true;
  };

/** Off the guardrail; false when that brings an unsure row to the front (it may be stale). */
const unassigned =
  (guardrailId: string, ids: readonly string[]): Change =>
  ({ holders, unsure }) => {
    let sure = true;
    for (const id of ids) {
      const held = holders.get(id) ?? [];
      const rest = held.filter((g) => g !== guardrailId);
      if (held[0] === guardrailId && rest.length > 0 && unsure.has(id)) sure = false;
      if (rest.length > 0) holders.set(id, rest);
      else {
        holders.delete(id);
        unsure.delete(id);
      }
    }
    return sure;
  };

/**
 * A bulk write's call, noted in the views when it answers; answers its count. An assign whose
 * count is every id, and any unassign that answers (ids not there are skipped: none is there
 * after it), is applied; a short assign (some ids skipped, which ones unknown) or a failed call
 * forgets the view.
 */
export async function noted(
  client: GuardrailsClient,
  write: { verb: "assign" | "unassign"; kind: AssigneeKind; guardrailId: string; ids: readonly string[] },
  call: Promise<{ assigned_count: number } | { unassigned_count: number }>,
): Promise<number> {
  const { verb, kind, guardrailId, ids } = write;
  let n: number;
  try {
    const answer = await call;
    n = "assigned_count" in answer ? answer.assigned_count : answer.unassigned_count;
  } catch (err) {
    wrote(client, [kind], undefined);
    throw err;
  }
  const g = guardrailId.toLowerCase();
  const exact = verb === "unassign" || n === ids.length;
  wrote(client, [kind], exact ? (verb === "assign" ? assigned(kind, g, ids) : unassigned(g, ids)) : undefined);
  return n;
}

/** A guardrail delete, noted: its assignments went with it (contract rule 9); a failed one forgets the views. */
export async function notedDelete(
  client: GuardrailsClient,
  guardrailId: string,
  call: Promise<unknown>,
): Promise<void> {
  const kinds = ["members", "keys"] as const;
  try {
    await call;
  } catch (err) {
    wrote(client, kinds, undefined);
    throw err;
  }
  const gone = guardrailId.toLowerCase();
  wrote(client, kinds, (d) =>
    unassigned(
      gone,
      [...d.holders].filter(([, on]) => on.includes(gone)).map(([id]) => id),
    )(d),
  );
}
