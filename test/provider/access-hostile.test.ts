/**
 * Issue 41 attack pass: the effective-access lookups and `guardrails-access who` against a
 * hostile server, a proxy in front of the emulator that answers one route wrongly: a policy's
 * detail answering another policy, a list answering another kind, an error that echoes the
 * member id asked about. None may claim more access than the emulator enforces, and none may
 * name the subject in a message.
 */
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceSource, whoCanReach } from "../../src/access";
import { PolicyClient } from "../../src/core/client/policies";
import { effectiveAccessAnswer } from "../../src/core/data-sources/access-answer";
import { policyConfig } from "../../src/core/fields/policy-kinds";
import { comparable, connectionOf, enforced, id as layer, K0, setUpLayers } from "../helpers/access-layers";
import { DEFAULT_WS, type TestEmulator, withEmulator } from "../helpers/emulator";
import { type HostileServer, hostileServer, json } from "../helpers/hostile-server";

let emu: TestEmulator;
let proxy: HostileServer;
/** What the proxy does to a request: a path to read instead, or an answer of its own. */
type Tamper = { path?: string; edit?: (body: { data: unknown }) => unknown } | { status: number; body: unknown };
let tamper: (path: string) => Tamper | undefined = () => undefined;
const ids: Record<string, string> = {};
const MA = "/api/v1/guardrails/policies/model-availability";

beforeAll(async () => {
  emu = await withEmulator();
  await setUpLayers(emu);
  const pc = new PolicyClient(emu.client());
  const ma = (name: string, member: string) =>
    pc.createPolicy("modelAvailability", {
      name,
      config: policyConfig("modelAvailability", { ignoredProviders: ["vendor-b"] }),
      workspace_id: DEFAULT_WS,
      member_ids: [member],
      api_key_hashes: [],
    });
  ids.strict = (await ma("no vendor-b for dave", "user_dave")).id;
  ids.other = (await ma("no vendor-b for erin", "user_erin")).id;
  await pc.createPolicy("modelAvailability", {
    name: "no vendor-c by default",
    config: policyConfig("modelAvailability", { ignoredProviders: ["vendor-c"] }),
    workspace_id: DEFAULT_WS,
    member_ids: [],
    api_key_hashes: [],
    is_workspace_default: true,
  });
  proxy = await hostileServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const t = tamper(url.pathname);
    if (t && "status" in t) return json(res, t.status, t.body);
    const target = `${emu.url}${t?.path ?? url.pathname}${url.search}`;
    void fetch(target, { headers: { authorization: String(req.headers.authorization) } }).then(async (r) => {
      const body = (await r.json()) as { data: unknown };
      json(res, r.status, r.ok && t?.edit ? t.edit(body) : body);
    });
  });
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
});
const conn = () => connectionOf(emu.client({ baseUrl: proxy.url, retry: { maxAttempts: 1 } }));

describe("a policy answered as another", () => {
  it("who: a detail answering another policy's id is refused, not read as the one asked", async () => {
    tamper = (p) => (p === `${MA}/${ids.strict}` ? { path: `${MA}/${ids.other}` } : undefined);
    const err = await whoCanReach(serviceSource(conn()), { provider: "vendor-b" }, DEFAULT_WS).catch((e) => e);
    // Read as the one asked, dave drops off his policy and "can reach" vendor-b, which the emulator denies.
    expect(err).toBeInstanceOf(Error);
    expect(String(err.message)).toMatch(/another policy/);
  });

  it("who: a kind's list answering another kind's rows is refused", async () => {
    tamper = (p) =>
      p === "/api/v1/guardrails/policies/moderation" ? { path: "/api/v1/guardrails/policies/budget" } : undefined;
    const err = await whoCanReach(serviceSource(conn()), { provider: "vendor-b" }, DEFAULT_WS).catch((e) => e);
    expect(String(err.message)).toMatch(/another policy/);
  });
});

describe("a list row that leaves out what is optional", () => {
  it("who: a default policy whose row does not say is_workspace_default still reaches everyone", async () => {
    const unsaid = (body: { data: unknown }) => ({
      ...body,
      data: (body.data as object[]).map(
        ({ is_workspace_default: _, ...row }: { is_workspace_default?: unknown }) => row,
      ),
    });
    tamper = (p) => (p === MA ? { edit: unsaid } : undefined);
    const answer = await whoCanReach(serviceSource(conn()), { provider: "vendor-c" }, DEFAULT_WS);
    // The emulator denies vendor-c to every member the default reaches: carol, say.
    expect(comparable(await enforced(emu, "member=user_carol")).ignoredProviders).toContain("vendor-c");
    expect(answer.members.find((m) => m.id === null)!.allowed).toBe(false);
    for (const m of answer.members.filter((r) => r.id !== null)) {
      const e = comparable(await enforced(emu, `member=${m.id}`));
      const [allowed, ignored] = [e.allowedProviders as string[] | null, e.ignoredProviders as string[]];
      const allows = (allowed?.includes("vendor-c") ?? true) && !ignored.includes("vendor-c");
      expect([m.id, m.allowed], "agrees with the emulator").toEqual([m.id, allows]);
    }
  });
});

describe("an error that echoes the subject", () => {
  const SECRET = "user_dave";
  it.each([
    ["a 500", 500],
    ["a 400", 400],
    ["a 403", 403],
  ])("%s on its assignment read names no member id, in the message or inspect(err)", async (_w, status) => {
    tamper = (p) =>
      p.startsWith("/api/v1/guardrails/policies/assignments/members/")
        ? { status, body: { error: { code: status, message: `member ${SECRET.toUpperCase()} broke` } } }
        : undefined;
    const err = await effectiveAccessAnswer(conn(), { memberId: SECRET, workspaceId: DEFAULT_WS }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    for (const text of [err.message, inspect(err, { depth: 5 })]) expect(text.toLowerCase()).not.toContain(SECRET);
  });
});

describe("explain's reads", () => {
  it("a kind's list answering another kind's rows is refused, not read with the wrong fields", async () => {
    tamper = (p) =>
      p === "/api/v1/guardrails/policies/moderation" ? { path: "/api/v1/guardrails/policies/budget" } : undefined;
    const err = await effectiveAccessAnswer(conn(), { memberId: "user_bob", workspaceId: DEFAULT_WS }).catch((e) => e);
    expect(String(err.message)).toMatch(/another policy/);
  });
});

describe("an org-wide listing that contradicts the contract", () => {
  /** The listing of `path` with a copy of its row for `subject` on `guardrail` too. */
  const twice = (path: string, field: string, subject: string, guardrail: string) => (p: string) =>
    p === path
      ? {
          edit: (body: { data: unknown }) => {
            const rows = body.data as Array<Record<string, unknown>>;
            const row = rows.find((r) => r[field] === subject)!;
            const copy = { ...row, id: "00000000-0000-4000-8000-00000000abcd", guardrail_id: guardrail };
            return { ...body, data: [...rows, copy], total_count: rows.length + 1 };
          },
        }
      : undefined;

  it("a member listed on two guardrails of one workspace is refused, naming both, never the member", async () => {
    // Rule 5: one guardrail per workspace. Read the first way, alice's Eng (vendor-a only) or
    // Keys (no provider rule) would be a guess at what the service enforces.
    tamper = twice("/api/v1/guardrails/assignments/members", "user_id", "user_alice", layer.keys!);
    for (const run of [
      () => effectiveAccessAnswer(conn(), { memberId: "user_alice", workspaceId: DEFAULT_WS }),
      () => whoCanReach(serviceSource(conn()), { provider: "vendor-b" }, DEFAULT_WS),
    ]) {
      const err = await run().catch((e) => e);
      expect(err).toBeInstanceOf(Error);
      expect(err.message).toMatch(/on 2 guardrails of this workspace/);
      expect(err.message).toContain(layer.eng!);
      expect(err.message).toContain(layer.keys!);
      expect(err.message).not.toContain("user_alice");
    }
  });

  it("a key listed on two guardrails is refused", async () => {
    tamper = twice("/api/v1/guardrails/assignments/keys", "key_hash", K0, layer.eng!);
    const err = await effectiveAccessAnswer(conn(), {
      keyHash: K0,
      ownerMemberId: "user_alice",
      workspaceId: DEFAULT_WS,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/on 2 guardrails/);
    expect(err.message).not.toContain(K0);
  });
});
