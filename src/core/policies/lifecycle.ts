/**
 * The lifecycle of a workspace policy (issue 40; design-40.md "Writes"), one for the three kinds:
 * create is one POST, read one GET, update a GET (the concurrency check against the state's
 * last read: a change made since fails, writing nothing) then one PUT, delete one DELETE.
 */
import { NotFoundError, ValidationError } from "../client/errors";
import type { Connection } from "../connection";
import { confirmGone } from "../confirm-gone";
import { KINDS, type PolicyTypeName } from "../kinds";
import { containsUnknown, isUnknown } from "../markers";
import { updates, type CreateResult, type DiffResult, type Lifecycle } from "../results";
import type { PropertyChange, ReadResult, UpdateResult } from "../results";
import { userProps } from "../args/user-props";
import { hidingSecrets } from "../args/secret-text";
import { secrecyChanged } from "../resource/secrecy";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import type { IdList, PolicyInputs } from "./args";
import { changedElsewhere, changedSinceRead, policyChanges, sealed, sealedInputs } from "./changes";
import { LIST_WIRE, outputsOf, refreshedInputs, type PolicyOutputs } from "./model";
import { policyOps, type WirePolicyDetail } from "./ops";
import { createBody, updateBody } from "./bodies";
import { parseImportId, sealedWorkspaceOf } from "./import-id";
import { createPolicyOnce } from "./create-once";
import { goneQuestion, workspaceGone } from "./gone";
import { annotate, check, label, parseInputs, secretNames, workspaceMoves } from "./inputs";
import { workspaceIdOf } from "../resource/workspace";
import { forgettingRecorded } from "./recorded";

const MOVE: PropertyChange = { path: "workspaceId", kind: "replace" };

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
  const imported = importing ? parseImportId(type, id) : undefined;
  const [workspaceRef, policyId] = imported ? [imported.workspace, imported.policyId] : [state!.workspaceId, id];
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
        `${what}: the service has no ${KINDS[type].policy.noun} ${idText(policyId)} in workspace ${idText(workspaceId)}`,
        { cause: err },
      );
    await confirmGone(conn, err, goneQuestion(conn, type, what, policyId, workspaceId));
    return undefined;
  }
  const args = importing ? ({} as PolicyInputs) : state.args;
  const outs = outputsOf(type, workspaceId, live, args, importing ? undefined : state.written);
  if (imported) {
    // The args the import id names as secret (the migration's: import-id.ts) are recorded as
    // secrets, every copy, as a create with those args secret would have.
    const inputs = refreshedInputs(type, outs, true);
    return {
      id: policyId,
      properties: sealed({ ...outs, args: inputs as never }, imported.secret),
      inputs: sealedInputs(inputs, imported.secret),
    };
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

/** Whether the program asks for nothing the service does not hold already (the GET found no change since the last read). */
const nothingToWrite = (type: PolicyTypeName, olds: PolicyOutputs, inputs: PolicyInputs) =>
  policyChanges(type, olds, inputs, () => true).length === 0;

/** A workspace policy's provider methods; diff, read, update and delete first end the journal entry of a create the engine has recorded (recorded.ts). */
export const policyLifecycle = (type: PolicyTypeName, conn: Connection): Lifecycle =>
  forgettingRecorded({
    check: async (_olds, news) => check(type, news),
    // A secret arg's values never reach a failure's text, whoever wrote it (secret-text.ts).
    diff: (_id, olds, news) => diff(conn, type, olds as PolicyOutputs, news).catch(hidingSecrets(news, olds)),
    create: (news) => create(conn, type, news).catch(hidingSecrets(news)),
    // An import's sealed workspace (import-id.ts) is a secret too.
    read: (id, props) =>
      read(conn, type, id, props as PolicyOutputs | undefined).catch(
        hidingSecrets(props, sealedWorkspaceOf(type, id, props)),
      ),
    update: (id, olds, news) => update(conn, type, id, olds as PolicyOutputs, news).catch(hidingSecrets(news, olds)),
    delete: (id, props) => remove(conn, type, id, props as PolicyOutputs).catch(hidingSecrets(props)),
  });
