/**
 * Fuzzing the client against a random hostile server (node:http on port 0): each run picks a
 * status, headers that may lie, a body that may be huge, not JSON, or quote the key, and a
 * pace that may trickle or stall. Every call settles, with data or a GuardrailsError, and no
 * error, however inspected, holds the key.
 */
import fc from "fast-check";
import type { ServerResponse } from "node:http";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuardrailsClient, GuardrailsError } from "../../src/core/client";
import { collect } from "../../src/core/client/pagination";
import { hostileServer, type HostileServer } from "../helpers/hostile-server";

const KEY = "gr-fuzz-key-0123456789abcdefghijklmnop";
const GID = "3f2b8c1e-0000-4000-8000-000000000000";

interface Behaviour {
  status: number;
  contentLength: "none" | "true" | "lie-small" | "lie-huge";
  body: string;
  pace: "at-once" | "trickle" | "stall" | "destroy";
}

const fragment = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    KEY,
    `Bearer ${KEY}`,
    encodeURIComponent(KEY),
    "\u001b[2J",
    "\n",
    '{"error":',
    '"metadata":{"k":"',
    "]}",
    "null",
  ),
  fc.json({ maxDepth: 2 }),
);
const body = fc.oneof(
  fc.array(fragment, { maxLength: 8 }).map((xs) => xs.join("")),
  fc
    .record({ message: fragment, metadata: fc.dictionary(fragment, fragment, { maxKeys: 3 }) })
    .map((e) => JSON.stringify({ error: { code: 400, ...e } })),
  fc.array(fragment, { maxLength: 3 }).map((xs) =>
    JSON.stringify({
      data: xs.map((x, i) => ({
        id: `${x}${i}`,
        user_id: x,
        organization_id: "o",
        guardrail_id: GID,
        assigned_by: null,
        created_at: "t",
      })),
      total_count: 10 ** 6,
    }),
  ),
  fc.integer({ min: 1, max: 3 }).map((mb) => "x".repeat(mb * 1024 * 1024)),
);
const behaviour: fc.Arbitrary<Behaviour> = fc.record({
  status: fc.constantFrom(200, 201, 204, 301, 400, 401, 404, 409, 418, 429, 500, 503),
  contentLength: fc.constantFrom("none", "true", "lie-small", "lie-huge"),
  body,
  pace: fc.constantFrom("at-once", "at-once", "trickle", "stall", "destroy"),
});

let current: Behaviour;
let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer((_req, res) => play(res, current));
});
afterAll(() => server.close());

function play(res: ServerResponse, b: Behaviour): void {
  const bytes = Buffer.from(b.body);
  const headers: Record<string, string> = { "content-type": "application/json", "retry-after": "0" };
  if (b.contentLength === "true") headers["content-length"] = String(bytes.length);
  if (b.contentLength === "lie-small") headers["content-length"] = String(Math.max(0, bytes.length - 3));
  if (b.contentLength === "lie-huge") headers["content-length"] = String(bytes.length + 10 ** 9);
  if (b.pace === "stall") return;
  if (b.pace === "destroy") return void res.socket?.destroy();
  res.writeHead(b.status, headers);
  if (b.pace === "at-once") return void res.end(bytes);
  let i = 0;
  const tick = setInterval(() => {
    if (res.destroyed || i >= bytes.length) {
      clearInterval(tick);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(bytes.subarray(i, i + 1));
    i++;
  }, 20);
  res.on("close", () => clearInterval(tick));
}

describe("fuzz: client against a random hostile server", () => {
  it("every call settles with data or a GuardrailsError that holds no key", async () => {
    const client = new GuardrailsClient({
      baseUrl: server.url,
      apiKey: KEY,
      timeoutMs: 300,
      maxResponseBytes: 1024 * 1024,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    try {
      await fc.assert(
        fc.asyncProperty(behaviour, fc.constantFrom("get", "patch", "list", "assign"), async (b, call) => {
          current = b;
          const run =
            call === "get"
              ? client.getGuardrail(GID)
              : call === "patch"
                ? client.updateGuardrail(GID, { name: "x" })
                : call === "list"
                  ? collect(client.listMemberAssignments(GID))
                  : client.assignMembers(GID, ["user_a"]);
          const outcome = await run.then(
            () => undefined,
            (e: unknown) => e,
          );
          if (outcome === undefined) return;
          expect(outcome).toBeInstanceOf(GuardrailsError);
          const err = outcome as GuardrailsError;
          const everything = `${err.message}\n${err.stack}\n${inspect(err, { depth: Infinity, showHidden: true })}\n${JSON.stringify(err)}`;
          expect(everything).not.toContain(KEY);
          expect(everything).not.toContain(encodeURIComponent(KEY));
          expect(err.message).not.toMatch(/[\u0000-\u001f]/);
        }),
        { numRuns: 60 },
      );
    } finally {
      await client.close();
    }
  }, 300_000);
});
