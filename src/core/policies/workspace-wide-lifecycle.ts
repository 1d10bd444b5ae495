/**
 * The lifecycle of a workspace-wide policy (issue 40; design-40.md "WorkspaceWidePolicy"): create
 * is one POST; read and import one list (the service has no get-by-id, rule 28; one refresh's
 * reads share it, workspace-wide-list.ts); update a fresh list (the concurrency check against the
 * state's last read: a change made since fails, writing nothing) then one PUT that carries back
 * the config keys this package does not manage; delete one DELETE by id.
 */
import { NotFoundError } from "../client/errors";
import { confirmGone } from "../confirm-gone";
import { annotateAs } from "../resource/annotate";
import type { WireWorkspaceWidePolicy } from "../client/policy-wire";
import { PolicyClient } from "../client/policies";
import { shown } from "../args/messages";
import { hidingSecrets } from "../args/secret-text";
import { secrecyChanged } from "../resource/secrecy";
import { userProps } from "../args/user-props";
import type { Connection } from "../connection";
import { containsUnknown, isUnknown } from "../markers";
import type { CreateResult, DiffResult, Lifecycle, ReadResult, UpdateResult } from "../results";
import { updates } from "../results";
import { UserError } from "../user-error";
import { changedElsewhere, sealedInputs } from "./changes";
import { parseWorkspaceWideImportId } from "./import-id";
import type { WorkspaceWideInputs } from "./workspace-wide-args";
import { coverage, createBody, createWorkspaceWideOnce } from "./workspace-wide-create";
import { coverageRefused } from "./workspace-wide-coverage";
import { forgetWorkspaceWidePolicies, workspaceWidePolicies } from "./workspace-wide-list";
import { forgettingRecorded } from "./recorded";
import { answered, check, known, label, NOUN, parseInputs, seal, secretNames, withSent } from "./workspace-wide-inputs";
import { typeWordOf } from "./workspace-wide-args";
import {
  changedSinceRead,
  configBody,
  kindOf,
  outputsOf,
  refreshedInputs,
  type WorkspaceWideOutputs,
  workspaceWideChanges,
} from "./workspace-wide-model";

export async function diff(olds: WorkspaceWideOutputs, news: Record<string, unknown>): Promise<DiffResult> {
  const props = userProps(news);
  if (containsUnknown(props)) {
    const replace = isUnknown(props.policyType) || props.policyType !== olds.policyType;
    const unknown = Object.keys(props).filter((k) => containsUnknown(props[k]) && k !== "policyType");
    return { changes: replace ? [{ path: "policyType", kind: "replace" }] : updates(unknown) };
  }
  const inputs = parseInputs(news);
  const secrets = new Set([...secretNames(news), ...secretNames(olds)]);
  const changes = workspaceWideChanges(olds, inputs, (a) => secrets.has(a));
  // An arg made secret (or no longer secret) with the same value: its copies in state are rewritten
  // only by an update, so it is a change (as a workspace policy's and a Guardrail's).
  const named = (arg: string) => changes.some((c) => c.path === arg || c.path.startsWith(`${arg}[`));
  const resealed = changes.some((c) => c.kind === "replace")
    ? []
    : updates(secrecyChanged(olds, news).filter((arg) => !named(arg)));
  return { changes: [...changes, ...resealed], deleteBeforeReplace: false };
}

export async function create(conn: Connection, news: Record<string, unknown>): Promise<CreateResult> {
  const inputs = parseInputs(news);
  const what = label(inputs.name, news);
  const body = createBody(inputs);
  forgetWorkspaceWidePolicies(conn);
  const kind = kindOf(inputs.policyType);
  // `__resource` (the face's name of the resource) keys the create journal (workspace-wide-create.ts).
  const resource = typeof news.__resource === "string" ? news.__resource : undefined;
  const p = await createWorkspaceWideOnce(conn, kind, body, what, resource).catch((err) =>
    coverageRefused(conn, what, body, err),
  );
  const outs = outputsOf(
    known(withSent(answered(p, kind, undefined, "the POST", what), body), what),
    inputs,
    undefined,
  );
  return { id: p.id, properties: seal(outs, secretNames(news)) };
}

/** The record of `id` in the list; a list shared with other reads is read afresh once before the id counts as gone. */
async function find(conn: Connection, id: string, fresh: boolean): Promise<WireWorkspaceWidePolicy | undefined> {
  const { rows, shared } = await workspaceWidePolicies(conn, fresh);
  // Ids are UUIDs: an id in capitals (an import id as typed) names the same policy.
  const same = (p: WireWorkspaceWidePolicy) => p.id.toLowerCase() === id.toLowerCase();
  const hit = rows.find(same);
  return hit || !shared ? hit : (await workspaceWidePolicies(conn, true)).rows.find(same);
}

/** Refresh (state given) and import (the policy's id alone). */
export async function read(
  conn: Connection,
  id: string,
  state: WorkspaceWideOutputs | undefined,
): Promise<ReadResult | undefined> {
  const importing = !state || Object.keys(state).length === 0;
  // An import id may name the args that were secret (the migration's: import-id.ts).
  const imported = importing ? parseWorkspaceWideImportId(id) : undefined;
  const policyId = imported?.policyId ?? id;
  const what = label(importing ? policyId : state.name, state as never);
  const p = await find(conn, policyId, false).catch((err) => Promise.reject(annotate(what, err)));
  if (!p) {
    if (importing)
      throw new UserError(
        `cannot import ${NOUN} ${shown(policyId)}: the service lists no workspace-wide policy with that id (the import id is the policy's id, as the service's dashboard and its list GET /guardrails/policies/account show it)`,
      );
    return undefined;
  }
  const args = importing ? ({} as WorkspaceWideInputs) : state.args;
  const outs = outputsOf(known(p, what), args, importing ? undefined : state.written);
  if (imported) {
    // Those args are recorded as secrets, every copy, as a create with them secret would have.
    const inputs = refreshedInputs(outs, true);
    return {
      id: p.id,
      properties: seal({ ...outs, args: inputs as never }, imported.secret),
      inputs: sealedInputs(inputs, imported.secret),
    };
  }
  const secrets = secretNames(state!);
  const inputs = refreshedInputs(outs, false);
  return { id, properties: seal(outs, secrets), inputs: seal(inputs as never, secrets) };
}

export async function update(
  conn: Connection,
  id: string,
  olds: WorkspaceWideOutputs,
  news: Record<string, unknown>,
): Promise<UpdateResult> {
  const inputs = parseInputs(news);
  const what = label(olds.name, news, olds as never);
  const raw = await find(conn, id, true).catch((err) => Promise.reject(annotate(what, err)));
  if (!raw)
    throw new UserError(
      `${what}: the service no longer lists it (deleted out of band). Nothing was written. Run \`pulumi refresh\` to drop it from the state, then \`pulumi up\` creates it again.`,
    );
  const live = known(raw, what);
  if (live.kind !== kindOf(olds.policyType))
    throw changedElsewhere(what, [`policyType (now ${JSON.stringify(typeWordOf(live.kind))})`]);
  const secrets = new Set([...secretNames(news), ...secretNames(olds)]);
  const found = changedSinceRead(olds, outputsOf(live, olds.args, undefined), (a) => secrets.has(a));
  if (found.length > 0) throw changedElsewhere(what, found);
  const body = { name: inputs.name, config: configBody(inputs, live.unmanagedConfig), ...coverage(inputs) };
  if (workspaceWideChanges(olds, inputs, () => true).length === 0)
    // Only the secrecy of an arg changed: the list's record, sealed anew, is the state; no PUT.
    return { properties: seal(outputsOf(live, inputs, undefined), secretNames(news)) };
  forgetWorkspaceWidePolicies(conn);
  const p = await new PolicyClient(conn.client())
    .updateWorkspaceWidePolicy(live.kind, id, body as never)
    .catch((err) => coverageRefused(conn, what, body, err));
  const held = known(withSent(answered(p, live.kind, id, "the PUT", what), body), what);
  return { properties: seal(outputsOf(held, inputs, undefined), secretNames(news)) };
}

async function remove(conn: Connection, id: string, props: WorkspaceWideOutputs): Promise<void> {
  forgetWorkspaceWidePolicies(conn);
  const policies = new PolicyClient(conn.client());
  await policies.deleteWorkspaceWidePolicy(id).catch(async (err) => {
    if (!(err instanceof NotFoundError)) throw annotate(label(props.name, props as never), err);
    // Already gone is what a delete wants, but only a working service may say so (confirm-gone.ts):
    // the workspace-wide list at the same address must answer without the id.
    await confirmGone(conn, err, {
      what: label(props.name, props as never),
      guardrailId: id,
      noun: "workspace-wide policy",
      list: () => policies.listWorkspaceWidePolicies(),
    });
  });
}

/** A failure of a call, named for the resource. */
function annotate(what: string, err: unknown): Error {
  return annotateAs(what, err);
}

/**
 * The provider methods of a workspace-wide policy over `conn`. Diff, read, update and delete
 * first end the journal entry of a create the engine has recorded (recorded.ts).
 */
// A secret arg's values never reach a failure's text, whoever wrote it (secret-text.ts).
export const workspaceWideLifecycle = (conn: Connection): Lifecycle =>
  forgettingRecorded({
    check: async (_olds, news) => check(news),
    diff: (_id, olds, news) => diff(olds as WorkspaceWideOutputs, news).catch(hidingSecrets(news, olds)),
    create: (news) => create(conn, news).catch(hidingSecrets(news)),
    read: (id, props) => read(conn, id, props as WorkspaceWideOutputs | undefined).catch(hidingSecrets(props)),
    update: (id, olds, news) => update(conn, id, olds as WorkspaceWideOutputs, news).catch(hidingSecrets(news, olds)),
    delete: (id, props) => remove(conn, id, props as WorkspaceWideOutputs).catch(hidingSecrets(props)),
  });
