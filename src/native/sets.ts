/**
 * `GuardrailMemberAssignment` and `GuardrailKeyAssignment` on the native face, on the core's
 * `assignmentLifecycle`. A program gives the ids as a list (`memberUserIds`); `check` adds
 * the map `members: {id: true}` beside it, as the dynamic face's classes do before they
 * register, so the engine can show a diff path per id (`members["user_bob"]`: `+ user_bob:
 * true`) and the core gets the inputs it knows. The checked inputs carry secrets in Pulumi's
 * envelope: the map is secret when the list is. Outputs add the assigned ids as a sorted list
 * and record which args were secret (`__secretArgs`, read back by refresh).
 *
 * Import: `pulumi import guardrails:index:GuardrailMemberAssignment eng <guardrail id>/members`
 * (`/keys` for keys) reads the guardrail's whole set as an additive set (core/assignments/read.ts
 * says why); `<guardrail id>/members?{"exclusive":..,"ids":[..]}` (core/assignments/import-id.ts)
 * reads only the ids named, in the mode named. Either answers inputs in the program's names:
 * `{guardrailId, memberUserIds}`, with the id map beside them (what the next Check reads), and
 * records the id `<guardrail id>/members`.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { idProblem } from "../core/args/assignment-args";
import { markSecret, SECRET_ARGS } from "../core/args/messages";
import { SET_KINDS, type AssignmentSetKind } from "../core/assignments/kind";
import { PartialApplyError } from "../core/assignments/apply";
import { assignedIds, toIdMap } from "../core/assignments/id-map";
import { parseSetImportId } from "../core/assignments/import-id";
import { assignmentLifecycle } from "../core/assignments/lifecycle";
import { statusesIn } from "../core/assignments/state-map";
import { isForeign } from "../core/assignments/status";
import type { CheckResult, DiffResult, Lifecycle, PropertyFailure } from "../core/results";
import { SET_TYPE_NAMES, type SetTypeName } from "../core/kinds";
import { asSecret, containsUnknown, isUnknown, UNKNOWN } from "../core/markers";
import type { Connection } from "../core/connection";
import { claimsOver, type DeploymentClaims } from "./set-claims";

type Props = Record<string, unknown>;

/** Names of the args that held a secret (the wire's `__secretArgs`), in the program's and the state's words. */
function secretNames(kind: AssignmentSetKind, props: Props | undefined): Set<string> {
  const raw = props?.[SECRET_ARGS];
  const names = new Set(Array.isArray(raw) ? raw.filter((n): n is string => typeof n === "string") : []);
  if (names.has(kind.argName) || names.has(kind.stateKey)) for (const n of [kind.argName, kind.stateKey]) names.add(n);
  return names;
}

/** A bag with each secret name's value in the envelope, and the record of them when any. */
function sealed(bag: Props, secret: ReadonlySet<string>, record: boolean): Props {
  const out = Object.fromEntries(Object.entries(bag).map(([k, v]) => [k, secret.has(k) ? asSecret(v) : v]));
  return record && secret.size > 0 ? { ...out, [SECRET_ARGS]: [...secret].sort() } : out;
}

/** The program's list as the id map, with a failure at each entry's index; UNKNOWN while any is. */
function idMap(kind: AssignmentSetKind, list: unknown): { map?: unknown; failures: PropertyFailure[] } {
  const at = (i: number, reason: string) => ({ property: `${kind.argName}[${i}]`, reason });
  if (list === undefined || list === null)
    return { failures: [{ property: kind.argName, reason: `is required: a list of ${kind.noun} ids` }] };
  if (containsUnknown(list)) return { map: UNKNOWN, failures: [] };
  if (!Array.isArray(list)) return { failures: [{ property: kind.argName, reason: "must be a list of strings" }] };
  const failures: PropertyFailure[] = [];
  const ids: string[] = [];
  list.forEach((id: unknown, i) => {
    const problem = typeof id === "string" ? idProblem(id) : "must be a string";
    if (problem) failures.push(at(i, problem));
    else ids.push(id as string);
  });
  return { map: toIdMap(ids), failures };
}

/** Inputs as the core takes them: the map under the state key, no list, secrets named in the state's words. */
function toCore(kind: AssignmentSetKind, news: Props, map: unknown = news[kind.stateKey]): Props {
  const { [kind.argName]: _list, [kind.stateKey]: _map, ...rest } = news;
  const secret = secretNames(kind, news);
  secret.delete(kind.argName);
  const named = secret.size > 0 ? { [SECRET_ARGS]: [...secret].sort() } : {};
  return { ...rest, ...(map === undefined ? {} : { [kind.stateKey]: map }), ...named };
}

async function checkSet(
  kind: AssignmentSetKind,
  core: Lifecycle,
  claims: DeploymentClaims,
  olds: Props,
  news: Props,
): Promise<CheckResult> {
  // `pulumi import` checks what Read answered as both olds and news: its id map is the state's
  // copy (readSet), not an arg the program gave. Any other map or `moves` in news is refused.
  const recheck = JSON.stringify(news[kind.stateKey]) === JSON.stringify(olds?.[kind.stateKey]);
  const own = [kind.stateKey, "moves"].filter((k) => k in news && !(k === kind.stateKey && recheck));
  const refused = own.map((k) => ({
    property: k,
    reason: `is not an arg of ${kind.typeName}: list the ids in ${kind.argName}`,
  }));
  const { map, failures } = idMap(kind, news[kind.argName]);
  // With a failure of its own, the core only checks the rest (an unknown map: no full parse, no call).
  const mine = refused.length + failures.length > 0;
  const r = await core.check(olds ?? {}, toCore(kind, news, mine ? UNKNOWN : map));
  const secret = secretNames(kind, news);
  // This face's failures marked as the core marks its own; resources.ts's `wireFailure` formats them all.
  const isSecret = (root: string) => secret.has(root);
  const all = markSecret([...refused, ...failures, ...r.failures], isSecret);
  const { guardrailId, exclusive } = r.inputs;
  if (
    all.length === 0 &&
    typeof guardrailId === "string" &&
    !isUnknown(guardrailId) &&
    !isUnknown(exclusive) &&
    map !== UNKNOWN
  ) {
    const claimed = await claims.check({
      noun: kind.noun,
      urn: String(news.__resource ?? ""),
      guardrailId: guardrailId.toLowerCase(),
      exclusive: exclusive === true,
      ids: Object.keys(map as Props),
      secret: secret.has(kind.argName),
      guardrailSecret: secret.has("guardrailId"),
    });
    all.push(...markSecret(claimed.failures, isSecret));
    for (const w of claimed.warnings) console.error(`warning: ${w}`);
  }
  const { [SECRET_ARGS]: _s, __resource: _r, __provider: _p, ...args } = r.inputs;
  const inputs = { ...args, [kind.argName]: news[kind.argName] };
  return { inputs: sealed(inputs, secret, false), failures: all };
}

/**
 * The core's changes as the native face shows them: an id the state holds with a status
 * (`on guardrail Engineering (3f2b8c1e…)`) that the program wants here is an update of that
 * entry, not an add; and an id added from another guardrail shows where from (`moves["id"]`).
 */
function shownChanges(kind: AssignmentSetKind, olds: Props, news: Props, d: DiffResult): DiffResult {
  const held = statusesIn(olds, kind.stateKey);
  const moves = (news.moves ?? {}) as Props;
  const prefix = `${kind.stateKey}[`;
  const changes = d.changes.flatMap((c) => {
    if (!c.path.startsWith(prefix) || c.kind !== "add") return [c];
    const id = JSON.parse(c.path.slice(prefix.length, -1)) as string;
    const entry = typeof held[id] === "string" ? { ...c, kind: "update" as const } : c;
    return typeof moves[id] === "string"
      ? [entry, { path: `moves[${JSON.stringify(id)}]`, kind: "add" as const }]
      : [entry];
  });
  return { ...d, changes };
}

/** Outputs: the core's, the assigned ids as the program's sorted list, secrets sealed and recorded. */
function outputs(kind: AssignmentSetKind, props: Props, secret: ReadonlySet<string>): Props {
  const assigned = assignedIds(statusesIn(props, kind.stateKey));
  return sealed({ ...props, [kind.argName]: assigned }, secret, true);
}

/**
 * Refresh (state given) and import (nothing but the id): inputs in the program's names, so
 * code generated from an import previews with no change. Refresh keeps the ids the program
 * listed (a foreign id is not the program's); an import lists the ids its id names (or every id, additive).
 */
async function readSet(kind: AssignmentSetKind, core: Lifecycle, id: string, props: Props | undefined) {
  const r = await core.read(id, props as Props);
  if (!r) return undefined;
  // An import records as secrets the args its id names (the migration's: core/import-seal.ts).
  const secret = secretNames(kind, props ?? { [SECRET_ARGS]: parseSetImportId(kind, id).secret });
  const map = statusesIn(r.properties, kind.stateKey);
  const { guardrailId, exclusive } = r.properties;
  const listed = Object.keys(map)
    .filter((k) => !isForeign(map[k]))
    .sort();
  // A refresh and an import keep the id map beside the list, as Check writes it, with the
  // statuses found: the next Check reads it (core moves.ts: an id held here needs no search of
  // the organization), so the first preview after an import makes no call (issue 43). The map is
  // no arg of the schema: code generated from an import leaves it out.
  const held = { [kind.stateKey]: Object.fromEntries(listed.map((k) => [k, map[k]])) };
  const inputs = { guardrailId, [kind.argName]: listed, ...held, ...(exclusive === true ? { exclusive } : {}) };
  return { id: r.id, properties: outputs(kind, r.properties, secret), inputs: sealed(inputs, secret, false) };
}

/** A partly applied change again, its state in this face's outputs (resources.ts hands it to the engine). */
function inOutputs(kind: AssignmentSetKind, secret: ReadonlySet<string>) {
  return (err: unknown): never => {
    if (!(err instanceof PartialApplyError)) throw err;
    const props = outputs(kind, err.properties, secret);
    throw new PartialApplyError(err.message, err.id, props, err.reasons, { cause: err.cause });
  };
}

/**
 * The lifecycle of one set kind on the native face (a row of resources.ts's table), over the
 * provider instance's `conn`; `claims` are the instance's view of the deployment's sets.
 */
export function nativeSetLifecycle(
  kind: AssignmentSetKind,
  conn: Connection,
  claims: DeploymentClaims = claimsOver(conn),
): Lifecycle {
  const core = assignmentLifecycle(kind, conn);
  return {
    check: (olds, news) => checkSet(kind, core, claims, olds, news),
    diff: async (id, olds, news) => shownChanges(kind, olds, news, await core.diff(id, olds, toCore(kind, news))),
    create: async (news) => {
      const r = await core.create(toCore(kind, news)).catch(inOutputs(kind, secretNames(kind, news)));
      return { id: r.id, properties: outputs(kind, r.properties, secretNames(kind, news)) };
    },
    read: (id, props) => readSet(kind, core, id, props),
    update: async (id, olds, news) => {
      const r = await core.update(id, olds, toCore(kind, news)).catch(inOutputs(kind, secretNames(kind, news)));
      return { properties: outputs(kind, r.properties, secretNames(kind, news)) };
    },
    delete: (id, props) => core.delete(id, props),
  };
}

/** The rows of resources.ts's table for the set kinds, by type name, over one provider instance's connection. */
export function setLifecyclesOver(conn: Connection, claims: DeploymentClaims): Record<SetTypeName, Lifecycle> {
  return Object.fromEntries(SET_TYPE_NAMES.map((t) => [t, nativeSetLifecycle(SET_KINDS[t], conn, claims)])) as Record<
    SetTypeName,
    Lifecycle
  >;
}

/**
 * A set's diff as the engine shows it. Each entry (`members["user_eve"]`) is looked up in the
 * recorded outputs, not the recorded inputs: only the outputs hold an exclusive set's foreign
 * ids and the statuses a refresh found, so `- user_eve: "assigned here, not in the program"`
 * and `~ user_bob: "on guardrail Engineering (3f2b8c1e…)" => true` show their old values.
 */
export function againstOutputs(resp: provproto.DiffResponse): provproto.DiffResponse {
  resp.getDetaileddiffMap().forEach((pd, path) => {
    if (/^(members|keys)\[/.test(path)) pd.setInputdiff(false);
  });
  return resp;
}
