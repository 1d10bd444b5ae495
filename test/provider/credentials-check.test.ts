/**
 * Issue 38, class 7: a configured provider proves its key and URL with one read before its first
 * call, on both faces, so a wrong key or an unreachable URL fails a preview before any write even
 * when nothing needs reading. One read per process; the message names the setting, never the
 * key; `guardrails:skipCredentialsCheck` skips it. Against the emulator over HTTP.
 */
import { createServer } from "node:net";
import type * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { beforeEach, describe, expect, it } from "vitest";
import { resetConfiguration } from "../../src/core/settings/config";
import { forgetCredentialsCheck } from "../../src/core/settings/credentials-check";
import { configure, guardrail, memberAssignment } from "../../src/dynamic/internal";
import { providerService } from "../../src/native/server";
import { TEST_KEY, useProviderEmulator } from "../helpers/emulator";

const emu = useProviderEmulator();
const WRONG_KEY = "sk-wrong-0123456789abcdef0123456789";
/** The native plugin of the case: one provider instance, configured once. */
let service = providerService("0.0.0");
const NEWS = { __provider: "s", name: "Eng", limitUsd: 5, resetInterval: "daily" };

beforeEach(async () => {
  resetConfiguration();
  forgetCredentialsCheck();
  // One plugin process is configured once (a second Configure that changes settings is refused):
  // each case here stands for a fresh plugin.
  service = providerService("0.0.0");
  await emu.clearLog();
});

/** The dynamic shim's `configure`, with these stack settings (the test key and URL unless given). */
const configureDynamic = (settings: Record<string, string>) =>
  configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url, ...settings })[k]);

const calls = async () => (await emu.log()).entries.map((e) => `${e.method} ${e.path}${e.query} ${e.status}`);

/** A local port that takes no connection: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** The native `Configure` handler, called as grpc-js would: its error, or undefined. */
function nativeConfigure(args: Record<string, unknown>): Promise<grpc.ServiceError | undefined> {
  const handler = service.configure as grpc.handleUnaryCall<provproto.ConfigureRequest, provproto.ConfigureResponse>;
  const request = new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript(args as never));
  return new Promise((resolve) =>
    handler({ request } as grpc.ServerUnaryCall<provproto.ConfigureRequest, provproto.ConfigureResponse>, (err) =>
      resolve((err as grpc.ServiceError | null) ?? undefined),
    ),
  );
}

describe("dynamic face: the first call checks the key and URL", () => {
  it("a right key: one read of one row, shared by every later call of every kind", async () => {
    configureDynamic({});
    expect((await guardrail.check({}, NEWS)).failures).toEqual([]);
    await guardrail.check({}, NEWS);
    await memberAssignment.check({}, { __provider: "s", guardrailId: "x", memberUserIds: [] });
    expect(await calls()).toEqual(["GET /api/v1/guardrails?offset=0&limit=1 200"]);
  });

  it("a bad value is reported before any call, the key check included", async () => {
    configureDynamic({ "guardrails:apiKey": WRONG_KEY });
    const { failures } = await guardrail.check({}, { __provider: "s", name: "Eng", limitUsd: 10 });
    expect(failures?.map((f) => f.reason).join("; ")).toMatch(/resetInterval/);
    expect(await calls()).toEqual([]);
  });

  it("a wrong key fails check, naming guardrails:apiKey and never the key; later calls point back", async () => {
    configureDynamic({ "guardrails:apiKey": WRONG_KEY });
    const first = await guardrail.check({}, NEWS).then(
      () => "passed",
      (e: Error) => e.message,
    );
    expect(first).toContain("pulumi-guardrails checked the key and URL before any change, and it failed");
    expect(first).toContain("401 Unauthorized");
    expect(first).toContain("The service refused the API key from stack config guardrails:apiKey");
    expect(first).toContain("guardrails:skipCredentialsCheck");
    expect(first).not.toContain(WRONG_KEY);
    await expect(guardrail.check({}, NEWS)).rejects.toThrow(
      "pulumi-guardrails: the key or URL check failed (the first error of this run says why)",
    );
    expect(await calls()).toEqual(["GET /api/v1/guardrails?offset=0&limit=1 401"]);
  });

  it("the env var's key is named as such", async () => {
    const saved = process.env.GUARDRAILS_API_KEY;
    process.env.GUARDRAILS_API_KEY = WRONG_KEY;
    try {
      configure((k) => ({ "guardrails:baseUrl": emu.url })[k]);
      await expect(guardrail.check({}, NEWS)).rejects.toThrow(
        "The service refused the API key from the env var GUARDRAILS_API_KEY",
      );
    } finally {
      if (saved === undefined) delete process.env.GUARDRAILS_API_KEY;
      else process.env.GUARDRAILS_API_KEY = saved;
    }
  });

  it("an unreachable URL fails check, naming guardrails:baseUrl and the URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    configureDynamic({ "guardrails:baseUrl": url, "guardrails:maxAttempts": "1" });
    const message = await guardrail.check({}, NEWS).then(
      () => "passed",
      (e: Error) => e.message,
    );
    expect(message).toContain("pulumi-guardrails checked the key and URL before any change, and it failed");
    expect(message).toContain(`The service URL "${url}" comes from stack config guardrails:baseUrl`);
    expect(message).not.toContain(TEST_KEY);
  });

  it("skipCredentialsCheck: no read, the wrong key is found only by a call that needs the service", async () => {
    configureDynamic({ "guardrails:apiKey": WRONG_KEY, "guardrails:skipCredentialsCheck": "true" });
    expect((await guardrail.check({}, NEWS)).failures).toEqual([]);
    expect(await calls()).toEqual([]);
  });

  it("another answer than a refusal or no connection is left to the calls that follow", async () => {
    configureDynamic({ "guardrails:baseUrl": `${emu.url}/not-the-api` });
    expect((await guardrail.check({}, NEWS)).failures).toEqual([]);
  });
});

/** The native `Check` of a guardrail with `news` (valid ones unless given): its error, or undefined. */
function nativeCheck(news: Record<string, unknown> = NEWS_NATIVE): Promise<grpc.ServiceError | undefined> {
  const handler = service.check as grpc.handleUnaryCall<provproto.CheckRequest, provproto.CheckResponse>;
  const request = new provproto.CheckRequest()
    .setUrn("urn:pulumi:s::p::guardrails:index:Guardrail::eng")
    .setNews(Struct.fromJavaScript(news as never))
    .setOlds(Struct.fromJavaScript({}));
  return new Promise((resolve) =>
    handler({ request } as grpc.ServerUnaryCall<provproto.CheckRequest, provproto.CheckResponse>, (err) =>
      resolve((err as grpc.ServiceError | null) ?? undefined),
    ),
  );
}
const NEWS_NATIVE = { name: "Eng", limitUsd: 5, resetInterval: "daily" };

describe("native face: Configure arms the check; the first call past validation makes it", () => {
  it("a right key: Configure makes no call; the first Check one read, shared by later calls", async () => {
    expect(await nativeConfigure({ apiKey: TEST_KEY, baseUrl: emu.url })).toBeUndefined();
    expect(await calls()).toEqual([]);
    expect(await nativeCheck()).toBeUndefined();
    expect(await nativeCheck()).toBeUndefined();
    expect(await calls()).toEqual(["GET /api/v1/guardrails?offset=0&limit=1 200"]);
  });

  it("a bad value is reported before any call, the key check included", async () => {
    expect(await nativeConfigure({ apiKey: WRONG_KEY, baseUrl: emu.url })).toBeUndefined();
    expect(await nativeCheck({ name: "Eng", limitUsd: 10 })).toBeUndefined();
    expect(await calls()).toEqual([]);
  });

  it("a wrong key: the first Check fails naming guardrails:apiKey, never the key", async () => {
    expect(await nativeConfigure({ apiKey: WRONG_KEY, baseUrl: emu.url })).toBeUndefined();
    const err = await nativeCheck();
    expect(err?.details).toContain("The service refused the API key from stack config guardrails:apiKey");
    expect(err?.details).not.toContain(WRONG_KEY);
  });

  it("an unreachable URL: the first Check fails naming guardrails:baseUrl and the URL", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    expect(await nativeConfigure({ apiKey: TEST_KEY, baseUrl: url, maxAttempts: 1 })).toBeUndefined();
    const err = await nativeCheck();
    expect(err?.details).toContain(`The service URL "${url}" comes from stack config guardrails:baseUrl`);
  });

  it("skipCredentialsCheck (a boolean in the config): no read at all", async () => {
    expect(await nativeConfigure({ apiKey: WRONG_KEY, baseUrl: emu.url, skipCredentialsCheck: true })).toBeUndefined();
    expect(await nativeCheck()).toBeUndefined();
    expect(await calls()).toEqual([]);
  });
});
