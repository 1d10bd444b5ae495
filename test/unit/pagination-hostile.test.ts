/**
 * Paged reads against the hostile servers of issue 38's attack pass (/tmp/attack/paging-*.mjs),
 * over real HTTP on port 0: a read sees every row of the list or fails loudly, never a partial
 * list, and a list's rows cannot grow the heap without bound.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { GuardrailsClient, PaginationError, ResponseShapeError } from "../../src/core/client";
import { Budget } from "../../src/core/client/budget";
import { pagesFor } from "../../src/core/client/page-walk";
import { collect } from "../../src/core/client/pagination";
import { wireGuardrail, wireKeyAssignment, wireMemberAssignment, wireWorkspace } from "../../src/core/client/wire";
import { hostileServer, json, type HostileServer } from "../helpers/hostile-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const GID = "11111111-1111-4111-8111-111111111111";
const N = 300;
let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const client = (url: string, extra: Partial<ConstructorParameters<typeof GuardrailsClient>[0]> = {}) =>
  new GuardrailsClient({
    baseUrl: url,
    apiKey: KEY,
    retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 2 },
    ...extra,
  });

const member = (i: number, pad = "") => ({
  id: `a${i}`,
  user_id: `user_${String(i).padStart(3, "0")}${pad}`,
  organization_id: "org",
  guardrail_id: GID,
  assigned_by: null,
  created_at: "2026-01-01T00:00:00Z",
});
const KEY_ROW = {
  id: "k1",
  key_hash: "hash",
  guardrail_id: GID,
  key_name: "ci",
  key_label: "sk-…abc",
  assigned_by: null,
  created_at: "2026-01-01T00:00:00Z",
};
const GUARDRAIL = { id: GID, name: "g", created_at: "2026-01-01T00:00:00Z" };
const WORKSPACE = { id: GID, default_guardrail_id: GID, slug: "default" };
const ROWS = Array.from({ length: N }, (_, i) => member(i));

const query = (url: string) => {
  const q = new URL(url, "http://x").searchParams;
  return { offset: Number(q.get("offset")), limit: Number(q.get("limit")) };
};

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

// paging-swap.mjs: rows with equal created_at in no stable order. total_count never changes and
// the rows pages share stay equal, but rows 50 and 250 trade places after page 0: the read
// returned 299 of 300 rows with no error, user_250 missing (read as a member gone).
describe("an equal-count swap that keeps the shared rows (paging-swap.mjs)", () => {
  it.each([1, 4, 8])("at concurrency %i: a swap on every walk fails loudly, with counts and no id", async (n) => {
    server = await hostileServer((req, res) => {
      const { offset, limit } = query(req.url!);
      const view = ROWS.slice();
      if (offset !== 0) [view[50], view[250]] = [view[250]!, view[50]!];
      json(res, 200, { data: view.slice(offset, offset + limit), total_count: N });
    });
    const yielded: unknown[] = [];
    const err = await failure(
      (async () => {
        for await (const row of client(server.url, { budget: new Budget(n) }).listMemberAssignments(GID))
          yielded.push(row);
      })(),
    );
    expect(yielded).toEqual([]);
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toBe(
      `GET ${server.url}/api/v1/guardrails/${GID}/assignments/members: paging stopped: the list changed while it was read (the page at offset 198 held 1 row(s) already read on another page: rows moved between pages) on 3 reads in a row; stopping rather than miss rows that moved between pages`,
    );
    expect(inspect(err)).not.toMatch(/user_\d/);
    // Three walks, each stopped at the page at offset 198 (at most the 4 pages of a whole walk).
    expect(pagesFor(N, 100)).toBe(4);
    expect(server.requests.length).toBeGreaterThanOrEqual(3 * 3);
    expect(server.requests.length).toBeLessThanOrEqual(3 * pagesFor(N, 100));
  });

  it.each([1, 4, 8])("at concurrency %i: a swap that lasts is read whole by the next walk", async (n) => {
    const view = ROWS.slice();
    server = await hostileServer((req, res) => {
      const { offset, limit } = query(req.url!);
      json(res, 200, { data: view.slice(offset, offset + limit), total_count: N });
      if (offset === 0 && view[50] === ROWS[50]) [view[50], view[250]] = [view[250]!, view[50]!];
    });
    const rows = await collect(client(server.url, { budget: new Budget(n) }).listMemberAssignments(GID));
    expect(rows.map((r) => r.user_id).sort()).toEqual(ROWS.map((r) => r.user_id));
    // The first walk stops at the page at offset 198, the second reads all 4.
    expect(server.requests.length).toBeGreaterThanOrEqual(3 + 4);
    expect(server.requests.length).toBeLessThanOrEqual(4 + 4);
  });
});

// paging-cap.mjs: a server that serves at most 50 rows a page though 100 are asked for, over
// stable data. Every page is short, which the contract allows (removed rows), so no boundary
// could be checked and two walks agreed: 153 of 300 rows, no error.
describe("a server that serves fewer rows than asked for (paging-cap.mjs)", () => {
  const capped = (cap: number) =>
    hostileServer((req, res) => {
      const { offset, limit } = query(req.url!);
      json(res, 200, { data: ROWS.slice(offset, offset + Math.min(cap, limit)), total_count: N });
    });

  it("caps of 50: the read fails saying rows were left out, not with half the list", async () => {
    server = await capped(50);
    const err = await failure(collect(client(server.url).listMemberAssignments(GID)));
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toBe(
      `GET ${server.url}/api/v1/guardrails/${GID}/assignments/members: paging stopped: the list changed while it was read (the page at offset 0 showed 50 of the 100 rows of its window, and a second read of the rest of that window found 50 row(s) it had left out: a server that serves fewer rows than asked for) on 3 reads in a row; stopping rather than miss rows that moved between pages`,
    );
    // Each walk: its 4 pages and the one probe that finds the rows left out, at most 4 more in flight.
    expect(server.requests.length).toBeLessThanOrEqual(3 * (4 + 4));
  });

  it("a page size at or under the cap reads every row", async () => {
    server = await capped(50);
    const rows = await collect(client(server.url, { pageSize: 50 }).listMemberAssignments(GID));
    expect(rows).toHaveLength(N);
  });
});

// paging-fat-server.mjs: total_count 100,000 inside the bound, the shared rows kept, every
// user_id 50 KB (pages ~5 MB, under the 8 MiB cap of one response): the heap reached 4.4 GB in
// 16 s. The server here answers 500 after 30 requests, so an unbounded read fails fast too.
describe("rows too large for what they are (paging-fat-server.mjs)", () => {
  const fat = (pad: (field: string) => string, cutOff = 30) =>
    hostileServer((req, res, n) => {
      if (n > cutOff) return json(res, 500, { error: { code: 500, message: "the test's cut-off" } });
      const { offset, limit } = query(req.url!);
      const rows = Array.from({ length: Math.min(limit, 100_000 - offset) }, (_, i) => ({
        id: `a${offset + i}${pad("id")}`,
        user_id: `u${offset + i}${pad("user_id")}`,
        organization_id: `o${pad("organization_id")}`,
        guardrail_id: GID,
        assigned_by: `b${pad("assigned_by")}`,
        created_at: "2026-01-01T00:00:00Z",
      }));
      json(res, 200, { data: rows, total_count: 100_000 });
    });

  it("a 50 KB user_id is refused on the first page, naming the field and not the value", async () => {
    server = await fat((f) => (f === "user_id" ? "x".repeat(50_000) : ""));
    const err = await failure(collect(client(server.url).listMemberAssignments(GID)));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/guardrails\/[^:]+\/assignments\/members\?offset=0&limit=100: unexpected response shape \(data\.0\.user_id: must be at most 1024 characters \(got 50002\); data\.1\.user_id: /,
    );
    expect(err.message).not.toContain("xxxx");
    expect(server.requests).toHaveLength(1);
  });

  it("rows each within their bounds, but a list past the client's byte budget: stopped, naming the server", async () => {
    // Four fields of 1,000 characters: ~400 KB a page, so a 2 MiB budget is spent by the 6th page.
    server = await fat((f) => (f === "guardrail_id" ? "" : "y".repeat(1_000)));
    const err = await failure(
      collect(client(server.url, { maxListBytes: 2 * 1024 * 1024 }).listMemberAssignments(GID)),
    );
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/guardrails\/[^:]+\/assignments\/members: paging stopped: the pages read came to \d+ bytes by the page at offset \d+, past the 2097152 bytes one list may take; stopping rather than grow without bound \(raise the client's maxListBytes if the list is right\)$/,
    );
    // 6 pages spend the budget; at most 2 × 4 were asked for ahead of the one that stopped it.
    expect(server.requests.length).toBeLessThanOrEqual(6 + 8);
  });
});

describe("the wire schemas bound every string a row or record carries", () => {
  const long = (n: number) => "z".repeat(n);
  it.each([
    ["member id", wireMemberAssignment, { ...member(1), id: long(1025) }, "id", 1024],
    ["user_id", wireMemberAssignment, { ...member(1), user_id: long(1025) }, "user_id", 1024],
    ["organization_id", wireMemberAssignment, { ...member(1), organization_id: long(1025) }, "organization_id", 1024],
    ["assigned_by", wireMemberAssignment, { ...member(1), assigned_by: long(1025) }, "assigned_by", 1024],
    ["created_at", wireMemberAssignment, { ...member(1), created_at: long(65) }, "created_at", 64],
    ["key_hash", wireKeyAssignment, { ...KEY_ROW, key_hash: long(1025) }, "key_hash", 1024],
    ["key_name", wireKeyAssignment, { ...KEY_ROW, key_name: long(4097) }, "key_name", 4096],
    ["key_label", wireKeyAssignment, { ...KEY_ROW, key_label: long(4097) }, "key_label", 4096],
    ["guardrail name", wireGuardrail, { ...GUARDRAIL, name: long(4097) }, "name", 4096],
    ["guardrail description", wireGuardrail, { ...GUARDRAIL, description: long(4097) }, "description", 4096],
    ["workspace slug", wireWorkspace, { ...WORKSPACE, slug: long(4097) }, "slug", 4096],
  ] as const)("%s: one character past its bound is refused by its length", (_what, schema, row, field, max) => {
    const parsed = (schema as typeof wireMemberAssignment).safeParse(row);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`)).toEqual([
      `${field}: must be at most ${max} characters (got ${max + 1})`,
    ]);
    const at = { ...row, [field]: long(max) };
    expect((schema as typeof wireMemberAssignment).safeParse(at).success).toBe(true);
  });
});
