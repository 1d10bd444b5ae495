/**
 * The resource methods of the native face: each request's Structs to the core's plain bags,
 * the core's lifecycle of the kind the URN names, its answer back to the wire.
 */
import { appendFileSync } from "node:fs";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as guardrailLifecycle from "../core/guardrail/lifecycle";
import type { Lifecycle } from "../core/results";
import { NATIVE_GUARDRAIL_TYPE } from "../core/type-tokens";
import { UserError } from "../core/user-error";
import { diffResponse } from "./diff";
import { againstOutputs, SET_KINDS } from "./sets";
import { coreNews, coreOlds, toStruct } from "./wire";

const KINDS: Record<string, Lifecycle> = {
  [NATIVE_GUARDRAIL_TYPE]: guardrailLifecycle,
  ...SET_KINDS,
};

/** The type token of a URN (`urn:pulumi:stack::project::[parent$]type::name`). */
function typeOf(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? qualified;
}

function lifecycleOf(urn: string): Lifecycle {
  const kind = KINDS[typeOf(urn)];
  if (!kind) throw new UserError(`unknown resource type ${typeOf(urn)}`);
  return kind;
}

export async function check(req: provproto.CheckRequest): Promise<provproto.CheckResponse> {
  const urn = req.getUrn();
  const r = await lifecycleOf(urn).check(coreOlds(req.getOlds()), coreNews(req.getNews(), urn));
  const resp = new provproto.CheckResponse();
  // The engine's own news, secrets marked as it sent them: the core's bookkeeping stays out of inputs.
  // A set answers its own (sets.ts: the id map beside the list, secrets sealed).
  resp.setInputs(typeOf(urn) in SET_KINDS ? toStruct(r.inputs) : (req.getNews() ?? toStruct({})));
  resp.setFailuresList(
    r.failures.map((f) => {
      const failure = new provproto.CheckFailure();
      failure.setProperty(f.property);
      failure.setReason(f.reason);
      return failure;
    }),
  );
  return resp;
}

export async function diff(req: provproto.DiffRequest): Promise<provproto.DiffResponse> {
  const urn = req.getUrn();
  const [olds, news] = [coreOlds(req.getOlds()), coreNews(req.getNews(), urn)];
  const d = await lifecycleOf(urn).diff(req.getId(), olds, news);
  const trace = process.env.GUARDRAILS_NATIVE_TRACE;
  if (trace) appendFileSync(trace, `native: Diff ${d.changes.map((c) => `${c.kind} ${c.path}`).join(", ")}\n`);
  // GUARDRAILS_NATIVE_KEY_PATHS=1 sends the key paths as they are (to see how the engine shows them).
  const resp = process.env.GUARDRAILS_NATIVE_KEY_PATHS ? diffResponse(d) : diffResponse(d, olds, news);
  return typeOf(urn) in SET_KINDS ? againstOutputs(resp) : resp;
}

export async function create(req: provproto.CreateRequest): Promise<provproto.CreateResponse> {
  const urn = req.getUrn();
  const r = await lifecycleOf(urn).create(coreNews(req.getProperties(), urn));
  const resp = new provproto.CreateResponse();
  resp.setId(r.id);
  resp.setProperties(toStruct(r.properties));
  return resp;
}

/** Read serves refresh (state given) and import (nothing but the id given). */
export async function read(req: provproto.ReadRequest): Promise<provproto.ReadResponse> {
  const urn = req.getUrn();
  const state = coreOlds(req.getProperties());
  const importing = Object.keys(state).length === 0;
  const r = await lifecycleOf(urn).read(req.getId(), importing ? (undefined as never) : state);
  const resp = new provproto.ReadResponse();
  if (!r) return resp; // gone: an empty id tells the engine so
  resp.setId(r.id);
  resp.setProperties(toStruct(r.properties));
  resp.setInputs(toStruct(withoutBookkeeping(r.inputs)));
  return resp;
}

export async function update(req: provproto.UpdateRequest): Promise<provproto.UpdateResponse> {
  const urn = req.getUrn();
  const r = await lifecycleOf(urn).update(req.getId(), coreOlds(req.getOlds()), coreNews(req.getNews(), urn));
  const resp = new provproto.UpdateResponse();
  resp.setProperties(toStruct(r.properties));
  return resp;
}

export async function remove(req: provproto.DeleteRequest): Promise<void> {
  await lifecycleOf(req.getUrn()).delete(req.getId(), coreOlds(req.getProperties()));
}

/** Inputs the engine records for an import: the user's args only. */
function withoutBookkeeping(bag: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(bag).filter(([k]) => !k.startsWith("__")));
}
