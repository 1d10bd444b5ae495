/**
 * Warnings to the engine (its `Log` call), on the resource being served. The core says its
 * warnings on stderr, with `console.error` (adoption, holder moves) or a plain stderr line
 * (retries, core/client/retry-report.ts), written for the dynamic face, which has no engine
 * connection. Here each request runs with its URN in async-local storage, and what it says on
 * stderr becomes a warning on that resource, as every native provider's warnings show in the
 * CLI. Outside a request, stderr stays stderr.
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

/**
 * Sends `console.error` lines, and stderr lines written during a request, to the engine at
 * `address` as warnings (to stderr when the call fails). Answers a function that undoes it.
 */
export function logToEngine(address: string): () => void {
  const client = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
  const [error, write] = [console.error, process.stderr.write];
  const stderr = (text: string) => write.call(process.stderr, text.endsWith("\n") ? text : `${text}\n`);
  const warn = (message: string) => {
    const req = new engproto.LogRequest();
    req.setSeverity(engproto.LogSeverity.WARNING);
    req.setMessage(message.replace(/^warning: /, ""));
    req.setUrn(current.getStore()?.urn ?? "");
    client.log(req, (err) => {
      if (err) stderr(message);
    });
  };
  console.error = (...args: unknown[]) => warn(args.map((a) => (typeof a === "string" ? a : String(a))).join(" "));
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!current.getStore()) return (write as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    if (text.trim() !== "") warn(text.trimEnd());
    const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stderr.write;
  return () => {
    console.error = error;
    process.stderr.write = write;
    client.close();
  };
}
