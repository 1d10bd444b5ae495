/**
 * The lifecycle of a workspace policy (issue 40; design-40.md "Writes"), one for the three kinds:
 * create is one POST, read one GET, update a GET (the concurrency check against the state's
 * last read: a change made since fails, writing nothing) then one PUT, delete one DELETE.
 */
import { NotFoundError, ValidationError } from "../client/errors";
import { annotateAs } from "../guardrail/lifecycle";
import { issuesToFailures, markSecret, nameInMessages, secretArgsOf, shown } from "../args/messages";
import { userProps } from "../args/user-props";
import type { Connection } from "../connection";
import { confirmGone } from "../confirm-gone";
import { KINDS, type PolicyTypeName } from "../kinds";
import { containsUnknown, isUnknown } from "../markers";
import { updates, type CheckResult, type CreateResult, type DiffResult, type Lifecycle } from "../results";
import type { PropertyChange, ReadResult, UpdateResult } from "../results";
import { UserError } from "../user-error";
import { secrecyChanged } from "../guardrail/secret-copies";
import { isWorkspaceUuid, placedFailures, POLICY_ARGS, type IdList, type PolicyInputs } from "./args";
import { changedElsewhere, changedSinceRead, policyChanges, sealed } from "./changes";
import { LIST_WIRE, outputsOf, refreshedInputs, type PolicyOutputs } from "./model";
import { OtherPolicyError, policyOps, type WirePolicyDetail } from "./ops";
import { createBody, updateBody } from "./bodies";
import { parseImportId } from "./import-id";
import { createPolicyOnce } from "./create-once";
import { JournalHandle } from "../guardrail/create-journal";
import { askWorkspace } from "./workspace";
import { hidingSecrets } from "../args/secret-text";

const MOVE: PropertyChange = { path: "workspaceId", kind: "replace" };

/** How messages name the resource: `budget policy "Eng"`, or `budget policy [secret]` when a bag holds the name secret. */
const label = (type: PolicyTypeName, name: unknown, ...bags: Array<Record<string, unknown> | undefined>) =>
  `${KINDS[type].policy.noun} ${nameInMessages(name, ...bags)}`;

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

/** The workspace's id for a reference (an id, or a slug asked of the service once and checked: workspace.ts). */
async function workspaceIdOf(conn: Connection, ref: string, what: string): Promise<string> {
  if (isWorkspaceUuid(ref)) return ref.toLowerCase();
  const ws = await askWorkspace(conn, ref, what).catch((err) => Promise.reject(annotate(what, err)));
  if (!ws)
    throw new UserError(
      `${what}: the service has no workspace ${shown(ref)}; workspaceId takes a workspace's id or slug (the getWorkspaces data source lists them)`,
    );
  return ws.id.toLowerCase();
}

/**
 * Whether `ref` names another workspace than the recorded one; the recorded id or reference needs
 * no call. A slug no workspace has is an error, never a previewed replacement.
 */
async function workspaceMoves(conn: Connection, olds: PolicyOutputs, ref: string, what: string): Promise<boolean> {
  if (ref.toLowerCase() === olds.workspaceId.toLowerCase() || ref === olds.args?.workspaceId) return false;
  if (isWorkspaceUuid(ref)) return true;
  return (await workspaceIdOf(conn, ref, what)) !== olds.workspaceId.toLowerCase();
}

export async function diff(
  conn: Connection,
  type: PolicyTypeName,
  olds: PolicyOutputs,
  news: Record<string, unknown>,
): Promise<DiffResult> {
  const props = userProps(news);
  const what = label(type, olds.name, news, olds as never);
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
  // An arg made secret (or no longer secret) with the same value: its copies in state are rewritten
  // only by an update, so it is a change (as a Guardrail's secrecyChanged).
  const named = (arg: string) => changes.some((c) => c.path === arg || c.path.startsWith(`${arg}[`));
  const resealed = updates(secrecyChanged(olds, news).filter((arg) => !named(arg)));
  return { changes: [...(replace ? [MOVE] : []), ...changes, ...resealed], deleteBeforeReplace: false };
}

export async function create(
  conn: Connection,
  type: PolicyTypeName,
  news: Record<string, unknown>,
): Promise<CreateResult> {
  const inputs = parseInputs(type, news);
  const what = label(type, inputs.name, news);
  const workspaceId = await workspaceIdOf(conn, inputs.workspaceId, what);
  const body = createBody(type, inputs, workspaceId);
  // `__resource` (the face's name of the resource) keys the create journal (create-once.ts).
  const resource = typeof news.__resource === "string" ? news.__resource : undefined;
  const p = await createPolicyOnce(conn, type, body, what, resource).catch((err) =>
    Promise.reject(annotate(what, err)),
  );
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
  const what = label(type, importing ? policyId : state.name, state as never);
  const workspaceId = importing ? await workspaceIdOf(conn, workspaceRef, what) : workspaceRef;
  const ops = policyOps(conn, type);
  let live: WirePolicyDetail;
  try {
    live = await ops.get(policyId, workspaceId);
  } catch (err) {
    if (!importing && err instanceof ValidationError) {
      // Its workspace deleted with it (confirmed), or a clear error: never a 400 forever.
      await workspaceGone(conn, what, workspaceId, err);
      return undefined;
    }
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
  const what = label(type, olds.name, news, olds as never);
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
  if (nothingToWrite(type, olds, inputs)) {
    // Only the secrecy of an arg changed: the GET's record, sealed anew, is the state; no PUT.
    const outs = outputsOf(type, olds.workspaceId, live, inputs, undefined);
    return { properties: sealed(outs, secretNames(news)) };
  }
  const p = await ops.update(id, body).catch((err) => Promise.reject(annotate(what, err)));
  const held = {
    ...live,
    ...body,
    ...p,
    is_workspace_default: body.is_workspace_default ?? live.is_workspace_default,
    // The PUT answers no `reference`; a write through the policy API ends a legacy mapping
    // (docs/api-contract.md rule 31), so the GET's `legacy_mapping` is no longer what the service holds.
    reference: live.reference === "legacy_mapping" ? null : live.reference,
  };
  const outs = outputsOf(type, olds.workspaceId, held as never, inputs, undefined);
  return { properties: sealed(outs, secretNames(news)) };
}

async function remove(conn: Connection, type: PolicyTypeName, id: string, props: PolicyOutputs): Promise<void> {
  const what = label(type, props.name, props as never);
  await policyOps(conn, type)
    .remove(id, props.workspaceId)
    .catch(async (err) => {
      // Already gone is what a delete wants, but only a working service may say so (as a Guardrail's delete).
      if (err instanceof NotFoundError)
        return confirmGone(conn, err, goneQuestion(conn, type, what, id, props.workspaceId));
      if (err instanceof ValidationError) return workspaceGone(conn, what, props.workspaceId, err);
      throw annotate(what, err);
    });
}

/**
 * A 400 on a policy of a workspace (the service's "unknown workspace"): the policy went with its
 * workspace only when the workspace's own 404 is confirmed (workspace.ts); a workspace that still
 * answers, or one that cannot be confirmed gone, fails naming what was seen and the way out.
 */
async function workspaceGone(conn: Connection, what: string, workspaceId: string, err: ValidationError): Promise<void> {
  const said = annotate(what, err).message;
  const out = `If you know the policy is gone, remove it from the state with \`pulumi state delete <urn>\`.`;
  const ws = await askWorkspace(conn, workspaceId, what).catch((e: Error) => {
    throw new UserError(
      `${said}. Whether its workspace ${workspaceId} is gone could not be confirmed (${e.message}), so the state keeps the policy. ${out}`,
      { cause: err },
    );
  });
  if (ws)
    throw new UserError(
      `${said}. Its workspace ${workspaceId} still exists (the service answered it), so the policy is not taken as gone and the state keeps it. ${out}`,
      { cause: err },
    );
}

/** Whether the program asks for nothing the service does not hold already (the GET found no change since the last read). */
const nothingToWrite = (type: PolicyTypeName, olds: PolicyOutputs, inputs: PolicyInputs) =>
  policyChanges(type, olds, inputs, () => true).length === 0;

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
  if (err instanceof OtherPolicyError) return new OtherPolicyError(`${what}: ${err.message}`, { cause: err });
  // As a Guardrail's: an API error wrapped naming the resource, the field table's wire names in the program's.
  return annotateAs(what, err);
}

/** The provider methods of one policy kind over `conn`. */
/** The engine recorded `id` (it called diff, read, update or delete with it): no interrupted create to recover. */
const recorded = (id: string) => JournalHandle.forget(id);

export const policyLifecycle = (type: PolicyTypeName, conn: Connection): Lifecycle => ({
  check: async (_olds, news) => check(type, news),
  // A secret arg's values never reach a failure's text, whoever wrote it (secret-text.ts).
  diff: (id, olds, news) => {
    recorded(id);
    return diff(conn, type, olds as PolicyOutputs, news).catch(hidingSecrets(news, olds));
  },
  create: (news) => create(conn, type, news).catch(hidingSecrets(news)),
  read: (id, props) => {
    recorded(id.split("/").pop() ?? id);
    return read(conn, type, id, props as PolicyOutputs | undefined).catch(hidingSecrets(props));
  },
  update: (id, olds, news) => {
    recorded(id);
    return update(conn, type, id, olds as PolicyOutputs, news).catch(hidingSecrets(news, olds));
  },
  delete: (id, props) => {
    recorded(id);
    return remove(conn, type, id, props as PolicyOutputs).catch(hidingSecrets(props));
  },
});
