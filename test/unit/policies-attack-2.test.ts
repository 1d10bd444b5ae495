/**
 * Second attack on issue 40: WorkspaceWidePolicy's core lifecycle against a recording server
 * that answers as badly as each test asks. Each test states the product's bar; the ones that
 * broke at first are named in the branch's history (commit "failing tests").
 */
import { afterEach, describe, expect, it } from "vitest";
import { ProviderConfig } from "../../src/core/settings/config";
import { check } from "../../src/core/policies/workspace-wide-inputs";
import { workspaceWideLifecycle } from "../../src/core/policies/workspace-wide-lifecycle";
import { isSecretEnvelope } from "../../src/core/markers";
import { type Answer, type Recorded, type RecordingServer, recordingServer } from "../helpers/recording-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const WS = "0df9e665-d932-4740-b2c7-b52af166bc11";
const WS2 = "1df9e665-d932-4740-b2c7-b52af166bc11";
const PID = "550e8400-e29b-41d4-a716-446655440000";
const OTHER = "650e8400-e29b-41d4-a716-446655440000";
const ACCOUNT = "/api/v1/guardrails/policies/account";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const budgetConfig = { limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: false };
const record = (over: Record<string, unknown> = {}) => ({
  id: PID,
  name: "Org budget",
  policy_type: "budget",
  config: budgetConfig,
  workspace_ids: [WS],
  opted_out_workspace_ids: [],
  workspace_count: 1,
  is_default: false,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  ...over,
});
const news = { name: "Org budget", policyType: "budget", limitUsd: 50, resetInterval: "monthly", workspaceIds: [WS] };
const page = (rows: unknown[]) => ({ status: 200, body: { data: rows, total_count: rows.length } });

async function serve(handler: (r: Recorded) => Answer) {
  server = await recordingServer(handler);
  const conn = new ProviderConfig();
  const url = server.url;
  conn.configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": url, "guardrails:maxAttempts": "2" })[k]);
  return workspaceWideLifecycle(conn);
}
const sent = () => (server?.requests ?? []).map((r) => `${r.method} ${r.url.split("?")[0]}`);

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

function unseal(v: unknown): unknown {
  if (isSecretEnvelope(v)) return unseal((v as { value: unknown }).value);
  if (Array.isArray(v)) return v.map(unseal);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unseal(x)]));
  return v;
}

/** The state after a clean create. */
async function created(extra: Record<string, unknown> = {}) {
  const lc = await serve((r) =>
    r.method === "POST"
      ? { status: 201, body: { data: record({ name: (r.body as { name: string }).name }) } }
      : page([record()]),
  );
  const c = await lc.create({ ...news, ...extra });
  await server?.close();
  server = undefined;
  return { id: c.id, sealed: c.properties, props: unseal(c.properties) as Record<string, unknown> };
}

describe("WorkspaceWidePolicy: answers about another policy", () => {
  it("W03 a PUT answered with another policy's id is refused, never stored as this one", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.method === "PUT" ? { status: 200, body: { data: record({ id: OTHER, name: "New" }) } } : page([record()]),
    );
    const out = await lc.update(c.id, c.props as never, { ...news, name: "New" }).then(
      (u) => (u.properties as Record<string, unknown>).policyId,
      (e: Error) => e,
    );
    expect(out).toBeInstanceOf(Error);
    expect((out as Error).message).toMatch(/answered with/);
  });

  it("W04 a PUT of a budget answered with a moderation policy is refused (never 'the limit was removed')", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.method === "PUT"
        ? { status: 200, body: { data: record({ policy_type: "moderation", config: {}, name: "New" }) } }
        : page([record()]),
    );
    const err = await failure(lc.update(c.id, c.props as never, { ...news, name: "New" }));
    expect(err.message).toMatch(/moderation/);
  });

  it("W05 a POST of a budget answered with a moderation policy is refused, not recorded as policyType moderation", async () => {
    const lc = await serve(() => ({ status: 201, body: { data: record({ policy_type: "moderation", config: {} }) } }));
    const err = await failure(lc.create(news));
    expect(err.message).toMatch(/moderation/);
  });

  it("W06 a refresh that finds the id now of another kind reports that kind, so the preview replaces (never a silent budget with no limit)", async () => {
    const c = await created();
    const lc = await serve(() => page([record({ policy_type: "moderation", config: {} })]));
    const r = await lc.read(c.id, c.props);
    expect((r!.properties as Record<string, unknown>).policyType).toBe("moderation");
    const d = await lc.diff(c.id, unseal(r?.properties) as never, news);
    expect(d.changes).toEqual([{ path: "policyType", kind: "replace" }]);
  });

  it("W13 an update that finds the id now of another kind writes nothing and names policyType", async () => {
    const c = await created();
    const lc = await serve(() => page([record({ policy_type: "moderation", config: {} })]));
    const err = await failure(lc.update(c.id, c.props as never, { ...news, name: "New" }));
    expect(err.message).toMatch(/policyType/);
    expect(sent().filter((s) => s.startsWith("PUT"))).toEqual([]);
  });

  it("W15 an import by the id in capitals finds the policy the service lists in lower case", async () => {
    const lc = await serve(() => page([record()]));
    const r = await lc.read(PID.toUpperCase(), {});
    expect((r!.properties as Record<string, unknown>).policyId).toBe(PID);
  });

  it("W14 a recorded policy the service now lists with an unknown policy_type: a clear error, and delete still works", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.method === "DELETE" ? { status: 200, body: { data: true } } : page([record({ policy_type: "rate_limit" })]),
    );
    const err = await failure(lc.read(c.id, c.props));
    expect(err.message).toMatch(/"rate_limit" policy, a policy_type this package does not manage/);
    await lc.delete(c.id, c.props);
    expect(sent()).toContain(`DELETE ${ACCOUNT}/${PID}`);
  });
});

describe("WorkspaceWidePolicy: server text in messages", () => {
  it("W07 the 'changed since' error never shows a server name raw (bidi override, C1 CSI) nor unbounded", async () => {
    const c = await created();
    const name = `\u202eevil\u009b31m${"x".repeat(4000)}`;
    const lc = await serve(() => page([record({ name })]));
    const err = await failure(lc.update(c.id, c.props as never, { ...news, limitUsd: 60 }));
    expect(err.message).toMatch(/changed on the service since the last refresh/);
    expect(err.message).not.toContain("\u202e");
    expect(err.message).not.toContain("\u009b");
    expect(err.message.length).toBeLessThan(1500);
  });

  it("W16 a list that answers the same page for every offset: an error or no duplicates, bounded", async () => {
    const rows = Array.from({ length: 2 }, (_, i) => record({ id: `550e8400-e29b-41d4-a716-44665544000${i}` }));
    server = await recordingServer(() => ({ status: 200, body: { data: rows, total_count: 500 } }));
    const conn = new ProviderConfig();
    const url = server.url;
    conn.configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": url, "guardrails:maxAttempts": "1" })[k]);
    const out = await workspaceWideLifecycle(conn)
      .read(PID, {})
      .then(
        () => "read",
        (e: Error) => e.message,
      );
    expect(server.requests.length).toBeLessThanOrEqual(10);
    expect(out).not.toContain("\u001b");
  });

  it("W17 a list row with a 1 MB name: an error naming the bound, never a 1 MB message", async () => {
    const lc = await serve(() => page([record({ name: "n".repeat(1_000_000) })]));
    const err = await failure(lc.read(PID, {}));
    expect(err.message.length).toBeLessThan(2000);
  });
});

describe("WorkspaceWidePolicy: secrets", () => {
  it("W08 a secret name appears in no failure: not in the update's label", async () => {
    const c = await created({ name: "Project Nightingale", __secretArgs: ["name"] });
    const lc = await serve(() => ({ status: 500, body: { error: { code: 500, message: "boom" } } }));
    const err = await failure(
      lc.update(c.id, c.props as never, { ...news, name: "Project Nightingale", __secretArgs: ["name"] }),
    );
    expect(err.message).not.toContain("Nightingale");
  });

  it("W08b a secret name appears in no create failure", async () => {
    const lc = await serve(() => ({ status: 400, body: { error: { code: 400, message: "bad" } } }));
    const err = await failure(lc.create({ ...news, name: "Project Nightingale", __secretArgs: ["name"] }));
    expect(err.message).not.toContain("Nightingale");
    expect(err.message).toMatch(/^workspace-wide policy \[secret\]/);
  });

  it("W08c a secret name appears in no delete failure", async () => {
    const c = await created({ name: "Project Nightingale", __secretArgs: ["name"] });
    const lc = await serve(() => ({ status: 500, body: { error: { code: 500, message: "boom" } } }));
    const err = await failure(lc.delete(c.id, c.props));
    expect(err.message).not.toContain("Nightingale");
  });

  it("W09 a secret workspace id echoed by the service's 400 is not in the error", async () => {
    const lc = await serve(() => ({
      status: 400,
      body: { error: { code: 400, message: `workspace_ids[0]: unknown workspace ${WS2}` } },
    }));
    const err = await failure(lc.create({ ...news, workspaceIds: [WS2], __secretArgs: ["workspaceIds"] }));
    expect(err.message).not.toContain(WS2);
  });

  it("W10 a coverage list made secret with the same ids is a change, so its plain copies are sealed", async () => {
    const c = await created();
    const lc = await serve(() => page([record()]));
    const d = await lc.diff(c.id, c.props as never, { ...news, __secretArgs: ["workspaceIds"] });
    expect(d.changes).toEqual([{ path: "workspaceIds", kind: "update" }]);
    const u = await lc.update(c.id, c.props as never, { ...news, __secretArgs: ["workspaceIds"] });
    const p = u.properties as Record<string, unknown>;
    expect(isSecretEnvelope(p.workspaceIds)).toBe(true);
    expect(isSecretEnvelope((p.args as Record<string, unknown>).workspaceIds)).toBe(true);
  });

  it("W24 a secret coverage list's out-of-band change is told by counts only", async () => {
    const c = await created({ __secretArgs: ["workspaceIds"] });
    const lc = await serve(() => page([record({ workspace_ids: [WS, WS2] })]));
    const err = await failure(
      lc.update(c.id, c.props as never, { ...news, limitUsd: 70, __secretArgs: ["workspaceIds"] }),
    );
    expect(err.message).toContain("workspaceIds (1 added, 0 removed)");
    expect(err.message).not.toContain(WS2);
  });

  it("W25 a secret name changed out of band: the drift error says 'name' only", async () => {
    const c = await created({ name: "Project Nightingale", __secretArgs: ["name"] });
    const lc = await serve(() => page([record({ name: "Project Kestrel" })]));
    const err = await failure(
      lc.update(c.id, c.props as never, { ...news, name: "Project Nightingale", limitUsd: 70, __secretArgs: ["name"] }),
    );
    expect(err.message).not.toContain("Kestrel");
    expect(err.message).not.toContain("Nightingale");
  });
});

describe("WorkspaceWidePolicy: faults and out-of-band changes", () => {
  it("W02 a 404 on DELETE while the list still holds the id is not believed as gone", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.method === "DELETE" ? { status: 404, body: { error: { code: 404, message: "Not Found" } } } : page([record()]),
    );
    await failure(lc.delete(c.id, c.props));
  });

  it("W12 coverage edited out of band fails the update naming the workspace; nothing written", async () => {
    const c = await created();
    const lc = await serve(() => page([record({ workspace_ids: [WS, WS2] })]));
    const err = await failure(lc.update(c.id, c.props as never, { ...news, limitUsd: 70 }));
    expect(err.message).toContain(`workspaceIds (added "${WS2}")`);
    expect(sent().filter((s) => !s.startsWith("GET"))).toEqual([]);
  });

  it("W22 a 409 on the PUT is a clear error", async () => {
    const c = await created();
    const lc = await serve((r) =>
      r.method === "PUT" ? { status: 409, body: { error: { code: 409, message: "conflict" } } } : page([record()]),
    );
    const err = await failure(lc.update(c.id, c.props as never, { ...news, limitUsd: 70 }));
    expect(err.message).toMatch(/409/);
  });

  it("W26 an update of a policy the list no longer holds writes nothing and says how out", async () => {
    const c = await created();
    const lc = await serve(() => page([]));
    const err = await failure(lc.update(c.id, c.props as never, { ...news, limitUsd: 70 }));
    expect(err.message).toMatch(/no longer lists it/);
    expect(sent().filter((s) => !s.startsWith("GET"))).toEqual([]);
  });

  it("W27 a write's answer without coverage keeps what was sent (no false drift at the next update)", async () => {
    const lc = await serve(() => ({
      status: 201,
      body: { data: { id: PID, name: "Org budget", policy_type: "budget", config: budgetConfig } },
    }));
    const c = await lc.create(news);
    expect((c.properties as Record<string, unknown>).workspaceIds).toEqual([WS]);
  });

  it("W28 a 404 on refresh from a wrong base URL (every path 404) is not a silent 'gone'", async () => {
    const c = await created();
    const lc = await serve(() => ({ status: 404, body: { error: { code: 404, message: "Not Found" } } }));
    const out = await lc.read(c.id, c.props).then(
      (r) => r,
      (e: Error) => e,
    );
    expect(out).toBeInstanceOf(Error);
  });
});

describe("WorkspaceWidePolicy: a create whose answer is lost", () => {
  /** A service that commits each POST, answers the first with 503, and lists what it holds. */
  // Claims are per process: each test's service makes ids of its own.
  let made = 0;
  async function committing(preexisting: unknown[] = []) {
    const held: unknown[] = [...preexisting];
    let posts = 0;
    made += 10;
    const base = made;
    return serve((r) => {
      if (r.method === "POST") {
        posts += 1;
        const body = r.body as Record<string, unknown>;
        const id = `550e8400-e29b-41d4-a716-4466554400${String(base + posts).padStart(2, "0")}`;
        held.push(record({ ...body, id }));
        return posts === 1
          ? { status: 503, body: { error: { code: 503, message: "upstream reset" } } }
          : { status: 201, body: { data: held.at(-1) } };
      }
      return page(held);
    });
  }

  it("W01 a POST that committed then answered 503: one policy, adopted, no second POST", async () => {
    const lc = await committing();
    const c = await lc.create(news).catch((e: Error) => e);
    expect(sent().filter((s) => s.startsWith("POST"))).toHaveLength(1);
    expect(c).not.toBeInstanceOf(Error);
    expect((c as { id: string }).id).toBe("550e8400-e29b-41d4-a716-446655440011");
  });

  it("W01b an older policy with the same name and settings is not adopted (made before this create)", async () => {
    const old = record({ id: OTHER, created_at: "2020-01-01T00:00:00Z", updated_at: "2020-01-01T00:00:00Z" });
    const lc = await committing([old]);
    const c = await lc.create(news).catch((e: Error) => e);
    expect(c).not.toBeInstanceOf(Error);
    expect((c as { id: string }).id).toBe("550e8400-e29b-41d4-a716-446655440021");
  });
});

describe("WorkspaceWidePolicy: check", () => {
  const failures = (n: Record<string, unknown>) => check(n).failures.map((f) => `${f.property}: ${f.reason}`);
  it("W18 another kind's setting is refused naming the field and the kind", () => {
    expect(failures({ ...news, contentFilterBuiltins: [] }).join("\n")).toMatch(
      /contentFilterBuiltins: is a setting of a "moderation" policy/,
    );
  });
  it("W19 a slug in workspaceIds is refused naming the index and value", () => {
    expect(failures({ ...news, workspaceIds: ["eng"] }).join("\n")).toMatch(/workspaceIds\[0\].*UUID/);
  });
  it("W20 allWorkspaces with workspaceIds is refused", () => {
    expect(failures({ ...news, allWorkspaces: true }).join("\n")).toMatch(
      /workspaceIds: is not used when allWorkspaces/,
    );
  });
  it("W21 an unknown policyType is refused naming the words taken", () => {
    expect(failures({ ...news, policyType: "rate_limit" }).join("\n")).toMatch(/policyType.*"budget", "modelAccess"/);
  });
});
