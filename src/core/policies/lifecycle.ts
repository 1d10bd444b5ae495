/**
 * The lifecycle of a workspace policy (issue 40; design-40.md "Writes"), one for the three kinds:
 * create is one POST, read one GET, update a GET (the concurrency check against the state's
 * last read: a change made since fails, writing nothing) then one PUT, delete one DELETE.
 */
import { GuardrailsError, NotFoundError } from "../client/errors";
import { issuesToFailures, markSecret, secretArgsOf, shown } from "../args/messages";
import { userProps } from "../args/user-props";
import type { Connection } from "../connection";
import { confirmGone } from "../confirm-gone";
import { KINDS, type PolicyTypeName } from "../kinds";
import { containsUnknown, isUnknown } from "../markers";
import { updates, type CheckResult, type CreateResult, type DiffResult, type Lifecycle } from "../results";
import type { PropertyChange, ReadResult, UpdateResult } from "../results";
import { UserError } from "../user-error";
import { isWorkspaceUuid, placedFailures, POLICY_ARGS, type IdList, type PolicyInputs } from "./args";
import { changedElsewhere, changedSinceRead, policyChanges, sealed } from "./changes";
import { LIST_WIRE, outputsOf, refreshedInputs, type PolicyOutputs } from "./model";
import { policyOps, type WirePolicyDetail } from "./ops";
import { createBody, updateBody } from "./bodies";
import { parseImportId } from "./import-id";

const MOVE: PropertyChange = { path: "workspaceId", kind: "replace" };

/** How messages name the resource: `budget policy "Eng"`. */
const label = (type: PolicyTypeName, name: unknown) => `${KINDS[type].policy.noun} ${shown(name)}`;

/** The secret args of the program (news) or of the state (olds). */
const secretNames = (props: Record<string, unknown>): string[] => {
  const n = props.__secretArgs;
  return Array.isArray(n) ? n.filter((x): x is string => typeof x === "string").sort() : [];
};

export function check(type: PolicyTypeName, news: Record<string, unknown>): CheckResult {
  const props = userProps(news);
  const schema = POLICY_ARGS[type];
  const parsed = schema.safeParse(props, { reportInput: true });
  if (parsed.success) return { inputs: news, failures: [] };
  const issues = parsed.error.issues.filter(
    (i) => !isUnknown(props[String(i.path[0] ?? "")]) && !containsUnknown(props[String(i.path[0] ?? "")]),
  );
  const failures = placedFailures(type, issuesToFailures({ issues }, Object.keys(schema.shape), secretArgsOf(news)));
  return { inputs: news, failures: markSecret(failures, secretArgsOf(news)) };
}

/** Inputs `check` accepted; a workspace UUID in its lower-case form. */
export function parseInputs(type: PolicyTypeName, news: Record<string, unknown>): PolicyInputs {
  const parsed = POLICY_ARGS[type].safeParse(userProps(news), { reportInput: true });
  if (!parsed.success) {
    const failures = placedFailures(type, issuesToFailures(parsed.error, [], secretArgsOf(news)));
    throw new UserError(
      `invalid ${KINDS[type].policy.noun} args: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`,
    );
  }
  const inputs = parsed.data as PolicyInputs;
  return {
    ...inputs,
    workspaceId: isWorkspaceUuid(inputs.workspaceId) ? inputs.workspaceId.toLowerCase() : inputs.workspaceId,
  };
}

/** The workspace's id for a reference (an id, or a slug asked of the service once). */
async function workspaceIdOf(conn: Connection, ref: string, what: string): Promise<string> {
  if (isWorkspaceUuid(ref)) return ref.toLowerCase();
  const ws = await conn.client().getWorkspace(ref);
  if (!ws)
    throw new UserError(
      `${what}: the service has no workspace ${shown(ref)}; workspaceId takes a workspace's id or slug (the getWorkspaces data source lists them)`,
    );
  return ws.id.toLowerCase();
}

/** Whether `ref` names another workspace than the recorded one; the recorded id or reference needs no call. */
async function workspaceMoves(conn: Connection, olds: PolicyOutputs, ref: string, what: string): Promise<boolean> {
  if (ref.toLowerCase() === olds.workspaceId.toLowerCase() || ref === olds.args?.workspaceId) return false;
  if (isWorkspaceUuid(ref)) return true;
  const ws = await conn.client().getWorkspace(ref);
  return !ws || ws.id.toLowerCase() !== olds.workspaceId.toLowerCase() || what === "";
}

export async function diff(
  conn: Connection,
  type: PolicyTypeName,
  olds: PolicyOutputs,
  news: Record<string, unknown>,
): Promise<DiffResult> {
  const props = userProps(news);
  const what = label(type, olds.name);
  if (containsUnknown(props)) {
    const ws = props.workspaceId;
    const moves = isUnknown(ws) || (typeof ws === "string" && (await workspaceMoves(conn, olds, ws, what)));
    const unknown = Object.keys(props).filter((k) => containsUnknown(props[k]) && !(moves && k === "workspaceId"));
    return { changes: [...(moves ? [MOVE] : []), ...updates(unknown)] };
  }
  const inputs = parseInputs(type, news);
  const replace = await workspaceMoves(conn, olds, inputs.workspaceId, what);
  const secrets = new Set([...secretNames(news), ...secretNames(olds)]);
  const changes = policyChanges(type, olds, inputs, (arg) => secrets.has(arg));
  return { changes: [...(replace ? [MOVE] : []), ...changes], deleteBeforeReplace: false };
}

export async function create(
  conn: Connection,
  type: PolicyTypeName,
  news: Record<string, unknown>,
): Promise<CreateResult> {
  const inputs = parseInputs(type, news);
  const what = label(type, inputs.name);
  const workspaceId = await workspaceIdOf(conn, inputs.workspaceId, what);
  const body = createBody(type, inputs, workspaceId);
  const p = await policyOps(conn, type)
    .create(body)
    .catch((err) => Promise.reject(annotate(what, err)));
  const outs = outputsOf(
    type,
    workspaceId,
    { ...body, ...p, is_workspace_default: body.is_workspace_default ?? false } as never,
    inputs,
    undefined,
  );
  return { id: p.id, properties: sealed(outs, secretNames(news)) };
}

/** Refresh (state given) and import (`<workspaceId>/<policyId>` alone). A 404 is believed only from a working service. */
export async function read(
  conn: Connection,
  type: PolicyTypeName,
  id: string,
  state: PolicyOutputs | undefined,
): Promise<ReadResult | undefined> {
  const importing = !state || Object.keys(state).length === 0;
  const [workspaceRef, policyId] = importing ? parseImportId(type, id) : [state.workspaceId, id];
  const what = label(type, importing ? policyId : state.name);
  const workspaceId = importing ? await workspaceIdOf(conn, workspaceRef, what) : workspaceRef;
  const ops = policyOps(conn, type);
  let live: WirePolicyDetail;
  try {
    live = await ops.get(policyId, workspaceId);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw annotate(what, err);
    if (importing)
      throw new UserError(
        `${what}: the service has no ${KINDS[type].policy.noun} ${policyId} in workspace ${workspaceId}`,
        { cause: err },
      );
    await confirmGone(conn, err, goneQuestion(conn, type, what, policyId, workspaceId));
    return undefined;
  }
  const args = importing ? ({} as PolicyInputs) : state.args;
  const outs = outputsOf(type, workspaceId, live, args, importing ? undefined : state.written);
  if (importing) {
    const inputs = refreshedInputs(type, outs, true);
    return { id: policyId, properties: { ...outs, args: inputs }, inputs };
  }
  const secrets = secretNames(state as unknown as Record<string, unknown>);
  const inputs = refreshedInputs(type, outs, false);
  return { id, properties: sealed(outs, secrets), inputs: sealed(inputs as never, secrets) };
}

export async function update(
  conn: Connection,
  type: PolicyTypeName,
  id: string,
  olds: PolicyOutputs,
  news: Record<string, unknown>,
): Promise<UpdateResult> {
  const inputs = parseInputs(type, news);
  const what = label(type, olds.name);
  const ops = policyOps(conn, type);
  const live = await ops.get(id, olds.workspaceId).catch(async (err) => {
    if (!(err instanceof NotFoundError)) throw annotate(what, err);
    // As refresh does: a 404 is believed only from a working service (confirm-gone.ts), and then
    // the update writes nothing: creating it again is for the person to choose after a refresh.
    await confirmGone(conn, err, goneQuestion(conn, type, what, id, olds.workspaceId));
    throw new UserError(
      `${what}: deleted on the service since the last refresh; nothing was written. Run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` to create it again`,
      { cause: err },
    );
  });
  const managed = (Object.keys(LIST_WIRE) as IdList[]).filter((l) => inputs[l] !== undefined);
  const secrets = new Set([...secretNames(news), ...secretNames(olds as never)]);
  const found = changedSinceRead(type, olds, live, managed, (a) => secrets.has(a));
  if (found.length > 0) throw changedElsewhere(what, found);
  const body = updateBody(type, olds, inputs, live);
  const p = await ops.update(id, body).catch((err) => Promise.reject(annotate(what, err)));
  const held = { ...live, ...body, ...p, is_workspace_default: body.is_workspace_default ?? live.is_workspace_default };
  const outs = outputsOf(type, olds.workspaceId, held as never, inputs, undefined);
  return { properties: sealed(outs, secretNames(news)) };
}

async function remove(conn: Connection, type: PolicyTypeName, id: string, props: PolicyOutputs): Promise<void> {
  await policyOps(conn, type)
    .remove(id, props.workspaceId)
    .catch((err) => {
      // Already gone is what a delete wants.
      if (!(err instanceof NotFoundError)) throw annotate(label(type, props.name), err);
    });
}

/** What confirms a policy's 404: its kind's list in its workspace must not hold it. */
const goneQuestion = (conn: Connection, type: PolicyTypeName, what: string, id: string, workspaceId: string) => ({
  what,
  guardrailId: id,
  workspaceId,
  list: (ws: string | undefined) => policyOps(conn, type).ids(ws!),
  noun: KINDS[type].policy.noun,
});

/** A failure of a call, named for the resource. */
function annotate(what: string, err: unknown): Error {
  if (err instanceof GuardrailsError) return err.wrap(`${what}: ${err.message}`);
  return err instanceof Error ? err : new Error(String(err));
}

/** The provider methods of one policy kind over `conn`. */
export const policyLifecycle = (type: PolicyTypeName, conn: Connection): Lifecycle => ({
  check: async (_olds, news) => check(type, news),
  diff: (_id, olds, news) => diff(conn, type, olds as PolicyOutputs, news),
  create: (news) => create(conn, type, news),
  read: (id, props) => read(conn, type, id, props as PolicyOutputs | undefined),
  update: (id, olds, news) => update(conn, type, id, olds as PolicyOutputs, news),
  delete: (id, props) => remove(conn, type, id, props as PolicyOutputs),
});
