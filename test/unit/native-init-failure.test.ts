/**
 * A set's create or update that lands part of its change goes to the engine as Pulumi's
 * partially initialised resource: the gRPC error's status details carry a
 * `pulumirpc.ErrorResourceInitFailed` (id, the outputs of what landed, the reasons, the inputs),
 * as @pulumi/pulumi's provider server and dynamic provider encode it. Through the served
 * handlers, against the emulator over HTTP.
 */
import type * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { beforeAll, describe, expect, it } from "vitest";
import { providerService } from "../../src/native/server";
import { TEST_KEY, useProviderEmulator } from "../helpers/emulator";

const emu = useProviderEmulator();
const urn = "urn:pulumi:dev::p::guardrails:index:GuardrailMemberAssignment::eng-members";
const SIG = "4dabf18193072939515e22adb298388d";

/** Calls one unary handler of the served service as grpc-js would; answers its error. */
function callError<Req>(handler: unknown, request: Req): Promise<grpc.ServiceError> {
  return new Promise((resolve, reject) =>
    (handler as grpc.handleUnaryCall<Req, unknown>)({ request } as grpc.ServerUnaryCall<Req, unknown>, (err, resp) =>
      err ? resolve(err as grpc.ServiceError) : reject(new Error(`no error: ${JSON.stringify(resp)}`)),
    ),
  );
}

/** The ErrorResourceInitFailed packed in an error's `grpc-status-details-bin`, or undefined. */
function initFailure(err: grpc.ServiceError): provproto.ErrorResourceInitFailed | undefined {
  const [bin] = (err.metadata?.get("grpc-status-details-bin") ?? []) as Buffer[];
  if (!bin) return undefined;
  const status = statusproto.Status.deserializeBinary(new Uint8Array(bin));
  expect(status.getMessage()).toBe(err.details);
  const [any] = status.getDetailsList();
  expect(any?.getTypeName()).toBe("pulumirpc.ErrorResourceInitFailed");
  return provproto.ErrorResourceInitFailed.deserializeBinary(any!.getValue_asU8());
}

describe("native face: a partly applied set is a partially initialised resource", () => {
  const service = providerService("0.0.0-test");
  // The plugin's own Configure: the instance calls with the client it sets up (issue 39).
  beforeAll(async () => {
    const request = new provproto.ConfigureRequest().setArgs(
      Struct.fromJavaScript({
        apiKey: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: TEST_KEY },
        baseUrl: emu.url,
      }),
    );
    await new Promise((resolve, reject) =>
      (service.configure as grpc.handleUnaryCall<provproto.ConfigureRequest, unknown>)(
        { request } as grpc.ServerUnaryCall<provproto.ConfigureRequest, unknown>,
        (err, resp) => (err ? reject(err) : resolve(resp)),
      ),
    );
  });

  it("create: the members that landed are recorded, the one the service skipped is named", async () => {
    const g = await emu.client().createGuardrail({ name: "Partial", limit_usd: 1, reset_interval: "daily" });
    // The inputs as Check answers them: the id map beside the program's list.
    const props = {
      guardrailId: g.id,
      memberUserIds: ["user_alice", "user_ghost"],
      members: { user_alice: true, user_ghost: true },
    };
    const req = new provproto.CreateRequest().setUrn(urn).setProperties(Struct.fromJavaScript(props));
    const err = await callError(service.create, req);
    expect(err.details).toMatch(/did not land.*user_ghost/);
    const detail = initFailure(err);
    expect(detail, "the error carries no partial state").toBeDefined();
    expect(detail!.getId()).toBe(`${g.id}/members`);
    const outs = detail!.getProperties()!.toJavaScript();
    expect(outs).toMatchObject({
      guardrailId: g.id,
      memberUserIds: ["user_alice"],
      members: { user_alice: true, user_ghost: "not assigned" },
    });
    expect(detail!.getReasonsList().join("\n")).toMatch(/user_ghost/);
    expect(detail!.getInputs()!.toJavaScript()).toEqual(props);
  });

  it("update: a secret list stays secret in the partial state", async () => {
    const g = await emu.client().createGuardrail({ name: "Partial 2", limit_usd: 1, reset_interval: "daily" });
    await emu.client().assign("members", g.id, ["user_alice"]);
    const secret = (value: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", value });
    const olds = { guardrailId: g.id, exclusive: false, members: { user_alice: true }, memberUserIds: ["user_alice"] };
    const news = {
      guardrailId: g.id,
      memberUserIds: secret(["user_alice", "user_bob", "user_ghost"]),
      members: secret({ user_alice: true, user_bob: true, user_ghost: true }),
    };
    const req = new provproto.UpdateRequest()
      .setUrn(urn)
      .setId(`${g.id}/members`)
      .setOlds(Struct.fromJavaScript(olds))
      .setNews(Struct.fromJavaScript(news as never));
    const err = await callError(service.update, req);
    const detail = initFailure(err);
    expect(detail, "the error carries no partial state").toBeDefined();
    const outs = detail!.getProperties()!.toJavaScript() as Record<string, unknown>;
    expect(outs.memberUserIds).toEqual(secret(["user_alice", "user_bob"]));
    expect(outs.members).toEqual(secret({ user_alice: true, user_bob: true, user_ghost: "not assigned" }));
  });

  it("any other failure is a plain error with no details", async () => {
    const req = new provproto.CreateRequest()
      .setUrn(urn)
      .setProperties(
        Struct.fromJavaScript({ guardrailId: "3f2b8c1e-0000-4000-8000-0000000000ff", memberUserIds: [], members: {} }),
      );
    const err = await callError(service.create, req);
    expect(err.details).toMatch(/does not exist/);
    expect(initFailure(err)).toBeUndefined();
  });
});
