/**
 * Issue 39: a lifecycle calls with the client it is handed, never a module-level one. Two native
 * provider instances in one process, each configured with its own key and URL against its own
 * emulator, each create, read and look up with their own client; and two core lifecycles handed
 * two connections do the same. Against two emulators over HTTP.
 */
import type * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardrailLifecycle } from "../../src/core/guardrail/lifecycle";
import { ProviderConfig, resetConfiguration } from "../../src/core/settings/config";
import { providerService } from "../../src/native/server";
import { withEmulator, type TestEmulator } from "../helpers/emulator";

const KEY_A = "org-a-management-key-0123456789";
const KEY_B = "org-b-management-key-9876543210";
const URN = "urn:pulumi:s::p::guardrails:index:Guardrail::eng";
let a: TestEmulator;
let b: TestEmulator;

beforeAll(async () => {
  [a, b] = await Promise.all([withEmulator({ managementKeys: [KEY_A] }), withEmulator({ managementKeys: [KEY_B] })]);
  resetConfiguration(); // no process config: a lifecycle that reached for it would fail
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

/** One handler of a service, called as grpc-js would. */
function call<Req, Resp>(handler: unknown, request: Req): Promise<Resp> {
  return new Promise((resolve, reject) =>
    (handler as grpc.handleUnaryCall<Req, Resp>)({ request } as grpc.ServerUnaryCall<Req, Resp>, (err, resp) =>
      err ? reject(err) : resolve(resp as Resp),
    ),
  );
}

const calls = async (emu: TestEmulator) =>
  (await emu.log()).entries.map((e) => `${e.method} ${e.path}${e.query} ${e.status}`);

describe("two native provider instances in one process", () => {
  it("each calls its own service with its own key: Configure, credentials check, create, invoke", async () => {
    await Promise.all([a.clearLog(), b.clearLog()]);
    const services = [providerService("0.0.0"), providerService("0.0.0")] as const;
    const configure = (s: (typeof services)[number], apiKey: string, baseUrl: string) =>
      call(s.configure, new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript({ apiKey, baseUrl })));
    await configure(services[0], KEY_A, a.url);
    await configure(services[1], KEY_B, b.url);
    const create = (s: (typeof services)[number], name: string) =>
      call<provproto.CreateRequest, provproto.CreateResponse>(
        s.create,
        new provproto.CreateRequest()
          .setUrn(URN)
          .setProperties(Struct.fromJavaScript({ name, limitUsd: 5, resetInterval: "daily" })),
      );
    const [ra, rb] = await Promise.all([create(services[0], "Org A"), create(services[1], "Org B")]);
    const names = async (s: (typeof services)[number]) => {
      const resp = await call<provproto.InvokeRequest, provproto.InvokeResponse>(
        s.invoke,
        new provproto.InvokeRequest().setTok("guardrails:index:getGuardrails").setArgs(Struct.fromJavaScript({})),
      );
      return (resp.getReturn()!.toJavaScript() as { guardrails: Array<{ name: string }> }).guardrails.map(
        (g) => g.name,
      );
    };
    expect(await names(services[0])).toEqual(["Org A"]);
    expect(await names(services[1])).toEqual(["Org B"]);
    // Each emulator saw its own instance's calls only, each authorised (a wrong key would be 401).
    for (const [emu, id] of [
      [a, ra.getId()],
      [b, rb.getId()],
    ] as const) {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await calls(emu)).toEqual([
        "GET /api/v1/guardrails?offset=0&limit=1 200", // the credentials check, once per instance
        "POST /api/v1/guardrails 201",
        "GET /api/v1/guardrails?offset=0&limit=100 200",
      ]);
    }
  });
});

describe("two core lifecycles handed two connections", () => {
  it("each reads with the client it was handed", async () => {
    const connA = new ProviderConfig();
    connA.configure((k) => ({ "guardrails:apiKey": KEY_A, "guardrails:baseUrl": a.url })[k]);
    const connB = new ProviderConfig();
    connB.configure((k) => ({ "guardrails:apiKey": KEY_B, "guardrails:baseUrl": b.url })[k]);
    const [ga, gb] = [guardrailLifecycle(connA), guardrailLifecycle(connB)];
    const created = await ga.create({ name: "Only on A", limitUsd: 1, resetInterval: "daily" });
    expect((await ga.read(created.id, created.properties))?.properties.name).toBe("Only on A");
    // The same id through B's lifecycle asks B's service, which has never heard of it: gone there.
    expect(await gb.read(created.id, created.properties)).toBeUndefined();
    expect((await calls(b)).filter((c) => c.includes(created.id))).toEqual([
      `GET /api/v1/guardrails/${created.id} 404`,
    ]);
    connA.reset();
    connB.reset();
  });
});
