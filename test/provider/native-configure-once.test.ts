/**
 * The native plugin trusts only its engine (issue 38, class 5): it listens on loopback without
 * authentication, as every provider plugin does, and a local process that found its port sent
 * a second `Configure` pointing the next invoke, the user's key in its header, at its own
 * listener. The engine configures each plugin process once; a second `Configure` that changes
 * a setting is refused and the first settings stay in force. Against the bundled plugin over
 * gRPC, its calls answered by the emulator.
 */
import type * as grpc from "@grpc/grpc-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEY, type TestEmulator, withEmulator } from "../helpers/emulator";
import { type HostileServer, hostileServer, json } from "../helpers/hostile-server";
import { configure, invoke, type RunningPlugin, startPlugin } from "../helpers/native-plugin";

const OTHER_KEY = "sk-or-v1-attacker0000000000000000000000000000";
let emu: TestEmulator;
let listener: HostileServer;
let plugin: RunningPlugin;
let id: string;

beforeAll(async () => {
  emu = await withEmulator();
  id = (await emu.client().createGuardrail({ name: "Strict" })).id;
  listener = await hostileServer((_req, res) => json(res, 200, { data: [], total_count: 0 }));
});
afterAll(async () => {
  await listener.close();
  await emu.close();
});
afterEach(() => plugin?.stop());

const refusal = async (p: Promise<unknown>): Promise<string> => {
  const err = (await p.then(
    () => expect.unreachable("the second Configure was accepted"),
    (e: unknown) => e,
  )) as grpc.ServiceError;
  return err.details;
};

describe("a second Configure", () => {
  it("that changes baseUrl or the key is refused; the first settings stay in force", async () => {
    plugin = await startPlugin();
    const first = { apiKey: TEST_KEY, baseUrl: emu.url };
    await configure(plugin.client, first);

    const url = await refusal(configure(plugin.client, { ...first, baseUrl: listener.url }));
    expect(url).toMatch(/refused a second Configure that changes baseUrl\b/);
    const key = await refusal(configure(plugin.client, { ...first, apiKey: OTHER_KEY }));
    expect(key).toMatch(/refused a second Configure that changes apiKey\b/);
    const both = await refusal(
      configure(plugin.client, { apiKey: OTHER_KEY, baseUrl: listener.url, maxAttempts: "1" }),
    );
    expect(both).toMatch(/changes apiKey, baseUrl, maxAttempts\b/);
    for (const message of [url, key, both]) {
      expect(message).not.toContain(TEST_KEY);
      expect(message).not.toContain(OTHER_KEY);
    }

    // The next invoke still goes to the emulator, with the first key (another would get a 401).
    await emu.clearLog();
    expect((await invoke(plugin.client, "getGuardrails", {})).ids).toEqual([id]);
    expect(listener.requests).toEqual([]);
    // The first call past validation also proves the key and URL (one row; issue 38, class 7).
    expect((await emu.log()).entries.map((e) => `${e.operation} ${e.status} ${e.query}`)).toEqual([
      "listGuardrails 200 ?offset=0&limit=1",
      "listGuardrails 200 ?offset=0&limit=100",
    ]);
  });

  it("that repeats the first is accepted", async () => {
    plugin = await startPlugin();
    await configure(plugin.client, { apiKey: TEST_KEY, baseUrl: emu.url });
    await configure(plugin.client, { apiKey: TEST_KEY, baseUrl: emu.url });
    expect((await invoke(plugin.client, "getGuardrails", {})).ids).toEqual([id]);
  });
});
