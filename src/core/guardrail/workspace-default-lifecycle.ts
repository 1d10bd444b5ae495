/**
 * The lifecycle of a workspace's default guardrail (docs/api-contract.md rules 17-21), from
 * the Guardrail's pieces: the same check, diff by key, PATCH bodies and refresh. It is never
 * created (POST) or deleted: create and update PATCH `default_guardrail_id`, and whether it
 * exists is the workspace's answer, never the guardrail's 404. The resource's id is the
 * workspace's UUID. A delete leaves the settings in force unless `resetOnDelete` is set.
 */
import { NotFoundError } from "../client/errors";
import { confirmWorkspaceGone } from "./workspace-default-gone";
import type { WireGuardrail, WireGuardrailUpdate } from "../client/wire";
import type { WorkspaceDefaultRead as DefaultRead } from "../client/workspace-default";
import { markSecret, secretArgsOf, shown, issuesToFailures } from "../args/messages";
import { userProps } from "../args/user-props";
import { FIELD_NAMES, type FieldName } from "../fields/fields";
import type { Connection } from "../connection";
import { containsUnknown, isUnknown } from "../markers";
import { UserError } from "../user-error";
import { updates, type CheckResult, type CreateResult, type DiffResult, type ReadResult } from "../results";
import type { Lifecycle, PropertyChange, UpdateResult } from "../results";
import { patchBody } from "./bodies";
import { changedProperties, propertyChanges } from "./changes";
import { checkArgsWith } from "./check";
import { annotateAs } from "../resource/annotate";
import { withSecretCopies } from "./secret-copies";
import { recordedSecretArgs, secrecyChanged } from "../resource/secrecy";
import { sameUuid } from "../fields/constants";
import { workspaceIdOf } from "../resource/workspace";
import {
  asGuardrailInputs,
  isWorkspaceUuid,
  workspaceDefaultArgsSchema,
  type WorkspaceDefaultInputs,
} from "./workspace-default-args";
import {
  asGuardrailOutputs,
  defaultOutputs,
  importedDefaultInputs,
  recordedWorkspace,
  refreshedDefaultInputs,
  type WorkspaceDefaultOutputs,
} from "./workspace-default-model";

/** How messages name the resource. */
const label = (ref: string) => `default guardrail of workspace ${shown(ref)}`;
const MOVE: PropertyChange = { path: "workspaceId", kind: "replace" };

export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<CheckResult> {
  const failures = checkArgsWith(workspaceDefaultArgsSchema, news, (i) => asGuardrailInputs(i, undefined)).failures;
  return { inputs: news, failures: markSecret(failures, secretArgsOf(news)) };
}

/** Parses inputs that `check` accepted; a workspace UUID in its lower-case form. */
export function parseDefaultInputs(news: Record<string, unknown>): WorkspaceDefaultInputs {
  const parsed = workspaceDefaultArgsSchema.safeParse(userProps(news), { reportInput: true });
  if (!parsed.success) {
    const failures = issuesToFailures(parsed.error, [], secretArgsOf(news));
    throw new UserError(
      `invalid default guardrail args: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`,
    );
  }
  const ws = parsed.data.workspaceId;
  return { ...parsed.data, workspaceId: isWorkspaceUuid(ws) ? ws.toLowerCase() : ws };
}

/**
 * Whether `ref` names another workspace than the recorded one. The recorded UUID, slug and
 * reference as last written need no call; another slug is asked of the service once.
 */
export async function workspaceMoves(conn: Connection, olds: WorkspaceDefaultOutputs, ref: string): Promise<boolean> {
  if (sameUuid(ref, olds.workspaceId) || ref === olds.workspaceSlug || ref === olds.args?.workspaceId) return false;
  if (isWorkspaceUuid(ref)) return true;
  // Checked as a policy's slug (resource/workspace.ts): an answer for another workspace, or a 404
  // the service does not confirm, is an error, never a previewed replacement.
  return !sameUuid(await workspaceIdOf(conn, ref, label(ref)), olds.workspaceId);
}

export async function diff(
  conn: Connection,
  _id: string,
  olds: WorkspaceDefaultOutputs,
  news: Record<string, unknown>,
): Promise<DiffResult> {
  const props = userProps(news);
  if (containsUnknown(props)) {
    const ws = props.workspaceId;
    const moves = isUnknown(ws) || (typeof ws === "string" && (await workspaceMoves(conn, olds, ws)));
    const unknown = Object.keys(props).filter((k) => containsUnknown(props[k]) && !(moves && k === "workspaceId"));
    return { changes: [...(moves ? [MOVE] : []), ...updates(unknown)] };
  }
  const inputs = parseDefaultInputs(news);
  const replace = await workspaceMoves(conn, olds, inputs.workspaceId);
  const [want, have] = [asGuardrailInputs(inputs, olds.name), asGuardrailOutputs(olds)];
  const secret = (arg: string) => secretArgsOf(news)(arg) || recordedSecretArgs(olds).includes(arg);
  const changed = propertyChanges(have, want, changedProperties(have, want), secret);
  const reset = (inputs.resetOnDelete ?? false) !== (olds.resetOnDelete ?? false) ? updates(["resetOnDelete"]) : [];
  const resealed = updates(secrecyChanged(olds, news).filter((arg) => !changed.some((c) => c.path === arg)));
  return { changes: [...(replace ? [MOVE] : []), ...changed, ...reset, ...resealed], deleteBeforeReplace: false };
}

/** The default guardrail of `ref`, which must exist (a create or import of a missing workspace fails). */
async function existing(conn: Connection, ref: string): Promise<Exclude<DefaultRead, { state: "gone" }>> {
  const r = await conn
    .client()
    .readWorkspaceDefault(ref)
    .catch((err) => Promise.reject(annotateAs(label(ref), err)));
  if (r.state === "gone")
    throw new UserError(
      `${label(ref)}: the service has no workspace ${shown(ref)}; workspaceId takes a workspace's id or slug (the getWorkspaces data source lists them)`,
    );
  return r;
}

/** Writes what differs from `current` (nothing: no call); the PATCH materializes an unconfigured default (rule 19). */
async function write(
  conn: Connection,
  current: WorkspaceDefaultOutputs,
  inputs: WorkspaceDefaultInputs,
  live: WireGuardrail | undefined,
): Promise<WireGuardrail | undefined> {
  const want = asGuardrailInputs(inputs, current.name);
  const changed = changedProperties(asGuardrailOutputs(current), want);
  if (changed.length === 0) return live;
  return conn
    .client()
    .updateGuardrail(current.guardrailId, patchBody(want, changed))
    .catch((err) => {
      if (err instanceof NotFoundError)
        throw new UserError(
          `${label(inputs.workspaceId)}: workspace ${current.workspaceId} no longer exists on the service; run \`pulumi refresh\``,
          { cause: err },
        );
      throw annotateAs(label(inputs.workspaceId), err);
    });
}

export async function create(conn: Connection, news: Record<string, unknown>): Promise<CreateResult> {
  const inputs = parseDefaultInputs(news);
  const r = await existing(conn, inputs.workspaceId);
  const live = r.state === "configured" ? r.guardrail : undefined;
  // The program holds every setting: what it omits is written back to no restriction.
  const g = await write(conn, defaultOutputs(r.workspace, live, undefined), inputs, live);
  const outs = defaultOutputs(r.workspace, g, inputs);
  return { id: r.workspace.id, properties: withSecretCopies(outs, recordedSecretArgs(news)) };
}

/**
 * Refresh (state given) and import (the id alone: a workspace's id or slug). Gone only when
 * the workspace is, and a working service confirms it.
 */
export async function read(
  conn: Connection,
  id: string,
  state: WorkspaceDefaultOutputs,
): Promise<ReadResult | undefined> {
  const props = state as WorkspaceDefaultOutputs | undefined; // none on an import
  // An import id that is neither a UUID nor a slug is refused before any call; a UUID in any case
  // is asked for in its lower-case form, as the service writes it (issue 38).
  const ref = props?.workspaceId ?? parseDefaultInputs({ workspaceId: id }).workspaceId;
  const r = await conn
    .client()
    .readWorkspaceDefault(ref)
    .catch((err) => Promise.reject(annotateAs(label(ref), err)));
  if (r.state === "gone") {
    await confirmWorkspaceGone(conn, ref, label(ref));
    return undefined;
  }
  const outs = defaultOutputs(r.workspace, r.state === "configured" ? r.guardrail : undefined, undefined, props);
  if (!props) return { id: r.workspace.id, properties: outs, inputs: importedDefaultInputs(outs) };
  const secrets = recordedSecretArgs(props);
  return {
    id,
    properties: withSecretCopies(outs, secrets),
    inputs: withSecretCopies(refreshedDefaultInputs(props, outs), secrets),
  };
}

export async function update(
  conn: Connection,
  _id: string,
  olds: WorkspaceDefaultOutputs,
  news: Record<string, unknown>,
): Promise<UpdateResult> {
  const inputs = parseDefaultInputs(news);
  const g = await write(conn, olds, inputs, undefined);
  // Nothing written (only resetOnDelete changed): the recorded settings stand, with the new args.
  const outs = g ? defaultOutputs(recordedWorkspace(olds), g, inputs, olds) : { ...olds, ...argsOf(inputs) };
  return { properties: withSecretCopies(outs, recordedSecretArgs(news)) };
}

const argsOf = (inputs: WorkspaceDefaultInputs) => ({
  args: JSON.parse(JSON.stringify(inputs)) as WorkspaceDefaultInputs,
  resetOnDelete: inputs.resetOnDelete ?? false,
});

/** Every setting but the name and description: what a reset sends (no restriction). */
const RESET: readonly FieldName[] = FIELD_NAMES.filter((k) => k !== "name" && k !== "description");

/** The PATCH body that puts every setting back to no restriction. */
export const resetBody = (): WireGuardrailUpdate =>
  patchBody(asGuardrailInputs({ workspaceId: "-" } as WorkspaceDefaultInputs, undefined), RESET);

/**
 * Removes the resource from state. The default guardrail cannot be deleted (rule 20), and a
 * destroy never silently loosens what protects a whole workspace: its settings stay in force
 * unless `resetOnDelete` is set, when every setting is PATCHed back to no restriction first.
 */
async function remove(conn: Connection, _id: string, props: WorkspaceDefaultOutputs): Promise<void> {
  if (props.resetOnDelete !== true) return;
  try {
    await conn.client().updateGuardrail(props.guardrailId, resetBody());
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw annotateAs(label(props.workspaceId), err);
    // Only a workspace that is gone takes its default with it (rule 21).
    if ((await conn.client().readWorkspaceDefault(props.workspaceId)).state !== "gone")
      throw annotateAs(label(props.workspaceId), err);
    await confirmWorkspaceGone(conn, props.workspaceId, label(props.workspaceId));
  }
}
export { remove as delete };

/** The provider methods of a workspace's default guardrail over `conn`, the provider instance's client and settings. */
export const workspaceDefaultLifecycle = (conn: Connection): Lifecycle => ({
  check,
  diff: (id, olds, news) => diff(conn, id, olds as WorkspaceDefaultOutputs, news),
  create: (news) => create(conn, news),
  read: (id, props) => read(conn, id, props as WorkspaceDefaultOutputs),
  update: (id, olds, news) => update(conn, id, olds as WorkspaceDefaultOutputs, news),
  delete: (id, props) => remove(conn, id, props as WorkspaceDefaultOutputs),
});
