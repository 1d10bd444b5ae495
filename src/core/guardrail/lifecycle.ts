/**
 * The Guardrail's provider methods: check, diff, create, read, update, delete. Loaded by the
 * thin serialized shim at call time, so nothing here ends up in state.
 */
import { NotFoundError } from "../client/errors";
import { annotateAs } from "../resource/annotate";
import { checkBaseUrl } from "../client/base-url";
import type { Connection } from "../connection";
import { JournalHandle } from "../resource/create-journal";
import { noteGuardrail, readGuardrail } from "../resource/guardrail-reads";
import { createGuardrailOnce } from "./create-once";
import { confirmGone } from "../confirm-gone";
import { containsUnknown, isUnknown } from "../markers";
import { markSecret, secretArgsOf } from "../args/messages";
import type { WireGuardrail } from "../client/wire";
import { checkGuardrailArgs, parseInputs } from "./check";
import { userProps } from "../args/user-props";
import { adopt, assertReplacementKeepsGuardrail, assertSameGuardrail } from "./adoption";
import { adoptionWarning } from "./adoption-preview";
import { changedProperties, propertyChanges } from "./changes";
import { patchBody } from "./bodies";
import { importedInputs, outputsFromWire, refreshedInputs, type GuardrailOutputs } from "./model";
import { knownDefaultWorkspace, withDefaultWorkspace, workspaceMoves } from "./workspace";
import { withSecretCopies } from "./secret-copies";
import { recordedSecretArgs, secrecyChanged } from "../resource/secrecy";
import { UserError } from "../user-error";
import { hidingSecrets } from "../args/secret-text";
import { parseGuardrailImportId, withSentModels } from "./import-id";
import { recordedCanonical } from "./model-lists";
import { stillSet, warnRecordedDrift, withPolicyDrift } from "./policy-drift";
import {
  updates,
  type CheckResult,
  type CreateResult,
  type DiffResult,
  type Lifecycle,
  type PropertyChange,
  type ReadResult,
  type UpdateResult,
} from "../results";

export async function check(
  conn: Connection,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<CheckResult> {
  const failures = checkGuardrailArgs(news).failures;
  // Not in state yet and adopting: say what the adoption will overwrite (adoption-preview.ts).
  // The engine shows the provider's stderr in the run's output; the host has no warning channel.
  // Old inputs are empty exactly when the resource is not in state yet (a create).
  const creating = Object.keys(olds ?? {}).length === 0;
  if (failures.length === 0 && creating && typeof news.adoptId === "string" && !containsUnknown(userProps(news))) {
    const warning = await Promise.resolve()
      .then(() => adoptionWarning(conn.client(), parseInputs(news)))
      .catch(() => undefined);
    if (warning) console.error(warning);
  }
  return { inputs: news, failures: markSecret(failures, secretArgsOf(news)) };
}

export async function diff(
  conn: Connection,
  id: string,
  olds: GuardrailOutputs,
  news: Record<string, unknown>,
): Promise<DiffResult> {
  JournalHandle.forget(id); // the engine recorded this id: no interrupted create to recover
  const props = userProps(news);
  if (containsUnknown(props)) {
    warnRecordedDrift(id, olds, olds, recordedSecretArgs(olds));
    // Not known until apply: say "may change", and "may replace" only if the workspace may
    // move, by the same rule as below (an omitted workspaceId is the default workspace).
    const ws = props.workspaceId;
    if (typeof props.adoptId === "string" && !isUnknown(props.adoptId))
      assertSameGuardrail(id, olds, { name: String(props.name), adoptId: props.adoptId });
    const moves =
      isUnknown(ws) || (await workspaceMoves(olds, typeof ws === "string" ? ws : undefined, () => conn.client()));
    const unknown = Object.keys(props).filter((k) => containsUnknown(props[k]) && !(moves && k === "workspaceId"));
    return { changes: [...(moves ? [MOVE] : []), ...updates(unknown)] };
  }
  const inputs = parseInputs(news);
  assertSameGuardrail(id, olds, inputs);
  warnRecordedDrift(id, olds, inputs, recordedSecretArgs(olds));
  const replace = await workspaceMoves(olds, inputs.workspaceId, () => conn.client());
  if (replace)
    assertReplacementKeepsGuardrail(
      id,
      olds,
      inputs,
      inputs.workspaceId ?? `omitted, which means the default workspace ${knownDefaultWorkspace(olds) ?? ""}`.trimEnd(),
    );
  // A secret now or when the state was written: its changes name no part of its value.
  const secret = (arg: string) => secretArgsOf(news)(arg) || recordedSecretArgs(olds).includes(arg);
  const changed = propertyChanges(olds, inputs, changedProperties(olds, inputs), secret);
  // A copy recorded in plain text (or a secret no longer meant to be) is rewritten by an update that sends nothing: each such arg is a change.
  const resealed = updates(secrecyChanged(olds, news).filter((arg) => !changed.some((c) => c.path === arg)));
  return { changes: [...(replace ? [MOVE] : []), ...changed, ...resealed], deleteBeforeReplace: false };
}

/** A move to another workspace replaces the guardrail. */
const MOVE: PropertyChange = { path: "workspaceId", kind: "replace" };

/**
 * Adopts the guardrail `adoptId` names (adoption.ts) or creates one (create-once.ts, which
 * builds the body), then records what the service answered (model.ts) with every copy of a
 * secret arg marked (secret-copies.ts). Each of these is entered once, in that order.
 */
export async function create(conn: Connection, news: Record<string, unknown>): Promise<CreateResult> {
  const inputs = parseInputs(news);
  const client = conn.client();
  const g = inputs.adoptId
    ? await adopt(client, inputs, inputs.adoptId, (err) => annotate(inputs.name, err))
    : await createGuardrailOnce(client, resourceOf(news), journalUrl(conn), inputs).catch((err) =>
        Promise.reject(annotate(inputs.name, err)),
      );
  noteGuardrail(client, g, { created: !inputs.adoptId });
  const outs = outputsFromWire(g, inputs);
  // An adopted guardrail keeps the id the program names it by (in lower case: check.ts).
  return { id: inputs.adoptId ?? g.id, properties: withSecretCopies(outs, recordedSecretArgs(news)) };
}

/** `project/stack/name` as the resource class passes it, or undefined (then no journal). */
const resourceOf = (news: Record<string, unknown>) =>
  typeof news.__resource === "string" ? news.__resource : undefined;

export async function read(conn: Connection, id: string, props: GuardrailOutputs): Promise<ReadResult | undefined> {
  // An import (no state): the id is refused before any call unless it is a guardrail's (import-id.ts).
  const imported = props ? undefined : parseGuardrailImportId(id);
  const gid = imported?.guardrailId ?? id;
  JournalHandle.forget(gid);
  const client = conn.client();
  let g: WireGuardrail;
  try {
    // One GET per guardrail per command, shared with a set's refresh (resource/guardrail-reads.ts).
    g = await readGuardrail(client, gid);
  } catch (err) {
    await confirmGuardrailGone(conn, gid, props, err);
    return undefined;
  }
  // The copies of the args that were secret when the state was written stay secret.
  const secrets = imported?.secret ?? recordedSecretArgs(props);
  const read = await withPolicyDrift(conn, gid, outputsFromWire(g, undefined, props), props, secrets);
  const outs = await withDefaultWorkspace(client, read, imported !== undefined);
  if (imported) {
    const r = withSentModels(outs, importedInputs(outs), (l) => recordedCanonical(outs, l), imported.models);
    // The args the import id names as secret (the migration's: import-seal.ts) are recorded as
    // secrets, every copy, as a create with those args secret would have.
    return {
      id: gid,
      properties: withSecretCopies(r.outs, imported.secret),
      inputs: withSecretCopies(r.inputs, imported.secret),
    };
  }
  return {
    id,
    properties: withSecretCopies(outs, secrets),
    inputs: withSecretCopies(refreshedInputs(props, outs), secrets),
  };
}

export async function update(
  conn: Connection,
  id: string,
  olds: GuardrailOutputs,
  news: Record<string, unknown>,
): Promise<UpdateResult> {
  JournalHandle.forget(id);
  const inputs = parseInputs(news);
  const client = conn.client();
  assertSameGuardrail(id, olds, inputs);
  const changed = changedProperties(olds, inputs);
  try {
    const g =
      changed.length === 0
        ? await client.getGuardrail(id)
        : await client.updateGuardrail(id, patchBody(inputs, changed));
    noteGuardrail(client, g);
    const outs = { ...outputsFromWire(g, inputs, olds), ...stillSet(olds, inputs) };
    return { properties: withSecretCopies(outs, recordedSecretArgs(news)) };
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new UserError(
        `guardrail "${inputs.name}" (${id}) no longer exists on the service; run \`pulumi refresh\` and the next \`pulumi up\` recreates it`,
      );
    }
    throw annotate(inputs.name, err);
  }
}

/** The service URL as the create journal keys it (the client checked it already). */
function journalUrl(conn: Connection): string {
  const s = conn.settings();
  return checkBaseUrl(s.baseUrl, [s.apiKey]);
}

async function remove(conn: Connection, id: string, props: GuardrailOutputs): Promise<void> {
  JournalHandle.forget(id);
  const client = conn.client();
  try {
    await client.deleteGuardrail(id);
  } catch (err) {
    // Already gone is the goal of a delete, but only a working service may say so.
    await confirmGuardrailGone(conn, id, props, err);
  }
}

/**
 * A failed GET or DELETE of a guardrail the state records: a 404 means gone only once the
 * service confirms it (confirm-gone.ts); any other failure is thrown naming the guardrail.
 */
async function confirmGuardrailGone(conn: Connection, id: string, props: GuardrailOutputs, err: unknown) {
  if (!(err instanceof NotFoundError)) throw annotate(props?.name ?? id, err);
  await confirmGone(conn, err, {
    what: `guardrail "${props?.name ?? id}" (${id})`,
    guardrailId: id,
    workspaceId: props?.workspaceId ?? undefined,
  });
}

// `delete` is a reserved word: the function is `remove`, exported under the provider method's name.
export { remove as delete };

/** The Guardrail's provider methods over `conn`, the client and settings of the provider instance that serves them. */
export const guardrailLifecycle = (conn: Connection): Lifecycle => ({
  check: (olds, news) => check(conn, olds, news),
  // A secret arg's values (a secret name in every "guardrail "<name>"" label, an id a server's
  // 400 echoes) never reach a failure's text, whoever wrote it (args/secret-text.ts).
  diff: (id, olds, news) => diff(conn, id, olds as GuardrailOutputs, news).catch(hidingSecrets(news, olds)),
  create: (news) => create(conn, news).catch(hidingSecrets(news)),
  read: (id, props) => read(conn, id, props as GuardrailOutputs).catch(hidingSecrets(props)),
  update: (id, olds, news) => update(conn, id, olds as GuardrailOutputs, news).catch(hidingSecrets(news, olds)),
  delete: (id, props) => remove(conn, id, props as GuardrailOutputs).catch(hidingSecrets(props)),
});

/** Wraps an API error in one of the same class (and so `status`) naming the resource, in the program's names. */
function annotate(name: string, err: unknown): Error {
  return annotateAs(`guardrail "${name}"`, err);
}
