/**
 * The resource methods of the native face: each request's Structs to the core's plain bags,
 * the core's lifecycle of the kind the URN names, its answer back to the wire. Generic over
 * `Lifecycle`: a kind is one row of `kindsOver` (its names are core/kinds.ts's row), built once
 * per provider instance over its connection (server.ts).
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { namedInEveryLanguage, namesAnInput, rootOf, type PropertyFailure } from "../core/args/messages";
import { PartialApplyError } from "../core/assignments/apply";
import { setsInOldOrder } from "../core/guardrail/arrange";
import type { Connection } from "../core/connection";
import { guardrailLifecycle } from "../core/guardrail/lifecycle";
import { workspaceDefaultLifecycle } from "../core/guardrail/workspace-default-lifecycle";
import { ID_LISTS } from "../core/policies/args";
import { policyLifecycle } from "../core/policies/lifecycle";
import { workspaceWideLifecycle } from "../core/policies/workspace-wide-lifecycle";
import { COVERAGE_LISTS } from "../core/policies/workspace-wide-model";
import type { Lifecycle } from "../core/results";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName, TYPE_NAMES, type ResourceTypeName } from "../core/kinds";
import { typeOfUrn } from "../core/urn";
import { UserError } from "../core/user-error";
import { diffResponse } from "./diff";
import { InitFailure } from "./init-failure";
import { withIdMaps } from "./policy-lists";
import { claimsOver } from "./set-claims";
import { againstOutputs, setLifecyclesOver } from "./sets";
import { coreNews, coreOlds, engineInputs, fromStruct, toStruct } from "./wire";

/** The lifecycles of one provider instance, by type name. */
export type NativeKinds = Record<ResourceTypeName, Lifecycle>;

/** The kinds this face serves, by type name, each calling with `conn` (one provider instance's). */
export function kindsOver(conn: Connection): NativeKinds {
  const claims = claimsOver(conn);
  return {
    Guardrail: guardrailLifecycle(conn),
    WorkspaceDefaultGuardrail: workspaceDefaultLifecycle(conn),
    ...setLifecyclesOver(conn, claims),
    // A policy's id lists with an id map beside each, so previews name each id (policy-lists.ts).
    ...(Object.fromEntries(POLICY_TYPE_NAMES.map((t) => [t, withIdMaps(policyLifecycle(t, conn), ID_LISTS)])) as Record<
      PolicyTypeName,
      Lifecycle
    >),
    WorkspaceWidePolicy: withIdMaps(workspaceWideLifecycle(conn), Object.keys(COVERAGE_LISTS)),
  };
}

/**
 * How the inputs the engine records are ordered, for a kind that holds a guardrail's settings:
 * a set's entries in the old inputs' order, so the detailed diff's index paths rarely put an
 * added and a deleted entry at one index (core/guardrail/arrange.ts). Secret args (`skip`)
 * stay as sent. Other kinds keep the core's order.
 */
const inputOrder = (type: ResourceTypeName) => (KINDS[type].settings ? setsInOldOrder : undefined);

/** The kind a URN names, by its exact native token (`guardrails:index:<Type>`, after any parent types). */
function typeOf(urn: string): ResourceTypeName | undefined {
  const token = typeOfUrn(urn);
  return TYPE_NAMES.find((t) => KINDS[t].nativeToken === token);
}
const isSet = (urn: string) => {
  const type = typeOf(urn);
  return type !== undefined && "set" in KINDS[type];
};

function lifecycleOf(kinds: NativeKinds, urn: string): Lifecycle {
  const type = typeOf(urn);
  if (!type) throw new UserError(`unknown resource type ${typeOfUrn(urn)}`);
  return kinds[type];
}

/**
 * A core failure on the wire, with its property path. The engine prints the top-level input
 * named by the failure's path beside it, secrets in plain text (`{&{{-7}}}`, 3.248): a failure
 * at a secret arg itself goes with no property, its path leading the reason; so does, given the
 * inputs, a path that names no input that is set (a deeper path, or an arg not given), which
 * the engine would print beside `value {<nil>}` (issue 38). So does a path whose Python or Go
 * name differs, named in every language (`namedInEveryLanguage`): the program may be in any of
 * them, and the engine would lead with the schema's name alone (issue 42).
 */
export function wireFailure(f: PropertyFailure, inputs?: Record<string, unknown>): provproto.CheckFailure {
  const named = namedInEveryLanguage(f.property);
  const bare =
    named !== f.property ||
    (f.secret === true && rootOf(f.property) === f.property) ||
    (inputs && !namesAnInput(f.property, inputs));
  const failure = new provproto.CheckFailure();
  failure.setProperty(bare ? "" : f.property);
  failure.setReason(bare && f.property ? `${named}: ${f.reason}` : f.reason);
  return failure;
}

export async function check(kinds: NativeKinds, req: provproto.CheckRequest): Promise<provproto.CheckResponse> {
  const urn = req.getUrn();
  const olds = coreOlds(req.getOlds());
  const r = await lifecycleOf(kinds, urn).check(olds, coreNews(req.getNews(), urn));
  const secretRoots = fromStruct(req.getNews()).secretRoots;
  const type = typeOf(urn);
  const order = type && inputOrder(type);
  const inputs = order ? order(olds, r.inputs, secretRoots) : r.inputs;
  const resp = new provproto.CheckResponse();
  // The core's inputs, each arg the engine sent as a secret a secret again; no face bookkeeping.
  // A set answers its own (sets.ts: the id map beside the list, secrets sealed).
  resp.setInputs(toStruct(isSet(urn) ? inputs : engineInputs(inputs, secretRoots)));
  const news = fromStruct(req.getNews()).props;
  resp.setFailuresList(r.failures.map((f) => wireFailure(f, news)));
  return resp;
}

export async function diff(kinds: NativeKinds, req: provproto.DiffRequest): Promise<provproto.DiffResponse> {
  const urn = req.getUrn();
  const news = coreNews(req.getNews(), urn);
  const outs = coreOlds(req.getOlds());
  const d = await lifecycleOf(kinds, urn).diff(req.getId(), outs, news);
  // The engine shows a detailed diff's old values from the recorded inputs (InputDiff).
  const oldInputs = req.hasOldInputs() ? coreOlds(req.getOldInputs()) : outs;
  const resp = diffResponse(d, oldInputs, news, outs);
  return isSet(urn) ? againstOutputs(resp) : resp;
}

/**
 * A change the core applied in part (its error carries what landed, as outputs) as the engine
 * takes it: a partially initialised resource, recorded with `inputs` (server.ts encodes it).
 */
const partly =
  (inputs: Struct | undefined) =>
  (err: unknown): never => {
    if (!(err instanceof PartialApplyError)) throw err;
    throw new InitFailure(err.message, err.id, err.properties, err.reasons, inputs, { cause: err });
  };

export async function create(kinds: NativeKinds, req: provproto.CreateRequest): Promise<provproto.CreateResponse> {
  const urn = req.getUrn();
  const r = await lifecycleOf(kinds, urn).create(coreNews(req.getProperties(), urn)).catch(partly(req.getProperties()));
  const resp = new provproto.CreateResponse();
  resp.setId(r.id);
  resp.setProperties(toStruct(r.properties));
  return resp;
}

/**
 * Read serves refresh (state given) and import (nothing but the id given: the core then
 * answers inputs that are exactly the args a program writes to match it, so generated code
 * previews with no change).
 */
export async function read(kinds: NativeKinds, req: provproto.ReadRequest): Promise<provproto.ReadResponse> {
  const urn = req.getUrn();
  const state = coreOlds(req.getProperties());
  const importing = Object.keys(state).length === 0;
  const r = await lifecycleOf(kinds, urn).read(req.getId(), importing ? (undefined as never) : state);
  const resp = new provproto.ReadResponse();
  if (!r) return resp; // gone: an empty id tells the engine so
  resp.setId(r.id);
  resp.setProperties(toStruct(r.properties));
  resp.setInputs(toStruct(engineInputs(r.inputs, [])));
  return resp;
}

export async function update(kinds: NativeKinds, req: provproto.UpdateRequest): Promise<provproto.UpdateResponse> {
  const urn = req.getUrn();
  const r = await lifecycleOf(kinds, urn)
    .update(req.getId(), coreOlds(req.getOlds()), coreNews(req.getNews(), urn))
    .catch(partly(req.getNews()));
  const resp = new provproto.UpdateResponse();
  resp.setProperties(toStruct(r.properties));
  return resp;
}

export async function remove(kinds: NativeKinds, req: provproto.DeleteRequest): Promise<void> {
  await lifecycleOf(kinds, req.getUrn()).delete(req.getId(), coreOlds(req.getProperties()));
}
