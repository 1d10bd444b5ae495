/**
 * Provider methods of the assignment sets, one implementation for members and keys. The
 * state map is state-map.ts, applying a plan apply.ts, finding where ids went locate.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { collect } from "../client/pagination";
import { NotFoundError } from "../client/errors";
import type { GuardrailsClient } from "../client/client";
import { getClient, resolveSettings } from "../config";
import { confirmGone } from "../confirm-gone";
import { DEFAULT_MAX_BULK } from "../args/constants";
import { SET_ARGS, type AssignmentInputs } from "../args/assignment-args";
import { issuesToFailures } from "../args/messages";
import { containsUnknown, isUnknown } from "../args/unknown";
import { userProps } from "../guardrail/check";
import { applyPlanToService, describeFailure, type ApplyContext } from "./apply";
import type { AssignmentSetKind } from "./kind";
import { locate } from "./locate";
import { chunk, planChanges } from "./plan";
import { assignedIn, setOutputs, setResourceId, statusesIn, statusMap, withoutForeign, type StatusMap } from "./state-map";
import { FOREIGN } from "./status";

/** The provider methods of one kind of set (what `internal.ts` exposes by name). */
export function assignmentLifecycle(kind: AssignmentSetKind) {
  const { stateKey } = kind;
  const schema = SET_ARGS[stateKey];
  const rename = (property: string) => property.replace(new RegExp(`^${stateKey}\\b`), kind.argName);
  const chunkSize = () => resolveSettings().maxBulk ?? DEFAULT_MAX_BULK;
  const outputs = (inputs: AssignmentInputs, map: StatusMap) => setOutputs(stateKey, inputs, map);
  const context = (client: GuardrailsClient, inputs: AssignmentInputs, provider: unknown): ApplyContext => ({ client, kind, inputs, chunkSize: chunkSize(), provider });

  function parse(news: Record<string, unknown>): AssignmentInputs {
    const parsed = schema.full.safeParse(userProps(news), { reportInput: true });
    if (!parsed.success) throw new Error(issuesToFailures(parsed.error).map((f) => `${rename(f.property)}: ${f.reason}`).join("; "));
    const map = parsed.data.ids;
    // Guardrail ids are UUIDs, case-insensitive; the service's own are lower case.
    return { guardrailId: parsed.data.guardrailId.toLowerCase(), ids: new Set(Object.keys(map).filter((id) => map[id] === true)), exclusive: parsed.data.exclusive ?? false };
  }

  async function listOrExplain(client: GuardrailsClient, guardrailId: string): Promise<string[]> {
    try {
      return await collect(kind.list(client, guardrailId));
    } catch (err) {
      if (err instanceof NotFoundError) throw new Error(`${kind.typeName}: guardrail ${guardrailId} does not exist; check guardrailId`, { cause: err });
      throw err;
    }
  }

  /**
   * Additive -> exclusive, as an exclusive create does: list the guardrail's set, add the
   * program's ids, remove only ids this resource managed that the program dropped, and record
   * every other id as FOREIGN, so the next preview names them before an update removes them.
   */
  async function claim(client: GuardrailsClient, inputs: AssignmentInputs, previous: StatusMap, provider: unknown): Promise<Record<string, unknown>> {
    const live = new Set(await listOrExplain(client, inputs.guardrailId));
    const plan = planChanges({ desired: inputs.ids, live, managed: new Set(Object.keys(previous)), exclusive: false });
    const now = await applyPlanToService(context(client, inputs, provider), plan, live);
    return outputs(inputs, statusMap(inputs.ids, now, true));
  }

  return {
    async check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
      const props = userProps(news);
      const known = Object.fromEntries(Object.entries(props).filter(([, v]) => !containsUnknown(v)));
      const failures = [];
      if (!isUnknown(props.guardrailId) && !("guardrailId" in known)) failures.push({ property: "guardrailId", reason: "is required: the id of a Guardrail (e.g. guardrail.id)" });
      const parsed = schema.partial.safeParse(known, { reportInput: true });
      if (!parsed.success) for (const f of issuesToFailures(parsed.error, ["guardrailId", kind.argName, "exclusive"])) failures.push({ property: rename(f.property), reason: f.reason });
      return { inputs: news, failures };
    },

    async diff(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
      const props = userProps(news);
      if (isUnknown(props.guardrailId)) return { changes: true, replaces: ["guardrailId"], deleteBeforeReplace: false };
      if (String(props.guardrailId).toLowerCase() !== String(olds.guardrailId).toLowerCase()) return { changes: true, replaces: ["guardrailId"], deleteBeforeReplace: false };
      if (containsUnknown(props)) return { changes: true, replaces: [] };
      const inputs = parse(news);
      const map = statusesIn(olds, stateKey);
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
      const now = await applyPlanToService(context(client, inputs, news.__provider), plan, live);
      return { id: setResourceId(inputs.guardrailId, stateKey), outs: outputs(inputs, statusMap(inputs.ids, now, inputs.exclusive)) };
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
      const previous = statusesIn(props, stateKey);
      // Ids the program asked for keep their place; foreign ids are re-derived from `live`.
      const wanted = Object.keys(previous).filter((k) => previous[k] !== FOREIGN);
      const elsewhere = await locate(client, kind, guardrailId, wanted.filter((k) => !live.has(k)));
      const map = statusMap(wanted, live, exclusive, elsewhere);
      // An id this resource still has to remove (a failed unassign) stays in its care while it is here.
      for (const k of Object.keys(previous)) if (previous[k] === FOREIGN && live.has(k)) map[k] = FOREIGN;
      const outs = setOutputs(stateKey, { guardrailId, exclusive }, map);
      return { id, props: outs, inputs: outs };
    },

    async update(_id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult> {
      const inputs = parse(news);
      const client = getClient();
      const wasExclusive = Boolean(olds.exclusive);
      if (!wasExclusive && inputs.exclusive) return { outs: await claim(client, inputs, statusesIn(olds, stateKey), news.__provider) };
      // Exclusive -> additive releases the foreign ids: they leave the state and stay on the
      // service, since additive never touches what the program does not list.
      const map = wasExclusive && !inputs.exclusive ? withoutForeign(statusesIn(olds, stateKey)) : statusesIn(olds, stateKey);
      const live = assignedIn(map);
      const plan = planChanges({ desired: inputs.ids, live, managed: new Set(Object.keys(map)), exclusive: inputs.exclusive });
      const now = await applyPlanToService(context(client, inputs, news.__provider), plan, live);
      return { outs: outputs(inputs, statusMap(inputs.ids, now, inputs.exclusive)) };
    },

    async delete(_id: string, props: Record<string, unknown>): Promise<void> {
      const client = getClient();
      const guardrailId = (props.guardrailId as string).toLowerCase();
      const gone = (err: NotFoundError) => confirmGone(client, err, { what: `${kind.typeName} of guardrail ${guardrailId}`, guardrailId });
      let ids: string[];
      try {
        ids = props.exclusive ? await collect(kind.list(client, guardrailId)) : [...assignedIn(statusesIn(props, stateKey))];
      } catch (err) {
        // The guardrail is gone, and its assignments with it (rule 9), if a working service says so.
        if (err instanceof NotFoundError) return gone(err);
        throw err;
      }
      for (const part of chunk(ids.sort(), chunkSize())) {
        try {
          await client.unassign(kind.wire, guardrailId, part);
        } catch (err) {
          if (err instanceof NotFoundError) return gone(err);
          throw new Error(`${kind.typeName} for guardrail ${guardrailId}: ${describeFailure(kind, `unassigning ${part.length} ${kind.noun}(s)`, err)}`, { cause: err });
        }
      }
    },
  };
}
