/**
 * Warnings reach the engine as warnings on the resource being served (issue 26): what the core
 * says with `console.error` (adoption, holder moves) and its plain stderr retry lines, each on
 * the request's URN. A real gRPC Engine server in the test records the Log calls.
 */
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportRetry } from "../../src/core/client/retry-report";
import { GuardrailsError } from "../../src/core/client/errors";
import { logToEngine, withUrn } from "../../src/native/engine-log";

const WARNING = engproto.LogSeverity.WARNING;

describe("native face: warnings to the engine", () => {
  const logged: Array<{ severity: number; message: string; urn: string }> = [];
  const server = new grpc.Server();
  let undo: () => void = () => {};
  beforeAll(async () => {
    server.addService(engrpc.EngineService, {
      log: (call: grpc.ServerUnaryCall<engproto.LogRequest, Empty>, cb: grpc.sendUnaryData<Empty>) => {
        logged.push({
          severity: call.request.getSeverity(),
          message: call.request.getMessage(),
          urn: call.request.getUrn(),
        });
        cb(null, new Empty());
      },
    } as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    undo = logToEngine(`127.0.0.1:${port}`);
  });
  afterAll(() => {
    undo();
    server.forceShutdown();
  });

  it("console.error and a retry line said during a request are warnings on its resource", async () => {
    const urn = "urn:pulumi:dev::p::guardrails:index:Guardrail::eng";
    await withUrn(urn, async () => {
      console.error('warning: guardrail "Adopted": adopting g1 will overwrite limitUsd');
      await Promise.resolve();
      reportRetry(
        new GuardrailsError(503, "503 Service Unavailable", { method: "GET", url: "/guardrails/g1" } as never),
        1,
        250,
      );
    });
    await expect.poll(() => logged.length).toBe(2);
    expect(logged).toEqual([
      { severity: WARNING, message: 'guardrail "Adopted": adopting g1 will overwrite limitUsd', urn },
      {
        severity: WARNING,
        message: expect.stringMatching(/^pulumi-guardrails: attempt 1 failed: .*503.*; retrying in 250 ms$/),
        urn,
      },
    ]);
  });
});
