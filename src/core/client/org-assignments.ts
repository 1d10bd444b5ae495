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
 * client's view of the same service stale, to be read again when next asked. A write that lands
 * while the read is in flight is applied to its answer. Writes by anyone else during the command
 * are not seen, as they would not be by a read made a moment earlier. The process lives for one
 * CLI command on both faces, so the next command reads again.
 */
import type { AssigneeKind, GuardrailsClient } from "./client";

/** Each id's guardrails, the one this process assigned it to last first (held-elsewhere.ts relies on that order). */
export type Holders = ReadonlyMap<string, readonly string[]>;

type Change = (h: Map<string, string[]>) => void;

interface View {
  /** The service's write count this view has seen (`epochs`). */
  epoch: number;
  holders: Promise<Map<string, string[]>>;
  /** Changes by writes that landed while the read was in flight; undefined once it ended. */
  pending?: Change[] | undefined;
}

const views = new WeakMap<GuardrailsClient, Partial<Record<AssigneeKind, View>>>();
/** Per service (base URL), how many assignment writes this process made: a view that saw fewer is stale. */
const epochs = new Map<string, number>();
const epochOf = (client: GuardrailsClient) => epochs.get(client.baseUrl) ?? 0;

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
  return views.get(client)?.[kind]?.epoch === epochOf(client);
}

/** Each id's guardrails across the organization: the shared view, read once (concurrent callers share one read). */
export function orgHolders(client: GuardrailsClient, kind: AssigneeKind): Promise<Holders> {
  const mine = views.get(client) ?? {};
  views.set(client, mine);
  const known = mine[kind];
  if (known && known.epoch === epochOf(client)) return known.holders;
  const view: View = { epoch: epochOf(client), pending: [], holders: Promise.resolve(new Map()) };
  view.holders = readAll(client, kind).then(
    (h) => {
      for (const change of view.pending ?? []) change(h);
      view.pending = undefined;
      return h;
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
  const before = epochOf(client);
  epochs.set(client.baseUrl, before + 1);
  const mine = views.get(client);
  for (const kind of kinds) {
    const view = mine?.[kind];
    if (!view) continue;
    if (view.epoch !== before || !change) {
      delete mine![kind];
      continue;
    }
    view.epoch = before + 1;
    if (view.pending) view.pending.push(change);
    else void view.holders.then(change);
  }
}

const assigned =
  (guardrailId: string, ids: readonly string[]): Change =>
  (h) => {
    for (const id of ids) h.set(id, [guardrailId, ...(h.get(id) ?? []).filter((g) => g !== guardrailId)]);
  };
const unassigned =
  (guardrailId: string, ids: readonly string[]): Change =>
  (h) => {
    for (const id of ids) {
      const rest = (h.get(id) ?? []).filter((g) => g !== guardrailId);
      if (rest.length > 0) h.set(id, rest);
      else h.delete(id);
    }
  };

/**
 * A bulk write's call, noted in the views when it answers; answers its count. An assign whose count is every id,
 * and any unassign that answers (ids not there are skipped: none is there after it), is applied;
 * a short assign (some ids skipped, which ones unknown) or a failed call forgets the view.
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
  const exact = verb === "unassign" || n === ids.length;
  const change = verb === "assign" ? assigned : unassigned;
  wrote(client, [kind], exact ? change(guardrailId.toLowerCase(), ids) : undefined);
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
  wrote(client, kinds, (h) =>
    unassigned(
      gone,
      [...h].filter(([, held]) => held.includes(gone)).map(([id]) => id),
    )(h),
  );
}
