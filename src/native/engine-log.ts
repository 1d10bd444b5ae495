/**
 * Warnings to the engine (its `Log` call), on the resource being served. The core says its
 * warnings on stderr with `console.error` (written for the dynamic face, which has no engine
 * connection); here each request runs with its URN in async-local storage and `console.error`
 * becomes a warning on that resource, as every native provider's warnings show in the CLI.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import * as engrpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engproto from "@pulumi/pulumi/proto/engine_pb";

const current = new AsyncLocalStorage<{ urn: string }>();

/** Runs one request's work with its resource's URN known to the warnings it says. */
export function withUrn<T>(urn: string, fn: () => T): T {
  return current.run({ urn }, fn);
}

/** Sends `console.error` lines to the engine at `address` as warnings (stderr when the call fails). */
export function logToEngine(address: string): void {
  const client = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
  const stderr = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    const message = args.map((a) => (typeof a === "string" ? a : String(a))).join(" ");
    const req = new engproto.LogRequest();
    req.setSeverity(engproto.LogSeverity.WARNING);
    req.setMessage(message.replace(/^warning: /, ""));
    req.setUrn(current.getStore()?.urn ?? "");
    client.log(req, (err) => {
      if (err) stderr(message);
    });
  };
}
