/**
 * The `ResourceProvider` gRPC service of the native face, served with the stubs that ship in
 * `@pulumi/pulumi/proto`. `@pulumi/pulumi/provider`'s `main()` is not used: its server answers
 * `CheckConfig` and `DiffConfig` UNIMPLEMENTED, passes no config to the provider in
 * `Configure`, and drops a diff's `detailedDiff` (provider/server.js in 3.248).
 */
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { UserError } from "../core/user-error";
import { ProviderConfig } from "../core/settings/config";
import { CredentialsCheck } from "../core/settings/credentials-check";
import { checkConfigResponse, configureOnce, diffConfigResponse } from "./config";
import { afterCheck, armingCredentials, checkThenCredentials, invokeAfterCheck } from "./credentials";
import { withUrn } from "./engine-log";
import { grpcError } from "./init-failure";
import { invoke } from "./invoke";
import * as resources from "./resources";
import { packageSchema } from "./schema";

type Handler<Req, Resp> = (req: Req) => Resp | Promise<Resp>;

const urnOf = (req: unknown): string =>
  typeof (req as { getUrn?: unknown }).getUrn === "function" ? String((req as { getUrn(): string }).getUrn()) : "";

/**
 * A unary gRPC handler over a plain async function: a failure goes back as the call's error,
 * a partly applied change (`InitFailure`) with its partial state for the engine to record.
 */
function unary<Req, Resp>(fn: Handler<Req, Resp>): grpc.handleUnaryCall<Req, Resp> {
  return (call, callback) => {
    Promise.resolve()
      .then(() => withUrn(urnOf(call.request), () => fn(call.request)))
      .then(
        (resp) => callback(null, resp),
        (err: unknown) => {
          const message = err instanceof Error ? err.message : String(err);
          // An expected failure is said once; anything else keeps its stack on stderr.
          if (!(err instanceof UserError)) console.error(err instanceof Error ? err.stack : message);
          callback(grpcError(err), null);
        },
      );
  };
}

/**
 * The service implementation of one provider instance; methods left out answer UNIMPLEMENTED
 * (grpc-js's default). The instance's `Configure` sets up its own config, and with it the one
 * client its resources and data sources call with; its key and URL are checked once, at the
 * first call that passes its own validation.
 */
export function providerService(version: string): Partial<provrpc.IResourceProviderServer> {
  const empty = () => new Empty();
  const config = new ProviderConfig();
  const credentials = new CredentialsCheck(config);
  const kinds = resources.kindsOver(config);
  return {
    getPluginInfo: unary(() => new plugproto.PluginInfo().setVersion(version)),
    getSchema: unary(() => new provproto.GetSchemaResponse().setSchema(packageSchema())),
    checkConfig: unary(checkConfigResponse),
    diffConfig: unary(diffConfigResponse),
    configure: unary(armingCredentials(credentials, configureOnce(config))),
    check: unary(checkThenCredentials(credentials, (req) => resources.check(kinds, req))),
    diff: unary(afterCheck(credentials, (req: provproto.DiffRequest) => resources.diff(kinds, req))),
    create: unary(afterCheck(credentials, (req: provproto.CreateRequest) => resources.create(kinds, req))),
    read: unary(afterCheck(credentials, (req: provproto.ReadRequest) => resources.read(kinds, req))),
    update: unary(afterCheck(credentials, (req: provproto.UpdateRequest) => resources.update(kinds, req))),
    delete: unary(
      afterCheck(credentials, async (req: provproto.DeleteRequest) => (await resources.remove(kinds, req), empty())),
    ),
    invoke: unary(invokeAfterCheck(credentials, (req) => invoke(config, req))),
    cancel: unary(empty),
    attach: unary(empty),
  };
}

/** Serves on a free local port and prints it, as the engine's plugin protocol asks. */
export async function serve(version: string): Promise<grpc.Server> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, providerService(version) as provrpc.IResourceProviderServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  process.stdout.write(`${port}\n`);
  return server;
}
