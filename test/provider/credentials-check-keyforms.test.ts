/**
 * The native plugin's credentials check against a 401 that echoes the key in a form the first
 * fix of issue 38 missed (attack pass): the check's error names the setting, never the key.
 * Needs dist (the built plugin).
 */
import type * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { type HostileServer, hostileServer, json } from "../helpers/hostile-server";
import { configure, invoke, type RunningPlugin, startPlugin } from "../helpers/native-plugin";

const KEY = `sk-or-v1-${"9f3c1a7e5b2d84c06e1f9a3b7c5d2e8f".repeat(2)}`;
const uesc = (k: string) => [...k].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
let plugin: RunningPlugin | undefined;
let srv: HostileServer | undefined;
afterEach(async () => {
  plugin?.stop();
  await srv?.close();
});

describe("native credentials check: a 401 echoing the key", () => {
  it.each([
    ["JSON \\u escapes", (k: string) => `bad authorization header "Bearer ${uesc(k)}"`],
    ["the key missing its last character", (k: string) => `invalid key ${k.slice(0, -1)}`],
    ["base64 of base64", (k: string) => Buffer.from(Buffer.from(`Bearer ${k}`).toString("base64")).toString("base64")],
    ["hex bytes", (k: string) => `token bytes ${Buffer.from(k).toString("hex")}`],
  ] as const)(
    "%s: the error names guardrails:apiKey, never the key",
    async (_form, form) => {
      srv = await hostileServer((req, res) => {
        const k = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
        json(res, 401, { error: { code: 401, message: form(k) } });
      });
      plugin = await startPlugin();
      await configure(plugin.client, { apiKey: KEY, baseUrl: srv.url });
      // The first data source proves the key and URL first (Configure only arms the check).
      const err = (await invoke(plugin.client, "getGuardrails", {}).then(
        () => undefined,
        (e: unknown) => e,
      )) as grpc.ServiceError | undefined;
      expect(err?.details).toContain("guardrails:apiKey");
      for (const piece of [KEY.slice(9, 30), form(KEY).slice(12, 50)]) expect(err?.details).not.toContain(piece);
    },
    30_000,
  );
});
