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
import { FOREIGN } from "./status";
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
}

/**
 * Sends a plan as chunked bulk calls and checks every count. Answers the ids now assigned
 * here; on any failure re-lists and throws a PartialApplyError that records what landed.
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
  try {
    for (const ids of chunk(plan.remove, ctx.chunkSize)) {
      const n = await bulk("unassign", ids);
      for (const id of ids) now.delete(id);
      if (n === ids.length) continue;
      const live = await relist();
      const stuck = ids.filter((id) => live.has(id));
      for (const id of stuck) now.add(id);
      if (stuck.length > 0)
        problems.push(`${stuck.length} ${kind.noun}(s) could not be unassigned: ${stuck.join(", ")}`);
    }
    for (const ids of chunk(plan.add, ctx.chunkSize)) {
      const n = await bulk("assign", ids);
      for (const id of ids) now.add(id);
      if (n === ids.length) continue;
      // Some were skipped: find out which, and name them.
      const live = await relist();
      const missing = ids.filter((id) => !live.has(id));
      for (const id of missing) now.delete(id);
      if (missing.length > 0)
        problems.push(
          `${missing.length} ${kind.noun}(s) did not land (the service skipped them; are they ${kind.skipReason}?): ${missing.join(", ")}`,
        );
    }
  } catch (err) {
    // A call failed past its retries. Record what actually landed, then fail.
    const live = await relist().catch(() => now);
    throw partial(ctx, live, plan, [(err as Error).message], err);
  }
  if (problems.length > 0) throw partial(ctx, now, plan, problems);
  return now;
}

function partial(
  ctx: ApplyContext,
  live: ReadonlySet<string>,
  plan: Plan,
  reasons: string[],
  cause?: unknown,
): PartialApplyError {
  const { kind, inputs } = ctx;
  const map = statusMap(inputs.ids, live, inputs.exclusive);
  // Ids this resource was removing that are still here stay in its care, so the next up
  // removes them (in additive mode they would otherwise be forgotten, and left behind).
  for (const id of plan.remove) if (live.has(id) && !(id in map)) map[id] = FOREIGN;
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
