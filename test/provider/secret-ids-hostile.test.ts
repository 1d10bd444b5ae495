/**
 * A secret id list against a server that echoes an id in another form (issue 38 attack pass):
 * upper-cased, `\u`-escaped or percent-encoded, the id never reaches a message on either face.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PartialApplyError } from "../../src/core/assignments/apply";
import { MEMBER_KIND } from "../../src/core/assignments/kind";
import { memberAssignment } from "../../src/dynamic/internal";
import { nativeSetLifecycle } from "../../src/native/sets";
import { configureProvider } from "../helpers/emulator";
import { type HostileServer, hostileServer, json } from "../helpers/hostile-server";
import { processConfig } from "../../src/core/settings/config";

const G = "11111111-1111-4111-8111-111111111111";
const SECRET = "user_secretghost91";
const uesc = (t: string) => [...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const FORMS: Record<string, string> = {
  upper: `member ${SECRET.toUpperCase()} is not in the organization`,
  escaped: `member "${uesc(SECRET)}" unknown`,
  percent: `unknown member: ${SECRET.replaceAll("_", "%5F")}`,
};
let form = "";
let srv: HostileServer;
beforeAll(async () => {
  srv = await hostileServer((req, res) => {
    if (req.method === "GET") return json(res, 200, { data: [], total_count: 0 });
    json(res, 400, { error: { code: 400, message: FORMS[form] } });
  });
});
afterAll(() => srv.close());

describe.each([
  ["dynamic", () => memberAssignment, { members: { [SECRET]: true }, __secretArgs: ["members"] }],
  [
    "native",
    () => nativeSetLifecycle(MEMBER_KIND, processConfig),
    { memberUserIds: [SECRET], members: { [SECRET]: true }, __secretArgs: ["memberUserIds"] },
  ],
] as const)("the %s face", (_face, lifecycle, args) => {
  it.each(Object.keys(FORMS))("a server echoing the id %s: no message names it", async (f) => {
    form = f;
    configureProvider(srv.url, { "guardrails:maxAttempts": "1" });
    const err = (await (lifecycle() as { create: (n: Record<string, unknown>) => Promise<unknown> })
      .create({ __provider: "p", guardrailId: G, exclusive: false, ...args })
      .catch((e: unknown) => e)) as PartialApplyError;
    expect(err.message).toMatch(/assigning 1 member\(s\) failed \(HTTP 400\)/);
    for (const text of [err.message, ...(err.reasons ?? [])]) {
      expect(text).toContain("[secret]");
      expect(text.toLowerCase()).not.toMatch(/secretghost|\\u0073\\u0065\\u0063|%5fsecret/);
    }
  });
});
