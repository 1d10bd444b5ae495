/**
 * Provider methods of the assignment sets, one implementation for members and keys.
 *
 * State: `{guardrailId, exclusive, <members|keys>: {id: status}}`. The map holds every id
 * the program asked for: `true` when it is assigned to this guardrail, else a string saying
 * where it went ("on guardrail X", "not assigned"), so a refreshed preview reads
 * `~ user_bob: "on guardrail X" => true`. In exclusive mode it also holds each live id the
 * program did not ask for, as FOREIGN, which the next preview shows as `- user_eve: "..."`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { collect } from "../client/pagination";
import { GuardrailsError, NotFoundError } from "../client/errors";
import type { GuardrailsClient } from "../client/client";
import { getClient, resolveSettings } from "../config";
import { confirmGone } from "../confirm-gone";
import { DEFAULT_MAX_BULK } from "../args/constants";
import { assignmentArgsSchema, type AssignmentInputs } from "../args/assignment-args";
import { issuesToFailures } from "../args/messages";
import { containsUnknown, isUnknown } from "../args/unknown";
import { userProps } from "../guardrail/check";
import type { AssignmentKind } from "./kind";
import { chunk, planChanges, type Plan } from "./plan";

export type StatusMap = Record<string, true | string>;

/** Status of an id assigned here that the program does not list (exclusive mode removes it). */
export const FOREIGN = "assigned here, not in the program";

export interface AssignmentOutputs {
  guardrailId: string;
  exclusive: boolean;
  /** Under the kind's map name (`members` / `keys`). */
  [mapName: string]: unknown;
}

/** A failure after some calls landed: the engine records `properties` as the state. */
export class PartialApplyError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: string[],
  ) {
    super(message);
  }
}

const mapNameOf = (kind: AssignmentKind) => kind.wire;

const withoutForeign = (map: StatusMap): StatusMap => Object.fromEntries(Object.entries(map).filter(([, status]) => status !== FOREIGN));

export function assignmentLifecycle(kind: AssignmentKind) {
  const mapName = mapNameOf(kind);
  const schema = assignmentArgsSchema(mapName, kind.argName);
  const rename = (property: string) => property.replace(new RegExp(`^${mapName}\\b`), kind.argName);
  const resourceId = (guardrailId: string) => `${guardrailId}/${mapName}`;
  const statuses = (outs: Record<string, unknown> | undefined): StatusMap => ((outs?.[mapName] as StatusMap | undefined) ?? {});
  const assignedIn = (map: StatusMap) => new Set(Object.keys(map).filter((id) => map[id] === true || map[id] === FOREIGN));

  function parse(news: Record<string, unknown>): AssignmentInputs {
    const parsed = schema.safeParse(userProps(news), { reportInput: true });
    if (!parsed.success) throw new Error(issuesToFailures(parsed.error).map((f) => `${rename(f.property)}: ${f.reason}`).join("; "));
    const data = parsed.data as Record<string, unknown>;
    const map = data[mapName] as StatusMap;
    // Guardrail ids are UUIDs, case-insensitive; the service's own are lower case.
    return { guardrailId: (data.guardrailId as string).toLowerCase(), ids: new Set(Object.keys(map).filter((id) => map[id] === true)), exclusive: (data.exclusive as boolean | null | undefined) ?? false };
  }

  function outputs(inputs: AssignmentInputs, map: StatusMap): Record<string, unknown> {
    const sorted = Object.fromEntries(Object.keys(map).sort().map((k) => [k, map[k]!]));
    return { guardrailId: inputs.guardrailId, exclusive: inputs.exclusive, [mapName]: sorted };
  }

  const chunkSize = () => resolveSettings().maxBulk ?? DEFAULT_MAX_BULK;

  /**
   * Sends a plan as chunked bulk calls and checks every count. Answers the ids now assigned
   * here; on any failure re-lists and throws a PartialApplyError that records what landed.
   */
  async function apply(client: GuardrailsClient, inputs: AssignmentInputs, plan: Plan, before: ReadonlySet<string>, extra: { provider: unknown }): Promise<Set<string>> {
    const now = new Set(before);
    const problems: string[] = [];
    try {
      for (const ids of chunk(plan.remove, chunkSize())) {
        const n = await client.unassign(kind.wire, inputs.guardrailId, ids);
        ids.forEach((id) => now.delete(id));
        if (n !== ids.length) {
          const live = new Set(await collect(kind.list(client, inputs.guardrailId)));
          const stuck = ids.filter((id) => live.has(id));
          stuck.forEach((id) => now.add(id));
          if (stuck.length > 0) problems.push(`${stuck.length} ${kind.noun}(s) could not be unassigned: ${stuck.join(", ")}`);
        }
      }
      for (const ids of chunk(plan.add, chunkSize())) {
        const n = await client.assign(kind.wire, inputs.guardrailId, ids);
        ids.forEach((id) => now.add(id));
        if (n !== ids.length) {
          // Some were skipped: find out which, and name them.
          const live = new Set(await collect(kind.list(client, inputs.guardrailId)));
          const missing = ids.filter((id) => !live.has(id));
          missing.forEach((id) => now.delete(id));
          if (missing.length > 0) problems.push(`${missing.length} ${kind.noun}(s) did not land (the service skipped them; are they ${kind.skipReason}?): ${missing.join(", ")}`);
        }
      }
    } catch (err) {
      // A call failed past its retries. Record what actually landed, then fail.
      const live = await collect(kind.list(client, inputs.guardrailId)).then((ids) => new Set(ids), () => now);
      throw partial(inputs, live, plan, extra, [`${(err as Error).message}`]);
    }
    if (problems.length > 0) throw partial(inputs, now, plan, extra, problems);
    return now;
  }

  function partial(inputs: AssignmentInputs, live: ReadonlySet<string>, plan: Plan, extra: { provider: unknown }, reasons: string[]): PartialApplyError {
    const map = statusMap(inputs.ids, live, inputs.exclusive, {});
    // Ids this resource was removing that are still here stay in its care, so the next up
    // removes them (in additive mode they would otherwise be forgotten, and left behind).
    for (const id of plan.remove) if (live.has(id) && !(id in map)) map[id] = FOREIGN;
    const message = `${kind.typeName} for guardrail ${inputs.guardrailId}: ${reasons.join("; ")}. The state records what landed; fix the ids and run \`pulumi up\` again.`;
    return new PartialApplyError(message, resourceId(inputs.guardrailId), { ...outputs(inputs, map), __provider: extra.provider }, reasons);
  }

  /** The state map: wanted ids with their status, plus (exclusive) every other live id as FOREIGN. */
  function statusMap(wanted: Iterable<string>, live: ReadonlySet<string>, exclusive: boolean, elsewhere: Record<string, string>): StatusMap {
    const map: StatusMap = {};
    for (const id of wanted) map[id] = live.has(id) ? true : elsewhere[id] ? `on guardrail ${elsewhere[id]}` : "not assigned";
    if (exclusive) for (const id of live) if (!(id in map)) map[id] = FOREIGN;
    return map;
  }

  /** Where ids that left this guardrail went, when the other guardrail competes with ours. */
  async function locate(client: GuardrailsClient, guardrailId: string, ids: readonly string[]): Promise<Record<string, string>> {
    if (ids.length === 0) return {};
    const wanted = new Set(ids);
    const found: Record<string, string> = {};
    for await (const row of kind.listAll(client)) if (wanted.has(row.id) && row.guardrailId !== guardrailId) found[row.id] = row.guardrailId;
    if (kind.sameScope === "organization") return found;
    const workspaceOf = new Map<string, string | undefined>();
    const ws = async (id: string) => {
      if (!workspaceOf.has(id)) workspaceOf.set(id, await client.getGuardrail(id).then((g) => g.workspace_id ?? undefined, () => undefined));
      return workspaceOf.get(id);
    };
    const ours = await ws(guardrailId);
    for (const [id, other] of Object.entries(found)) if ((await ws(other)) !== ours) delete found[id];
    return found;
  }

  return {
    async check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
      const props = userProps(news);
      const known = Object.fromEntries(Object.entries(props).filter(([, v]) => !containsUnknown(v)));
      const failures = [];
      if (!isUnknown(props.guardrailId) && !("guardrailId" in known)) failures.push({ property: "guardrailId", reason: "is required: the id of a Guardrail (e.g. guardrail.id)" });
      const parsed = schema.partial().safeParse(known, { reportInput: true });
      if (!parsed.success) for (const f of issuesToFailures(parsed.error, ["guardrailId", kind.argName, "exclusive"])) failures.push({ property: rename(f.property), reason: f.reason });
      return { inputs: news, failures };
    },

    async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
      const props = userProps(news);
      if (isUnknown(props.guardrailId)) return { changes: true, replaces: ["guardrailId"], deleteBeforeReplace: false };
      if (String(props.guardrailId).toLowerCase() !== String(olds.guardrailId).toLowerCase()) return { changes: true, replaces: ["guardrailId"], deleteBeforeReplace: false };
      if (containsUnknown(props)) return { changes: true, replaces: [] };
      const inputs = parse(news);
      const map = statuses(olds);
      // A change: the mode, an id asked for but not assigned here, or an id recorded that the
      // program no longer lists (assigned ones are removed; the rest just leave the state).
      const changes =
        inputs.exclusive !== Boolean(olds.exclusive) || [...inputs.ids].some((id) => map[id] !== true) || Object.keys(map).some((id) => !inputs.ids.has(id));
      return { changes, replaces: [], deleteBeforeReplace: false };
    },

    async create(news: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult> {
      const inputs = parse(news);
      const client = getClient();
      // Read before writing, in both modes: ids already here (an adopted guardrail) cost no
      // assign call, so adopting an existing set exactly makes no write at all. A new
      // guardrail's empty set is one list call.
      // Exclusive mode on a guardrail that already has ids: add ours, remove nothing yet.
      // The foreign ids are recorded, so the next refreshed preview names their removal
      // before any `up` performs it.
      const live = new Set(await listOrExplain(client, inputs.guardrailId));
      const plan = planChanges({ desired: inputs.ids, live, managed: new Set(), exclusive: false });
      const now = await apply(client, inputs, plan, live, { provider: news.__provider });
      return { id: resourceId(inputs.guardrailId), outs: outputs(inputs, statusMap(inputs.ids, now, inputs.exclusive, {})) };
    },

    async read(id: string, props: Record<string, unknown>): Promise<pulumi.dynamic.ReadResult> {
      const client = getClient();
      const guardrailId = ((props?.guardrailId as string | undefined) ?? id.split("/")[0]!).toLowerCase();
      let live: Set<string>;
      try {
        live = new Set(await collect(kind.list(client, guardrailId)));
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        await confirmGone(client, err, { what: `${kind.typeName} of guardrail ${guardrailId}`, guardrailId });
        return {};
      }
      const exclusive = Boolean(props?.exclusive);
      const previous = statuses(props);
      // Ids the program asked for keep their place; foreign ids are re-derived from `live`.
      const wanted = Object.keys(previous).filter((k) => previous[k] !== FOREIGN);
      const elsewhere = await locate(client, guardrailId, wanted.filter((k) => !live.has(k)));
      const map = statusMap(wanted, live, exclusive, elsewhere);
      // An id this resource still has to remove (a failed unassign) stays in its care while it is here.
      for (const k of Object.keys(previous)) if (previous[k] === FOREIGN && live.has(k)) map[k] = FOREIGN;
      const outs = { guardrailId, exclusive, [mapName]: Object.fromEntries(Object.keys(map).sort().map((k) => [k, map[k]!])) };
      return { id, props: outs, inputs: outs };
    },

    async update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
      const inputs = parse(news);
      const client = getClient();
      const wasExclusive = Boolean(olds.exclusive);
      if (!wasExclusive && inputs.exclusive) return { outs: await claim(client, inputs, statuses(olds), news.__provider) };
      // Exclusive -> additive releases the foreign ids: they leave the state and stay on the
      // service, since additive never touches what the program does not list.
      const map = wasExclusive && !inputs.exclusive ? withoutForeign(statuses(olds)) : statuses(olds);
      const live = assignedIn(map);
      const plan = planChanges({ desired: inputs.ids, live, managed: new Set(Object.keys(map)), exclusive: inputs.exclusive });
      const now = await apply(client, inputs, plan, live, { provider: news.__provider });
      return { outs: outputs(inputs, statusMap(inputs.ids, now, inputs.exclusive, {})) };
    },

    async delete(_id: string, props: Record<string, unknown>): Promise<void> {
      const client = getClient();
      const guardrailId = (props.guardrailId as string).toLowerCase();
      let ids: string[];
      try {
        ids = props.exclusive ? await collect(kind.list(client, guardrailId)) : [...assignedIn(statuses(props))];
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        // The guardrail is gone, and its assignments with it (rule 9), if a working service says so.
        return confirmGone(client, err, { what: `${kind.typeName} of guardrail ${guardrailId}`, guardrailId });
      }
      for (const part of chunk(ids.sort(), chunkSize())) {
        try {
          await client.unassign(kind.wire, guardrailId, part);
        } catch (err) {
          if (err instanceof NotFoundError) return confirmGone(client, err, { what: `${kind.typeName} of guardrail ${guardrailId}`, guardrailId });
          throw err instanceof GuardrailsError ? err : new Error(String(err));
        }
      }
    },
  };

  /**
   * Additive -> exclusive, as an exclusive create does: list the guardrail's set, add the
   * program's ids, remove only ids this resource managed that the program dropped, and record
   * every other id as FOREIGN, so the next preview names them before an update removes them.
   */
  async function claim(client: GuardrailsClient, inputs: AssignmentInputs, previous: StatusMap, provider: unknown): Promise<Record<string, unknown>> {
    const live = new Set(await listOrExplain(client, inputs.guardrailId));
    const plan = planChanges({ desired: inputs.ids, live, managed: new Set(Object.keys(previous)), exclusive: false });
    const now = await apply(client, inputs, plan, live, { provider });
    return outputs(inputs, statusMap(inputs.ids, now, true, {}));
  }

  async function listOrExplain(client: GuardrailsClient, guardrailId: string): Promise<string[]> {
    try {
      return await collect(kind.list(client, guardrailId));
    } catch (err) {
      if (err instanceof NotFoundError) throw new Error(`${kind.typeName}: guardrail ${guardrailId} does not exist; check guardrailId`);
      throw err;
    }
  }
}
