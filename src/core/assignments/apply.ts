/**
 * Applying a plan to the service: chunked bulk calls, every count checked, and on any
 * failure a PartialApplyError whose `properties` record exactly what landed, so the engine
 * writes a true state and the next `up` finishes the job.
 */
import { collect } from "../client/pagination";
import { GuardrailsError } from "../client/errors";
import type { GuardrailsClient } from "../client/client";
import type { AssignmentInputs } from "../args/assignment-args";
import { inProgramNames, type AssignmentSetKind } from "./kind";
import type { Plan } from "./plan";
import { setOutputs, setResourceId, statusMap } from "./state-map";
import { FOREIGN, UNCONFIRMED, UNCONFIRMED_FOREIGN } from "./status";
import { UserError } from "../user-error";

/** A failure after some calls landed: the engine records `properties` as the state. */
export class PartialApplyError extends UserError {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * What a failed call means, in the program's words: the arg name instead of the wire field
 * (`memberUserIds`, not `member_user_ids`) and no URL. The original error stays as `cause`.
 */
export function describeFailure(kind: AssignmentSetKind, action: string, err: unknown): string {
  if (!(err instanceof GuardrailsError)) return `${action} failed: ${err instanceof Error ? err.message : String(err)}`;
  const said = err.serverMessage ? `: ${inProgramNames(kind, err.serverMessage)}` : "";
  return `${action} failed (${err.status === 0 ? err.name : `HTTP ${err.status}`})${said}`;
}

/** What one apply needs besides the plan. */
export interface ApplyContext {
  client: GuardrailsClient;
  kind: AssignmentSetKind;
  inputs: AssignmentInputs;
  /** Largest bulk call. */
  chunkSize: number;
  /** The engine's `__provider` input, kept in a partial state. */
  provider: unknown;
  /**
   * Ids an exclusive set holds that the program never listed (state-map.ts `foreignIn`): a mark
   * on one keeps that it is foreign (UNCONFIRMED_FOREIGN). Default: none.
   */
  foreign?: ReadonlySet<string>;
}

/** A chunk whose call failed past its retries: its error, and its ids (their fate unknown). */
interface ChunkFailure {
  err: unknown;
  ids: string[];
}

/**
 * Runs `send` on every chunk with up to `concurrency` in flight. After the first failure no
 * chunk starts, but every chunk already sent is waited for, so when this answers no call is
 * still in flight and a re-list shows the outcome of each. Answers the failures.
 */
async function eachChunk(
  chunks: string[][],
  concurrency: number,
  send: (ids: string[]) => Promise<void>,
): Promise<ChunkFailure[]> {
  const failures: ChunkFailure[] = [];
  let next = 0;
  const worker = async () => {
    while (failures.length === 0 && next < chunks.length) {
      const ids = chunks[next++]!;
      await send(ids).catch((err: unknown) => failures.push({ err, ids }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), chunks.length) }, worker));
  return failures;
}

/**
 * Sends a plan as chunked bulk calls, removes first, each with up to the client's concurrency
 * in flight, and checks every count. Answers the ids now assigned here; a count short of its
 * chunk is settled by one re-list once the chunks are done; on any failure waits for the
 * chunks in flight, re-lists and throws a PartialApplyError that records what landed, and
 * marks unconfirmed the ids whose fate that re-list could not settle (it failed too).
 */
export async function applyPlanToService(
  ctx: ApplyContext,
  plan: Plan,
  before: ReadonlySet<string>,
): Promise<Set<string>> {
  const { client, kind, inputs } = ctx;
  const now = new Set(before);
  const problems: string[] = [];
  const relist = async () => new Set(await collect(kind.list(client, inputs.guardrailId)));
  // A failed call says what it was doing, in the program's words (describeFailure).
  const bulk = (verb: "assign" | "unassign", ids: string[]) =>
    client[verb](kind.wire, inputs.guardrailId, ids).catch((err) =>
      Promise.reject(
        new UserError(describeFailure(kind, `${verb}ing ${ids.length} ${kind.noun}(s)`, err), { cause: err }),
      ),
    );
  // When the read that settles an outcome fails too, the ids it was to settle are recorded as
  // UNCONFIRMED: never the old map, never a guess (issue 38).
  const unread = (err: unknown, ids: string[], reasons: string[]) =>
    partial(ctx, now, plan, [...reasons, describeFailure(kind, `reading the ${kind.noun}s back`, err)], err, ids);
  for (const verb of ["unassign", "assign"] as const) {
    const adding = verb === "assign";
    const short: string[][] = [];
    const failures = await eachChunk(
      chunk(adding ? plan.add : plan.remove, ctx.chunkSize),
      client.concurrency,
      async (ids) => {
        const n = await bulk(verb, ids);
        for (const id of ids) adding ? now.add(id) : now.delete(id);
        if (n !== ids.length) short.push(ids);
      },
    );
    if (failures.length > 0) {
      // A call failed past its retries; none is in flight now. Record what actually landed, then fail.
      const reasons = [...problems, ...failures.map((f) => (f.err as Error).message)];
      const unsettled = [...failures.flatMap((f) => f.ids), ...short.flat()];
      const live = await relist().catch((err: unknown) => Promise.reject(unread(err, unsettled, reasons)));
      throw partial(ctx, live, plan, reasons, failures[0]!.err);
    }
    if (short.length === 0) continue;
    // Some were skipped: find out which, and name them.
    const live = await relist().catch((err: unknown) => Promise.reject(unread(err, short.flat(), problems)));
    for (const ids of short) {
      const wrong = ids.filter((id) => live.has(id) !== adding);
      for (const id of wrong) adding ? now.delete(id) : now.add(id);
      if (wrong.length === 0) continue;
      problems.push(
        adding
          ? `${wrong.length} ${kind.noun}(s) did not land (the service skipped them; are they ${kind.skipReason}?): ${wrong.join(", ")}`
          : `${wrong.length} ${kind.noun}(s) could not be unassigned: ${wrong.join(", ")}`,
      );
    }
  }
  if (problems.length > 0) throw partial(ctx, now, plan, problems);
  return now;
}

function partial(
  ctx: ApplyContext,
  live: ReadonlySet<string>,
  plan: Plan,
  said: string[],
  cause?: unknown,
  unsettled: readonly string[] = [],
): PartialApplyError {
  const { kind, inputs } = ctx;
  const map = statusMap(inputs.ids, live, inputs.exclusive);
  // Ids this resource was removing that are still here stay in its care, so the next up
  // removes them (in additive mode they would otherwise be forgotten, and left behind).
  for (const id of plan.remove) if (live.has(id) && !(id in map)) map[id] = FOREIGN;
  // Ids whose fate no answer said: marked, in the state's care, so the next up reads first. The
  // mark keeps what was known of the id: a foreign one stays foreign (a switch to additive
  // releases it; the program's are never confused with it).
  for (const id of unsettled)
    map[id] = inputs.exclusive && !inputs.ids.has(id) && ctx.foreign?.has(id) ? UNCONFIRMED_FOREIGN : UNCONFIRMED;
  // The engine prints the reasons (not the message): the mark is explained in both.
  const reasons = unsettled.length
    ? [
        ...said,
        `the service did not say whether ${unsettled.length} ${kind.noun}(s) changed; the state marks them "unconfirmed", and the next \`pulumi up\` reads the set before it writes`,
      ]
    : said;
  const message = `${kind.typeName} for guardrail ${inputs.guardrailId}: ${reasons.join("; ")}. The state records what landed; fix the ids and run \`pulumi up\` again.`;
  const properties = { ...setOutputs(kind.stateKey, inputs, map), __provider: ctx.provider };
  return new PartialApplyError(
    message,
    setResourceId(inputs.guardrailId, kind.stateKey),
    properties,
    reasons,
    cause === undefined ? undefined : { cause },
  );
}

/** Splits ids into calls of at most `size`; never an empty call. */
export function chunk<T>(ids: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer (got ${size})`);
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}
