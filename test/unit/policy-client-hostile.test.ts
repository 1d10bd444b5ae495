/**
 * Issue 40: `PolicyClient` against hostile answers (a recording server on port 0): oversized
 * strings, ids that are not UUIDs, missing lists and impossible counts fail cleanly with a
 * `ResponseShapeError` or `PaginationError` that never quotes the bad value; a 409 of
 * `expected_assignment` is an `AssignmentConflictError` that names the member or key only when
 * the caller allows it; bad arguments fail before any request.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  AssignmentConflictError,
  GuardrailsClient,
  PaginationError,
  ResponseShapeError,
  ServerError,
} from "../../src/core/client";
import { collect } from "../../src/core/client/pagination";
import { PolicyClient, type PolicySubject } from "../../src/core/client/policies";
import { policyConfig } from "../../src/core/fields/policy-kinds";
import { UserError } from "../../src/core/user-error";
import { type Answer, type RecordingServer, recordingServer } from "../helpers/recording-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const WS = "0df9e665-d932-4740-b2c7-b52af166bc11";
const PID = "550e8400-e29b-41d4-a716-446655440000";
const detail = {
  id: PID,
  name: "p",
  policy_type: "moderation",
  config: { content_filters: null },
  member_ids: [],
  api_key_hashes: [],
  opted_out_api_key_hashes: [],
  overridden_api_key_hashes: [],
};
const EXPECTED = { opted_out: false, policy_ids: [], workspace_default_policy_ids: [] };

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: () => Answer, maxAttempts = 1): Promise<PolicyClient> {
  server = await recordingServer(handler);
  const retry = { maxAttempts, baseDelayMs: 1, maxDelayMs: 2 };
  return new PolicyClient(new GuardrailsClient({ baseUrl: server.url, apiKey: KEY, retry }));
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

const issuesOf = (err: Error) => (err as ResponseShapeError).issues.map((i) => `${i.path.join(".")}: ${i.message}`);

describe("PolicyClient against hostile answers", () => {
  it("refuses a policy id that is not a UUID, without quoting it raw", async () => {
    const c = await serve(() => ({ status: 200, body: { data: { ...detail, id: "../../x\u001b[31m" } } }));
    const err = await failure(c.getPolicy("moderation", PID, WS));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(issuesOf(err).join("\n")).toMatch(/^data\.id: must be a UUID/);
    expect(err.message).not.toContain("\u001b");
  });

  it("refuses a detail without its member list: a missing list never reads as 'none'", async () => {
    const { member_ids: _, ...rest } = detail;
    const c = await serve(() => ({ status: 200, body: { data: rest } }));
    const err = await failure(c.getPolicy("moderation", PID, WS));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(issuesOf(err)).toEqual([expect.stringMatching(/^data\.member_ids: /)]);
  });

  it("refuses an oversized name or member id by its length, never its value", async () => {
    const huge = "A".repeat(5000);
    const c = await serve(() => ({
      status: 200,
      body: { data: { ...detail, name: huge, member_ids: ["u".repeat(2000)] } },
    }));
    const err = await failure(c.getPolicy("moderation", PID, WS));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(issuesOf(err)).toEqual([
      "data.name: must be at most 4096 characters (got 5000)",
      "data.member_ids.0: must be at most 1024 characters (got 2000)",
    ]);
    expect(err.message).not.toContain("AAAAAAAAAA");
  });

  it("refuses a legacy guardrail id or a workspace id that is not a UUID", async () => {
    const row = { ...detail, member_count: 0, api_key_count: 0, updated_at: null, legacy_guardrail_ids: ["g-1"] };
    let c = await serve(() => ({ status: 200, body: { data: [row], total_count: 1 } }));
    expect(await failure(collect(c.listPolicies("moderation", WS)))).toBeInstanceOf(ResponseShapeError);
    await server?.close();
    const ww = { id: PID, name: "w", policy_type: "budget", workspace_ids: ["not-a-uuid"] };
    c = await serve(() => ({ status: 200, body: { data: ww } }));
    const err = await failure(c.createWorkspaceWidePolicy("budget", { name: "w", config: policyConfig("budget", {}) }));
    expect(issuesOf(err)).toEqual([expect.stringMatching(/^data\.workspace_ids\.0: must be a UUID/)]);
  });

  it("stops a list whose count is past the bound at its first page", async () => {
    const c = await serve(() => ({ status: 200, body: { data: [], total_count: 10_000_000 } }));
    const err = await failure(collect(c.listPolicies("budget", WS)));
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toContain("more than the 10000 rows this list may hold");
    expect(server?.requests).toHaveLength(1);
  });

  it("reads tolerantly: unknown config settings dropped, an unknown workspace-wide policy_type kept with no config", async () => {
    const ww = { id: PID, name: "w", policy_type: "rate_limit", config: { rpm: 5 }, extra: { x: 1 } };
    const c = await serve(() => ({ status: 200, body: { data: [ww], total_count: 1 } }));
    const [row] = await collect(c.listWorkspaceWidePolicies());
    expect(row).toMatchObject({ id: PID, policy_type: "rate_limit", kind: null, config: null, workspace_ids: null });
    expect(row).not.toHaveProperty("extra");
  });

  it("reads a bad config of a known workspace-wide kind as an error naming the setting", async () => {
    const ww = { id: PID, name: "w", policy_type: "budget", config: { limit_usd: "lots" } };
    const c = await serve(() => ({ status: 200, body: { data: ww } }));
    const err = await failure(
      c.updateWorkspaceWidePolicy("budget", PID, { name: "w", config: policyConfig("budget", {}) }),
    );
    expect(issuesOf(err)).toEqual([expect.stringMatching(/^data\.config\.limit_usd: /)]);
  });
});

describe("PolicyClient: the 409 of expected_assignment (rule 25)", () => {
  const conflict = () => ({ status: 409, body: { error: { code: 409, message: "hash-secret-1 changed" } } });
  const change = { kind: "budget" as const, policyId: PID, workspaceId: WS, assigned: true, expected: EXPECTED };

  it.each([
    [{ keyHash: "hash-secret-1" }, "an API key", "key"],
    [{ memberId: "hash-secret-1" }, "a member", "member"],
  ] as [PolicySubject, string, string][])("names %o only as %s, nowhere the id", async (subject, who, is) => {
    const c = await serve(conflict);
    const err = await failure(c.changeAssignment(subject, change));
    expect(err).toBeInstanceOf(AssignmentConflictError);
    expect(err.message).toContain(`to ${who}: its assignment changed since it was read, so nothing was changed`);
    expect(err.message).toContain("/REDACTED: 409 Conflict");
    expect(`${err.message}\n${err.stack}\n${JSON.stringify(err)}`).not.toContain("hash-secret-1");
    expect((err as AssignmentConflictError).cause).toBeUndefined();
    expect(err).toMatchObject({ subject: is, policyType: "budget", policyId: PID, status: 409 });
  });

  it("names the id when the caller allows it, with the server's words and the original error as cause", async () => {
    const c = await serve(conflict);
    const err = await failure(c.changeAssignment({ keyHash: "hash-1", showId: true }, { ...change, assigned: false }));
    expect(err.message).toMatch(/removing budget policy .* from API key hash-1: its assignment changed/);
    expect(err.message).toContain("/assignments/api-keys/hash-1");
    expect((err as AssignmentConflictError).cause).toBeInstanceOf(Error);
  });

  it("keeps the hash out of any other failure's URL too (a 500 on the read)", async () => {
    const c = await serve(() => ({ status: 500, body: { error: { code: 500, message: "boom" } } }));
    const err = await failure(c.getAssignment({ keyHash: "hash-secret-1" }, "moderation", WS));
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message).toContain("/assignments/api-keys/REDACTED?workspace_id=");
    expect(err.message).not.toContain("hash-secret-1");
  });

  it("does not repeat a change whose outcome is unknown (a repeat would meet its own change as a 409)", async () => {
    const c = await serve(() => ({ status: 503, body: { error: { code: 503, message: "busy" } } }), 4);
    expect(await failure(c.changeAssignment({ memberId: "u" }, change))).toBeInstanceOf(ServerError);
    expect(server?.requests).toHaveLength(1);
  });
});

describe("PolicyClient: bad arguments fail before any request", () => {
  it("refuses one assignment list without the other (rule 24) and a path segment that would leave its place", async () => {
    const c = await serve(() => ({ status: 500 }));
    const config = policyConfig("budget", {});
    const err = await failure(c.updatePolicy("budget", PID, { name: "p", config, workspace_id: WS, member_ids: [] }));
    expect(err).toBeInstanceOf(UserError);
    expect(err.message).toContain("member_ids and api_key_hashes together or neither");
    expect((await failure(c.getPolicy("budget", "..", WS))).message).toBe(
      'a policy id must be one path segment; got ".."',
    );
    expect((await failure(c.getAssignment({ memberId: "" }, "budget", WS))).message).toContain(
      "a member id must be one",
    );
    expect(server?.requests).toHaveLength(0);
  });
});
