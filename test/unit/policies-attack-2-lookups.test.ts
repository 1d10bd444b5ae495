/**
 * Second attack on issue 40: the policy lookups (getPolicies, getPolicy, getSubjectPolicies)
 * against a recording server, and the Guardrail's drift warning about policies edited apart.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GuardrailsClient } from "../../src/core/client";
import { getPolicies, getPolicy, getSubjectPolicies } from "../../src/core/data-sources/policies";
import { driftWarning, unreadWarning } from "../../src/core/guardrail/drift-warning";
import { asSecret } from "../../src/core/markers";
import { unsyncedFacts } from "../../src/preview/unsynced";
import { type Answer, type Recorded, type RecordingServer, recordingServer } from "../helpers/recording-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const WS = "0df9e665-d932-4740-b2c7-b52af166bc11";
const PID = "550e8400-e29b-41d4-a716-446655440000";
const OTHER = "650e8400-e29b-41d4-a716-446655440000";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(handler: (r: Recorded) => Answer, pageSize = 100) {
  server = await recordingServer(handler);
  const retry = { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 };
  return new GuardrailsClient({ baseUrl: server.url, apiKey: KEY, retry, pageSize });
}
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}
const budgetConfig = { limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: false };
const detail = (over: Record<string, unknown> = {}) => ({
  id: PID,
  name: "Eng budget",
  policy_type: "budget",
  config: budgetConfig,
  member_ids: ["user_alice"],
  api_key_hashes: [],
  opted_out_member_ids: [],
  opted_out_api_key_hashes: [],
  overridden_member_ids: [],
  overridden_api_key_hashes: [],
  is_workspace_default: false,
  reference: null,
  updated_at: null,
  ...over,
});
const row = (over: Record<string, unknown> = {}) => ({ ...detail(over), member_count: 1, api_key_count: 0 });

describe("lookups: answers about another policy or workspace", () => {
  it("L01 getPolicy answered with another policy's id is refused, never returned as the one asked", async () => {
    const c = await client(() => ({ status: 200, body: { data: detail({ id: OTHER }) } }));
    const out = await getPolicy(c, { policyType: "budget", id: PID, workspaceId: WS }).then(
      (p) => p.id,
      (e: Error) => e,
    );
    expect(out).toBeInstanceOf(Error);
  });

  it("L02 getPolicy of a budget answered with a moderation policy is refused (never a budget with no limit)", async () => {
    const c = await client(() => ({ status: 200, body: { data: detail({ policy_type: "moderation", config: {} }) } }));
    const out = await getPolicy(c, { policyType: "budget", id: PID, workspaceId: WS }).then(
      (p) => p.limitUsd,
      (e: Error) => e,
    );
    expect(out).toBeInstanceOf(Error);
  });

  it("L03 getPolicies of a slug answered with another workspace's record is refused", async () => {
    const c = await client(() => ({
      status: 200,
      body: { data: { id: WS, default_guardrail_id: PID, slug: "other", name: "Other", created_at: null } },
    }));
    const err = await failure(getPolicies(c, { workspaceId: "eng" }));
    expect(err.message).toMatch(/not using it/);
  });

  it("L03b getPolicies: a row of another kind in a kind's list is not read as that kind", async () => {
    const c = await client((r) =>
      r.url.includes("/budget")
        ? { status: 200, body: { data: [row({ policy_type: "moderation", config: {} })], total_count: 1 } }
        : { status: 200, body: { data: [], total_count: 0 } },
    );
    const out = await getPolicies(c, { workspaceId: WS }).then(
      (f) => f.policies.map((p) => `${p.policyType} ${p.limitUsd}`),
      (e: Error) => e,
    );
    if (!(out instanceof Error)) expect(out).not.toContain("budget null");
  });
});

describe("lookups: bad input is refused before any call, naming the field", () => {
  it("L04 getPolicy with an empty id names id and what it takes; no call", async () => {
    const c = await client(() => ({ status: 500 }));
    const err = await failure(getPolicy(c, { policyType: "budget", id: "", workspaceId: WS }));
    expect(err.message).toMatch(/^getPolicy: id: must be a policy id \(UUID\)/);
    expect(server!.requests).toHaveLength(0);
  });
  it("L05 getPolicy with an unknown policyType names the words taken; no call", async () => {
    const c = await client(() => ({ status: 500 }));
    const err = await failure(getPolicy(c, { policyType: "rate_limit" as never, id: PID, workspaceId: WS }));
    expect(err.message).toMatch(/policyType: must be one of "budget", "modelAccess", "moderation"/);
    expect(server!.requests).toHaveLength(0);
  });
  it("L06 getSubjectPolicies with both memberId and keyHash, or neither, is refused; no call", async () => {
    const c = await client(() => ({ status: 500 }));
    const both = await failure(getSubjectPolicies(c, { memberId: "u", keyHash: "k", workspaceId: WS } as never));
    expect(both.message).toMatch(/keyHash: give memberId or keyHash, not both/);
    const none = await failure(getSubjectPolicies(c, { workspaceId: WS } as never));
    expect(none.message).toMatch(/memberId: give memberId/);
    expect(server!.requests).toHaveLength(0);
  });
  it("L07 getPolicies with a workspaceId of the wrong type or a traversal is refused; no call", async () => {
    const c = await client(() => ({ status: 500 }));
    const e1 = await failure(getPolicies(c, { workspaceId: 42 as never }));
    expect(e1.message).toMatch(/workspaceId: must be a workspace id \(UUID\) or slug/);
    const e2 = await failure(getPolicies(c, { workspaceId: ".." }));
    expect(e2.message).toMatch(/workspaceId/);
    expect(server!.requests).toHaveLength(0);
  });
  it("L08 getSubjectPolicies: a 404 for the member never quotes its id (it may be secret)", async () => {
    const c = await client(() => ({ status: 404, body: { error: { code: 404, message: "no member user_zed" } } }));
    const err = await failure(getSubjectPolicies(c, { memberId: "user_zed", workspaceId: WS }));
    expect(err.message).not.toContain("user_zed");
  });
});

describe("lookups: hostile lists", () => {
  it("L09 getPolicies over a list answering the same page for every offset: an error or no duplicates, bounded", async () => {
    const ids = [PID, OTHER];
    const c = await client(() => ({ status: 200, body: { data: ids.map((id) => row({ id })), total_count: 40 } }), 2);
    const out = await getPolicies(c, { workspaceId: WS, policyType: "budget" }).then(
      (f) => f.ids,
      (e: Error) => e,
    );
    if (!(out instanceof Error)) expect(new Set(out).size).toBe(out.length);
    expect(server!.requests.length).toBeLessThanOrEqual(25);
  });
  it("L10 getSubjectPolicies: a workspace-wide list whose total_count lies upward ends, never endless", async () => {
    const c = await client(
      (r) =>
        r.url.includes("/account")
          ? { status: 200, body: { data: [], total_count: 1_000_000 } }
          : {
              status: 200,
              body: { data: { policy_ids: [], workspace_default_policy_ids: [], opted_out: false } },
            },
      2,
    );
    await getSubjectPolicies(c, { memberId: "user_a", workspaceId: WS }).catch((e: Error) => e);
    expect(server!.requests.length).toBeLessThanOrEqual(20);
  });
  it("L11 getPolicy: a 1 MB name in the answer is refused by the bound, with a short message", async () => {
    const c = await client(() => ({ status: 200, body: { data: detail({ name: "n".repeat(1_000_000) }) } }));
    const err = await failure(getPolicy(c, { policyType: "budget", id: PID, workspaceId: WS }));
    expect(err.message.length).toBeLessThan(2000);
  });
  it("L12 getPolicy: a non-UUID id in the answer (ANSI escape) is refused, shown neutralised", async () => {
    const c = await client(() => ({ status: 200, body: { data: detail({ id: "\u001b[31mx" }) } }));
    const err = await failure(getPolicy(c, { policyType: "budget", id: PID, workspaceId: WS }));
    expect(err.message).not.toContain("\u001b");
  });
});

describe("the Guardrail's drift warning", () => {
  const u = { kind: "moderation" as const, policyId: PID, deleted: false, enforces: { contentFilterBuiltins: [] } };
  it("D01 a secret guardrail name is not in the drift warning", () => {
    expect(driftWarning("Project Nightingale", u, ["name"])).not.toContain("Nightingale");
  });
  it("D02 a secret guardrail name is not in the 'could not check' warning", () => {
    expect(
      (unreadWarning as (...a: unknown[]) => string)("Project Nightingale", new Error("503"), ["name"]),
    ).not.toContain("Nightingale");
  });
  it("D03 server text in what the policy enforces is neutralised and bounded", () => {
    const w = driftWarning("eng", {
      ...u,
      enforces: { ignoredModels: [`\u001b]8;;http://evil\u0007${"m".repeat(1_000_000)}`, "\u202egpt"] },
    });
    expect(w).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(w.length).toBeLessThan(2000);
  });
  it("D04 a secret setting's value is not shown; its name is", () => {
    const w = driftWarning("eng", { ...u, enforces: { ignoredModels: asSecret(["secret/model"]) } });
    expect(w).toContain("ignoredModels=[secret]");
    expect(w).not.toContain("secret/model");
  });
  it("D05 a deleted mapped policy says so and names the settings no longer enforced (never silent)", () => {
    const w = driftWarning("eng", { kind: "budget", policyId: null, deleted: true, enforces: null });
    expect(w).toMatch(/budget policy was deleted in Guardrail Policies.*limitUsd/);
  });
  it("D08 the PR summary: a hostile policyId and an unknown kind in state are neutralised or skipped, entries bounded", () => {
    const step = {
      urn: "urn:pulumi:dev::p::guardrails:index:Guardrail::eng",
      op: "same",
      newState: {
        outputs: {
          name: "eng",
          unsyncedPolicies: [
            { kind: "moderation", policyId: "\u001b[2J`|evil", deleted: false },
            { kind: "rate_limit", policyId: PID, deleted: false },
            ...Array.from({ length: 20 }, () => ({ kind: "budget", policyId: PID, deleted: false })),
          ],
        },
      },
    };
    const lines = unsyncedFacts([step as never]);
    expect(lines.join("\n")).not.toContain("\u001b");
    expect(lines.join("\n")).not.toContain("rate_limit");
    expect(lines.length).toBeLessThanOrEqual(6);
  });
  it("D09 the PR summary: a secret guardrail name in state is not shown", () => {
    const step = {
      urn: "urn:pulumi:dev::p::guardrails:index:Guardrail::eng",
      op: "same",
      newState: {
        outputs: {
          name: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value: "Nightingale" },
          unsyncedPolicies: [{ kind: "moderation", policyId: PID, deleted: false }],
        },
      },
    };
    const lines = unsyncedFacts([step as never]);
    expect(lines).toHaveLength(1);
    expect(lines.join("\n")).not.toContain("Nightingale");
  });
});
