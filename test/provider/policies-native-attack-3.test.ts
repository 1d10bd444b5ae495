/**
 * Issue 40, third attack pass (see policies-native-attack.test.ts): hostile server text (ANSI,
 * C1, bidi controls, 1 MB) coming back through the native face's failures (gRPC error details)
 * and Invoke results, from a hostile server and from the emulator holding hostile values.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator } from "../helpers/emulator";
import { type HostileServer, hostileServer, json } from "../helpers/hostile-server";
import { nativeService, secret, urnOf } from "../helpers/native-service";
import { http } from "../helpers/spawn-emulator";

const BP = urnOf("BudgetPolicy");
const MP = urnOf("ModerationPolicy");
const WW = urnOf("WorkspaceWidePolicy");
/** ESC (CSI), a C1 CSI, an OSC title, a right-to-left override, a zero-width space, a bell. */
const NASTY = "\u001b[31mRED\u009b2J\u001b]0;pwned\u0007\u202eevil\u200b";
const MB = "x".repeat(1024 * 1024);

/** Whether a text holds a control character a terminal would act on (C0 but space, DEL, C1, bidi, zero-width). */
const DRIVES_TERMINAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

const emu = useProviderEmulator({}, { options: { members: ["user_alice"] } });
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);

/** A server that passes the credentials check, then answers every other request with `answer`. */
let hostile: HostileServer;
let answer: (res: ServerResponse) => void = (res) => json(res, 500, {});
beforeAll(async () => {
  hostile = await hostileServer((req, res) => {
    if (req.method === "GET" && req.url?.startsWith("/api/v1/guardrails?"))
      return json(res, 200, { data: [], total_count: 0 });
    answer(res);
  });
});
afterAll(() => hostile.close());

const budget = { workspaceId: DEFAULT_WS, name: "C", limitUsd: 5, resetInterval: "monthly" };

describe("hostile server text through the native face's failures", () => {
  it("C01 a 400 whose message holds terminal controls and 1 MB: the gRPC error is neutral and bounded", async () => {
    answer = (res) => json(res, 400, { error: { code: 400, message: `${NASTY}${MB}` } });
    const s = await nativeService(hostile.url);
    const err = (await s.create(BP, budget).catch((e: Error) => e)) as Error & { details?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.message).not.toMatch(DRIVES_TERMINAL);
    expect(err.message.length).toBeLessThan(2000);
    expect(err.message).toContain("400");
  });

  it("C02 a 500 whose body is 1 MB of HTML with controls: neutral and bounded", async () => {
    answer = (res) => {
      const body = `<html>${NASTY}${MB}</html>`;
      res.writeHead(500, { "content-type": "text/html" });
      res.end(body);
    };
    const s = await nativeService(hostile.url);
    const err = (await s.create(MP, { workspaceId: DEFAULT_WS, name: "C02" }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).not.toMatch(DRIVES_TERMINAL);
    expect(err.message.length).toBeLessThan(2000);
  });

  it("C03 an Invoke whose service answers a 403 with controls: neutral and bounded", async () => {
    answer = (res) => json(res, 403, { error: { code: 403, message: `${NASTY}${MB}` } });
    const s = await nativeService(hostile.url);
    const err = (await s.invoke("getPolicies", { workspaceId: DEFAULT_WS }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).not.toMatch(DRIVES_TERMINAL);
    expect(err.message.length).toBeLessThan(2000);
  });

  it("C04 a record whose policy id holds controls (the create's answer): refused, the error neutral", async () => {
    answer = (res) =>
      json(res, 201, {
        data: {
          id: `pol${NASTY}`,
          name: "C04",
          policy_type: "budget",
          config: { limit_usd: 5, reset_interval: "monthly" },
          workspace_id: DEFAULT_WS,
        },
      });
    const s = await nativeService(hostile.url);
    const r = await s.create(BP, { ...budget, name: "C04" }).catch((e: Error) => e);
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).not.toMatch(DRIVES_TERMINAL);
  });

  it("C05 the update's conflict error over a name and a member changed on the service with controls: neutral", async () => {
    const s = await nativeService(emu.url);
    const news = { ...budget, name: "C05", memberUserIds: ["user_alice"] };
    const c = await s.check(BP, news);
    const { id, outs } = await s.create(BP, c.inputs);
    const put = await api()("PUT", `/guardrails/policies/budget/${id}`, {
      name: `C05${NASTY}`,
      workspace_id: DEFAULT_WS,
      config: { limit_usd: 5, reset_interval: "monthly" },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const err = (await s.update(BP, id, outs, { ...news, limitUsd: 6 }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain("changed on the service");
    expect(err.message).not.toMatch(DRIVES_TERMINAL);
  });

  it("C06 an Invoke answering a policy whose name holds controls: the data comes back as held, no crash", async () => {
    const made = await api()("POST", "/guardrails/policies/moderation", {
      name: `C06${NASTY}`,
      workspace_id: DEFAULT_WS,
      config: {},
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const s = await nativeService(emu.url);
    const r = await s.invoke("getPolicies", { workspaceId: DEFAULT_WS, policyType: "moderation" });
    const names = (r.ret.policies as Array<{ name: string }>).map((p) => p.name);
    expect(names).toContain(`C06${NASTY}`);
  });

  it("C07 a check failure quoting a program's name with controls and 1 MB: neutral and bounded", async () => {
    const s = await nativeService(emu.url);
    const c = await s.check(BP, { ...budget, name: `${NASTY}${MB}` });
    expect(c.failures.length).toBeGreaterThan(0);
    const text = JSON.stringify(c.failures.map((f) => f.reason));
    expect(JSON.parse(text).join(" ")).not.toMatch(DRIVES_TERMINAL);
    expect(text.length).toBeLessThan(2000);
  });

  it("C08 a workspace-wide refresh whose list answers 1 MB of junk: a clear bounded error", async () => {
    answer = (res) => json(res, 200, { data: [{ id: 7, name: MB, policy_type: NASTY }] });
    const s = await nativeService(hostile.url);
    const err = (await s
      .read(WW, "0b9f7c52-1111-4222-8333-944455556666", {
        name: "C08",
        policyType: "budget",
        policyId: "0b9f7c52-1111-4222-8333-944455556666",
      })
      .catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).not.toMatch(DRIVES_TERMINAL);
    expect(err.message.length).toBeLessThan(2000);
  });

  it("C09 a secret name the service echoes in a PUT's 400: the update's error never quotes it", async () => {
    const PID = "0b9f7c52-1111-4222-8333-944455556666";
    const record = {
      id: PID,
      name: "Hidden-C09",
      policy_type: "budget",
      config: { limit_usd: 5, reset_interval: "monthly", include_byok_in_budgets: false },
      member_ids: [],
      api_key_hashes: [],
      opted_out_api_key_hashes: [],
      overridden_api_key_hashes: [],
      opted_out_member_ids: [],
      overridden_member_ids: [],
      is_workspace_default: false,
    };
    answer = (res) => {
      const req = (res as unknown as { req: { method: string; url: string } }).req;
      if (req.method === "POST") return json(res, 201, { data: record });
      if (req.method === "GET" && req.url.includes(PID)) return json(res, 200, { data: record });
      if (req.method === "GET") return json(res, 200, { data: [], total_count: 0 });
      json(res, 400, { error: { code: 400, message: `name "Hidden-C09" ${NASTY} is taken` } });
    };
    const s = await nativeService(hostile.url);
    const news = { ...budget, name: secret("Hidden-C09") };
    const c = await s.check(BP, news);
    const { id, outs } = await s.create(BP, c.inputs);
    expect(id).toBe(PID);
    const err = (await s.update(BP, id, outs, { ...news, limitUsd: 6 }).catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain("400");
    expect(err.message).not.toContain("Hidden-C09");
    expect(err.message).not.toMatch(DRIVES_TERMINAL);
  });
});
