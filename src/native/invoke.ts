/**
 * Data sources (invokes) on the native face: `guardrails:index:getGuardrail` by id, answered
 * in the program's names by the core's model (the same outputs a resource records).
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { getClient } from "../core/settings/config";
import { outputsFromWire } from "../core/guardrail/model";
import { UserError } from "../core/user-error";
import { fromStruct, toStruct } from "./wire";

export const GET_GUARDRAIL = "guardrails:index:getGuardrail";

export async function invoke(req: provproto.InvokeRequest): Promise<provproto.InvokeResponse> {
  const resp = new provproto.InvokeResponse();
  if (req.getTok() !== GET_GUARDRAIL) throw new UserError(`unknown function ${req.getTok()}`);
  const { props } = fromStruct(req.getArgs());
  if (typeof props.id !== "string" || props.id === "") {
    const f = new provproto.CheckFailure();
    f.setProperty("id");
    f.setReason("must be a guardrail id (UUID)");
    resp.setFailuresList([f]);
    return resp;
  }
  const g = await getClient().getGuardrail(props.id);
  resp.setReturn(toStruct({ id: g.id, ...outputsFromWire(g, undefined) }));
  return resp;
}
