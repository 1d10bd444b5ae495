/**
 * The Guardrail's provider methods: check, diff, create, read, update, delete. Loaded by the
 * thin serialized shim at call time, so nothing here ends up in state.
 */
import type * as pulumi from "@pulumi/pulumi";
import { GuardrailsError, NotFoundError } from "../client/errors";
import type { GuardrailsClient } from "../client/client";
import { checkBaseUrl } from "../client/base-url";
import { getClient, resolveSettings } from "../config";
import { JournalHandle } from "./create-journal";
import { claim } from "./create-claims";
import { createOnce } from "./create-once";
import { confirmGone } from "../confirm-gone";
import type { GuardrailInputs } from "../schema/guardrail-args";
import { containsUnknown, isUnknown } from "../schema/unknown";
import type { WireGuardrail } from "../schema/wire";
import { checkGuardrailArgs, parseInputs, userProps } from "./check";
import { changedProperties, createBody, outputsFromWire, refreshedInputs, patchBody, workspaceChanges, type GuardrailOutputs } from "./model";

export async function check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
  return { inputs: news, failures: checkGuardrailArgs(news).failures };
}

export async function diff(id: string, olds: GuardrailOutputs, news: Record<string, unknown>): Promise<pulumi.dynamic.DiffResult> {
  JournalHandle.forget(id); // the engine recorded this id: no interrupted create to recover
  const props = userProps(news);
  if (containsUnknown(props)) {
    // Not known until apply: say "may change", and "may replace" only if the workspace may move.
    const ws = props.workspaceId;
    const replaces = isUnknown(ws) || (typeof ws === "string" && ws !== olds.workspaceId) ? ["workspaceId"] : [];
    return { changes: true, replaces };
  }
  const inputs = parseInputs(news);
  const replace = workspaceChanges(olds, inputs);
  const changed = changedProperties(olds, inputs);
  return { changes: replace || changed.length > 0, replaces: replace ? ["workspaceId"] : [], deleteBeforeReplace: false };
}

export async function create(news: Record<string, unknown>): Promise<pulumi.dynamic.CreateResult<GuardrailOutputs>> {
  const inputs = parseInputs(news);
  const client = getClient();
  if (inputs.adoptId) return adopt(client, inputs, inputs.adoptId);
  const body = createBody(inputs);
  const g = await createOnce(client, typeof news.__resource === "string" ? news.__resource : undefined, checkBaseUrl(resolveSettings().baseUrl), inputs, body, (err) => annotate(inputs.name, err));
  return { id: g.id, outs: outputsFromWire(g, inputs, {}, body) };
}

/** Brings an existing guardrail under management: read it, then PATCH what differs. */
async function adopt(client: GuardrailsClient, inputs: GuardrailInputs, id: string): Promise<pulumi.dynamic.CreateResult<GuardrailOutputs>> {
  // Two resources of one run never hold one id (create-claims.ts).
  if (!claim(id)) throw new Error(`guardrail "${inputs.name}": adoptId ${id} is already held by another Guardrail of this run; two resources must never manage one guardrail`);
  let live: WireGuardrail;
  try {
    live = await client.getGuardrail(id);
  } catch (err) {
    if (err instanceof NotFoundError) throw new Error(`guardrail "${inputs.name}": adoptId ${id} names no guardrail; check the id (pulumi-guardrails lists ids with GET /api/v1/guardrails)`);
    throw annotate(inputs.name, err);
  }
  if (inputs.workspaceId && inputs.workspaceId !== live.workspace_id) {
    throw new Error(`guardrail "${inputs.name}": adoptId ${id} is in workspace ${live.workspace_id}, but workspaceId says ${inputs.workspaceId}; make them agree`);
  }
  const current = outputsFromWire(live, inputs);
  const changed = changedProperties(current, inputs);
  if (changed.length === 0) return { id, outs: current };
  const body = patchBody(inputs, changed);
  const g = await client.updateGuardrail(id, body).catch((err) => Promise.reject(annotate(inputs.name, err)));
  return { id, outs: outputsFromWire(g, inputs, current.modelAliases, body) };
}

export async function read(id: string, props: GuardrailOutputs): Promise<pulumi.dynamic.ReadResult> {
  JournalHandle.forget(id);
  const client = getClient();
  let g: WireGuardrail;
  try {
    g = await client.getGuardrail(id);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw annotate(props?.name ?? id, err);
    await confirmGone(client, err, { what: `guardrail "${props?.name ?? id}" (${id})`, guardrailId: id, workspaceId: props?.workspaceId });
    return {};
  }
  const outs: GuardrailOutputs = {
    ...outputsFromWire(g, undefined, props?.modelAliases ?? {}),
    args: props?.args ?? null,
  };
  return { id, props: outs, inputs: refreshedInputs(props ?? outs, outs) };
}

export async function update(id: string, olds: GuardrailOutputs, news: Record<string, unknown>): Promise<pulumi.dynamic.UpdateResult<GuardrailOutputs>> {
  JournalHandle.forget(id);
  const inputs = parseInputs(news);
  const client = getClient();
  const changed = changedProperties(olds, inputs);
  try {
    if (changed.length === 0) return { outs: { ...outputsFromWire(await client.getGuardrail(id), inputs, olds.modelAliases) } };
    const body = patchBody(inputs, changed);
    return { outs: outputsFromWire(await client.updateGuardrail(id, body), inputs, olds.modelAliases ?? {}, body) };
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new Error(`guardrail "${inputs.name}" (${id}) no longer exists on the service; run \`pulumi refresh\` and the next \`pulumi up\` recreates it`);
    }
    throw annotate(inputs.name, err);
  }
}

export async function remove(id: string, props: GuardrailOutputs): Promise<void> {
  JournalHandle.forget(id);
  const client = getClient();
  try {
    await client.deleteGuardrail(id);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw annotate(props?.name ?? id, err);
    // Already gone is the goal of a delete, but only a working service may say so.
    await confirmGone(client, err, { what: `guardrail "${props?.name ?? id}" (${id})`, guardrailId: id, workspaceId: props?.workspaceId });
  }
}

/** The service names fields in snake_case (`allowed_models[1]`); the program calls them `allowedModels[1]`. */
function inUserNames(message: string): string {
  return message.replace(/\b(allowed_models|ignored_models|allowed_providers|ignored_providers|limit_usd|reset_interval|workspace_id|content_filter_builtins|content_filters|enforce_zdr(?:_vendor_[abc]|_other)?|scan_scope)\b/g, (w) =>
    w.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()),
  );
}

/** Prefixes the resource's name, keeping the class (and so `status`) of API errors. */
function annotate(name: string, err: unknown): Error {
  if (err instanceof GuardrailsError) {
    err.message = `guardrail "${name}": ${inUserNames(err.message)}`;
    return err;
  }
  return err instanceof Error ? err : new Error(String(err));
}
