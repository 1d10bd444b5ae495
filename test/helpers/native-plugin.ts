/**
 * The built native plugin (dist/plugin/, the rolldown bundle the npm package ships) run as the
 * engine runs it: a child process that prints its port, driven over gRPC with the stubs of
 * `@pulumi/pulumi/proto`. Needs `npm run build`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { REPO_ROOT } from "./spawn-emulator";

export const PLUGIN_LAUNCHER = join(REPO_ROOT, "dist/plugin/pulumi-resource-guardrails");

export interface RunningPlugin {
  client: provrpc.ResourceProviderClient;
  /** The plugin's stderr so far. */
  stderr: () => string;
  stop(): void;
}

/**
 * Starts the bundled plugin (or `launcher`, another build of it, such as the single executable)
 * with `env` added to this process's environment.
 */
export async function startPlugin(
  env: Record<string, string> = {},
  launcher: string = PLUGIN_LAUNCHER,
): Promise<RunningPlugin> {
  if (!existsSync(launcher)) throw new Error(`no ${launcher}: run \`npm run build\` first`);
  const child: ChildProcess = spawn(launcher, [], {
    env: { ...process.env, GUARDRAILS_API_KEY: "", GUARDRAILS_BASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^(\d+)\n/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`the plugin exited ${code}: ${err}`)));
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return {
    client,
    stderr: () => err,
    stop: () => {
      client.close();
      child.kill("SIGKILL");
    },
  };
}

/** A unary call as a promise: the answer, or the gRPC error. */
export function call<Req, Resp>(
  client: provrpc.ResourceProviderClient,
  method: "configure" | "invoke",
  req: Req,
): Promise<Resp> {
  return new Promise((resolve, reject) =>
    (client[method] as unknown as (r: Req, cb: (e: grpc.ServiceError | null, r: Resp) => void) => void).call(
      client,
      req,
      (e, r) => (e ? reject(e) : resolve(r)),
    ),
  );
}

/** `Configure` with the settings as the engine sends them (args Struct, by short name). */
export function configure(
  client: provrpc.ResourceProviderClient,
  settings: Record<string, string>,
): Promise<provproto.ConfigureResponse> {
  const req = new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(settings)).setAcceptsecrets(true);
  for (const [k, v] of Object.entries(settings)) req.getVariablesMap().set(`guardrails:config:${k}`, v);
  return call(client, "configure", req);
}

/** An invoke of `guardrails:index:<fn>`: its return value, or its check failures as one error. */
export async function invoke(
  client: provrpc.ResourceProviderClient,
  fn: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const req = new provproto.InvokeRequest()
    .setTok(`guardrails:index:${fn}`)
    .setArgs(Struct.fromJavaScript(args as never));
  const resp = await call<provproto.InvokeRequest, provproto.InvokeResponse>(client, "invoke", req);
  const failures = resp.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
  if (failures.length > 0) throw new Error(failures.join("; "));
  return (resp.getReturn()?.toJavaScript() ?? {}) as Record<string, unknown>;
}
