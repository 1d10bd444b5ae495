/**
 * A create or update that landed part of its change, as the engine takes it: Pulumi's
 * partially initialised resource. The engine records `properties` (what landed, in this face's
 * outputs) under `id` and fails the step, so the next `up` diffs against the truth and
 * finishes the job. On the wire it is the call's gRPC error with a `pulumirpc.ErrorResourceInitFailed`
 * in its status details (`grpc-status-details-bin`), encoded as @pulumi/pulumi's provider
 * server and dynamic provider do (`grpcResponseFromError`), plus the inputs.
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { UserError } from "../core/user-error";
import { toStruct } from "./wire";

/** A failure after part of a change landed; `properties` are the outputs to record. */
export class InitFailure extends UserError {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Record<string, unknown>,
    readonly reasons: readonly string[],
    /** The inputs the engine sent (its checked inputs), recorded beside the outputs. */
    readonly inputs: Struct | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The gRPC error of a failed call: with the partial state in its details for an `InitFailure`. */
export function grpcError(err: unknown): Partial<grpc.StatusObject> {
  const message = err instanceof Error ? err.message : String(err);
  if (!(err instanceof InitFailure)) return { code: grpc.status.UNKNOWN, details: message };
  const detail = new provproto.ErrorResourceInitFailed()
    .setId(err.id)
    .setProperties(toStruct(err.properties))
    .setReasonsList([...err.reasons])
    .setInputs(err.inputs);
  const any = new Any();
  any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status().setCode(grpc.status.UNKNOWN).setMessage(message);
  status.addDetails(any); // answers the Any, not the Status: not chained
  const metadata = new grpc.Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}
