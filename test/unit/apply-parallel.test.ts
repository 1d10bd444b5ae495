/**
 * Bulk assign/unassign chunks in parallel (issue 29), against a local server that holds one
 * guardrail's members and answers each chunk as the test says: slowly, with a 503 before
 * applying anything, with a lost answer after applying, or skipping an id. Whatever happens,
 * the state recorded is exactly what landed, every chunk included.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { GuardrailsClient } from "../../src/core/client";
import { Budget } from "../../src/core/client/budget";
import { applyPlanToService, type PartialApplyError } from "../../src/core/assignments/apply";
import { MEMBER_KIND } from "../../src/core/assignments/kind";
import { FOREIGN } from "../../src/core/assignments/status";
import { hostileServer, json, type HostileServer } from "../helpers/hostile-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const GID = "3f2b8c1e-0000-4000-8000-000000000000";
type Answer = "ok" | "fail" | "lost" | "skip";
let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ids = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `user_${String(from + i).padStart(4, "0")}`);
const body = (req: IncomingMessage) =>
  new Promise<string[]>((resolve) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => resolve(JSON.parse(text).member_user_ids));
  });

/** The guardrail's members; `answers` says how the chunk starting with an id is answered (else "ok"). */
async function membersServer(live: Set<string>, answers: Record<string, Answer>) {
  const seen = { inFlight: 0, max: 0, posts: 0, lists: 0 };
  const post = async (req: IncomingMessage, res: ServerResponse, remove: boolean) => {
    const chunk = await body(req);
    const answer = answers[chunk[0]!] ?? "ok";
    if (answer === "fail") return json(res, 503, { error: { code: 503, message: "down" } });
    const apply = () => {
      const landed = answer === "skip" ? chunk.slice(0, -1) : chunk;
      for (const id of landed) remove ? live.delete(id) : live.add(id);
      return landed.length;
    };
    if (answer === "lost") {
      apply();
      return req.socket.destroy();
    }
    seen.inFlight++;
    seen.max = Math.max(seen.max, seen.inFlight);
    await new Promise((r) => setTimeout(r, 150));
    seen.inFlight--;
    const n = apply();
    json(res, 200, remove ? { unassigned_count: n } : { assigned_count: n });
  };
  server = await hostileServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    if (req.method === "POST") {
      seen.posts++;
      return void post(req, res, url.pathname.endsWith("/remove"));
    }
    seen.lists++;
    const offset = Number(url.searchParams.get("offset"));
    const limit = Number(url.searchParams.get("limit"));
    const rows = [...live].sort().map((user_id, i) => ({
      id: `row-${user_id}-${i}`,
      user_id,
      organization_id: "org",
      guardrail_id: GID,
      assigned_by: null,
      created_at: "2026-01-01T00:00:00Z",
    }));
    json(res, 200, { data: rows.slice(offset, offset + limit), total_count: rows.length });
  });
  return seen;
}

const apply = (add: string[], remove: string[], live: Set<string>, desired: string[]) =>
  applyPlanToService(
    {
      client: new GuardrailsClient({
        baseUrl: server!.url,
        apiKey: KEY,
        retry: { maxAttempts: 1 },
        budget: new Budget(4),
      }),
      kind: MEMBER_KIND,
      inputs: { guardrailId: GID, ids: new Set(desired), exclusive: false },
      chunkSize: 10,
      provider: "p",
    },
    { add, remove },
    new Set(live),
  );
const recorded = (err: PartialApplyError) =>
  Object.entries(err.properties.members as Record<string, unknown>)
    .filter(([, v]) => v === true)
    .map(([k]) => k)
    .sort();

describe("bulk chunks in parallel", () => {
  it("go out up to N at once, every count checked, and no extra call", async () => {
    const live = new Set<string>();
    const seen = await membersServer(live, {});
    const now = await apply(ids(0, 80), [], live, ids(0, 80));
    expect([...now].sort()).toEqual(ids(0, 80));
    expect(seen).toMatchObject({ max: 4, posts: 8, lists: 0 });
  });

  it("a chunk that fails while others are in flight: the state records exactly what landed, every other chunk included", async () => {
    const live = new Set<string>();
    const seen = await membersServer(live, { user_0000: "fail" });
    const err = (await apply(ids(0, 40), [], live, ids(0, 40)).catch((e) => e)) as PartialApplyError;
    expect(err.message).toMatch(/assigning 10 member\(s\) failed \(HTTP 503\)/);
    expect(recorded(err)).toEqual(ids(10, 30));
    expect([...live].sort()).toEqual(ids(10, 30));
    expect(seen.posts).toBe(4);
  });

  it("a lost answer on one chunk leaves no other chunk's result ambiguous", async () => {
    const live = new Set<string>(ids(100, 20));
    const seen = await membersServer(live, { user_0000: "lost", user_0010: "skip", user_0100: "fail" });
    const err = (await apply(ids(0, 30), ids(100, 20), live, ids(0, 30)).catch((e) => e)) as PartialApplyError;
    // Removes go first: one failed (nothing removed), the other landed; the adds never start.
    expect(recorded(err)).toEqual([]);
    expect([...live].sort()).toEqual(ids(100, 10));
    expect(err.properties.members).toMatchObject(Object.fromEntries(ids(100, 10).map((id) => [id, FOREIGN])));
    expect(seen.posts).toBe(2);

    const live2 = new Set<string>();
    await server!.close();
    await membersServer(live2, { user_0000: "lost", user_0010: "skip" });
    const err2 = (await apply(ids(0, 30), [], live2, ids(0, 30)).catch((e) => e)) as PartialApplyError;
    const landed = [...ids(0, 10), ...ids(10, 9), ...ids(20, 10)];
    expect([...live2].sort()).toEqual(landed);
    expect(recorded(err2)).toEqual(landed);
    expect(err2.reasons.join("\n")).toMatch(/assigning 10 member\(s\) failed \(ConnectionError\)/);
  });
});
