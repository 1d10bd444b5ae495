/**
 * The native face's gRPC service (src/native/server.ts) driven in this process as the engine
 * drives it: each handler called as grpc-js calls it, with requests built from plain values in
 * which a secret is Pulumi's envelope and an unknown the engine's sentinel, and answers read back
 * as plain values (envelopes kept, so a test sees what the engine would record as secret). A
 * failed call answers its gRPC error (code, details and, for a partial apply, its metadata).
 */
import type * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { SECRET_SIG, SIG_KEY } from "../../src/core/markers";
import { providerService } from "../../src/native/server";
import { TEST_KEY } from "./emulator";

type Bag = Record<string, unknown>;

/** A value as the engine sends a secret. */
export const secret = (value: unknown): Bag => ({ [SIG_KEY]: SECRET_SIG, value });

/** One handler of a service, called as grpc-js would. */
function call<Req, Resp>(handler: unknown, request: Req): Promise<Resp> {
  return new Promise((resolve, reject) =>
    (handler as grpc.handleUnaryCall<Req, Resp>)({ request } as grpc.ServerUnaryCall<Req, Resp>, (err, resp) =>
      err ? reject(Object.assign(new Error(String(err.details)), err)) : resolve(resp as Resp),
    ),
  );
}

const struct = (b: Bag) => Struct.fromJavaScript(b as never);
const js = (s: Struct | undefined): Bag => (s?.toJavaScript() ?? {}) as Bag;

export const urnOf = (type: string, name = "r") => `urn:pulumi:s::p::guardrails:index:${type}::${name}`;

export interface DiffAnswer {
  changes: "some" | "none" | "unknown";
  diffs: string[];
  replaces: string[];
  detailed: Record<string, number>;
}

/** A fresh provider instance, configured against `baseUrl` with the test key. */
export async function nativeService(baseUrl: string, settings: Record<string, string> = {}) {
  const s = providerService("0.0.0");
  await call(
    s.configure,
    new provproto.ConfigureRequest()
      .setArgs(struct({ apiKey: TEST_KEY, baseUrl, maxAttempts: "1", ...settings }))
      .setAcceptsecrets(true),
  );
  return {
    async check(urn: string, news: Bag, olds: Bag = {}) {
      const r = await call<provproto.CheckRequest, provproto.CheckResponse>(
        s.check,
        new provproto.CheckRequest().setUrn(urn).setNews(struct(news)).setOlds(struct(olds)),
      );
      return {
        inputs: js(r.getInputs()),
        failures: r.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
    async diff(urn: string, id: string, olds: Bag, news: Bag, oldInputs?: Bag): Promise<DiffAnswer> {
      const req = new provproto.DiffRequest().setUrn(urn).setId(id).setOlds(struct(olds)).setNews(struct(news));
      if (oldInputs) req.setOldInputs(struct(oldInputs));
      const r = await call<provproto.DiffRequest, provproto.DiffResponse>(s.diff, req);
      const C = provproto.DiffResponse.DiffChanges;
      const detailed: Record<string, number> = {};
      r.getDetaileddiffMap().forEach((v, k) => {
        detailed[k] = v.getKind();
      });
      return {
        changes: r.getChanges() === C.DIFF_SOME ? "some" : r.getChanges() === C.DIFF_NONE ? "none" : "unknown",
        diffs: r.getDiffsList(),
        replaces: r.getReplacesList(),
        detailed,
      };
    },
    async create(urn: string, news: Bag) {
      const r = await call<provproto.CreateRequest, provproto.CreateResponse>(
        s.create,
        new provproto.CreateRequest().setUrn(urn).setProperties(struct(news)),
      );
      return { id: r.getId(), outs: js(r.getProperties()) };
    },
    async read(urn: string, id: string, props: Bag = {}, inputs: Bag = {}) {
      const r = await call<provproto.ReadRequest, provproto.ReadResponse>(
        s.read,
        new provproto.ReadRequest().setUrn(urn).setId(id).setProperties(struct(props)).setInputs(struct(inputs)),
      );
      return { id: r.getId(), props: js(r.getProperties()), inputs: js(r.getInputs()) };
    },
    async update(urn: string, id: string, olds: Bag, news: Bag) {
      const r = await call<provproto.UpdateRequest, provproto.UpdateResponse>(
        s.update,
        new provproto.UpdateRequest().setUrn(urn).setId(id).setOlds(struct(olds)).setNews(struct(news)),
      );
      return { outs: js(r.getProperties()) };
    },
    async delete(urn: string, id: string, props: Bag) {
      await call(s.delete, new provproto.DeleteRequest().setUrn(urn).setId(id).setProperties(struct(props)));
    },
    async invoke(fn: string, args: Bag) {
      const r = await call<provproto.InvokeRequest, provproto.InvokeResponse>(
        s.invoke,
        new provproto.InvokeRequest().setTok(`guardrails:index:${fn}`).setArgs(struct(args)),
      );
      return {
        ret: js(r.getReturn()),
        failures: r.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
      };
    },
  };
}

export type NativeService = Awaited<ReturnType<typeof nativeService>>;

/** Every path in `v` (dotted, `[i]` for items) whose value holds `needle` outside a secret envelope. */
export function plainCopies(v: unknown, needle: string, path = ""): string[] {
  if (v && typeof v === "object" && (v as Bag)[SIG_KEY] === SECRET_SIG) return [];
  if (typeof v === "string") return v.includes(needle) ? [path || "."] : [];
  if (Array.isArray(v)) return v.flatMap((x, i) => plainCopies(x, needle, `${path}[${i}]`));
  if (v && typeof v === "object")
    return Object.entries(v).flatMap(([k, x]) => [
      ...(k.includes(needle) ? [`${path}.${k}(key)`] : []),
      ...plainCopies(x, needle, path ? `${path}.${k}` : k),
    ]);
  return [];
}
