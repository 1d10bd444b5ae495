/**
 * The client against hostile local servers (node:http on port 0): each attack of issue 13
 * is a case. Nothing here may hang, exhaust memory, or let the key into an error.
 */
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import {
  GuardrailsClient,
  PaginationError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../../src/core/client";
import { collect } from "../../src/core/client/pagination";
import { reportRetry } from "../../src/core/client/retry-report";
import { hostileServer, json, type HostileServer } from "../helpers/hostile-server";

const KEY = "gr-live-0123456789abcdefghijklmnopqrstuv";
const GID = "3f2b8c1e-0000-4000-8000-000000000000";
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

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

/** Every way the key could show: the message, the stack, inspect of the whole object graph. */
function expectNoKey(err: Error): void {
  const everything = `${err.message}\n${err.stack}\n${inspect(err, { depth: Infinity, showHidden: true })}\n${JSON.stringify(err)}`;
  expect(everything).not.toContain(KEY);
  // Not even a head of it: a key cut in half still gives most of it away.
  expect(everything).not.toContain(KEY.slice(0, 10));
}

const member = (i: number) => ({
  id: `row-${i}`,
  user_id: `user_${i}`,
  organization_id: "org",
  guardrail_id: GID,
  assigned_by: null,
  created_at: "2026-01-01T00:00:00Z",
});

describe("client: a trickling or silent server cannot hang a request", () => {
  it("a body trickled one byte at a time fails at the whole-request deadline, not per chunk", async () => {
    server = await hostileServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const tick = setInterval(() => (res.destroyed ? clearInterval(tick) : res.write(" ")), 100);
      res.on("close", () => clearInterval(tick));
    });
    const err = await failure(client(server.url, { timeoutMs: 1500 }).getGuardrail(GID));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err.message).toContain(
      "status 200 but not the whole body within the 1500 ms deadline; nothing was changed (a GET only reads)",
    );
  }, 20_000);

  it("a server that never answers: a GET says nothing changed, a PATCH says it may have been applied", async () => {
    server = await hostileServer(() => undefined);
    const get = await failure(client(server.url, { timeoutMs: 500 }).getGuardrail(GID));
    expect(get).toBeInstanceOf(TimeoutError);
    expect(get.message).toMatch(/no answer within the 500 ms deadline; nothing was changed \(a GET only reads\)$/);
    expect(get.message).not.toContain("may have been applied");
    const patch = await failure(client(server.url, { timeoutMs: 500 }).updateGuardrail(GID, { name: "x" }));
    expect(patch.message).toMatch(/no answer within the 500 ms deadline; the request may have been applied$/);
  }, 20_000);

  it("each retry is reported as it happens, redacted", async () => {
    server = await hostileServer((_req, res) => json(res, 503, { error: { code: 503, message: `down, key ${KEY}` } }));
    const lines: string[] = [];
    const c = client(server.url, {
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
      retryHooks: { onRetry: (e, a, d) => reportRetry(e, a, d, (l) => lines.push(l)) },
    });
    const err = await failure(c.getGuardrail(GID));
    expect(err).toBeInstanceOf(ServerError);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^pulumi-guardrails: attempt 1 failed: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/guardrails\/3f2b8c1e-0000-4000-8000-000000000000: HTTP 503: down, key \[REDACTED\]; retrying in \d+ ms\n$/,
    );
    expect(lines.join("")).not.toContain(KEY);
  });
});

// Issue 38: the Authorization header echoed in another form reached the CLI.
describe("client: a server that echoes the key in another form", () => {
  const b64 = (t: string) => Buffer.from(t).toString("base64");
  it.each([
    ["base64 of Bearer <key>", (auth: string) => b64(auth)],
    ["HTML entities", (auth: string) => [...auth].map((c) => `&#${c.charCodeAt(0)};`).join("")],
    ["upper case", (auth: string) => auth.toUpperCase()],
    ["zero-width characters", (auth: string) => [...auth].join("\u200b")],
  ] as const)("%s: the error holds no form of the key", async (_form, echo) => {
    server = await hostileServer((req, res) =>
      json(res, 400, { error: { code: 400, message: `bad header ${echo(String(req.headers.authorization))}` } }),
    );
    const err = await failure(client(server.url).getGuardrail(GID));
    expectNoKey(err);
    const everything = `${err.message}\n${inspect(err, { depth: Infinity, showHidden: true })}`;
    expect(everything).not.toContain(b64(`Bearer ${KEY}`).slice(4, 24));
    expect(everything.toUpperCase()).not.toContain(KEY.toUpperCase());
    expect(everything.replace(/[\u200b]/g, "")).not.toContain(KEY);
    expect(everything).not.toContain(`&#${KEY.charCodeAt(5)};&#${KEY.charCodeAt(6)};`);
  });
});

// Issue 38 attack pass: forms the first fix missed, in the message and in full in `metadata`.
describe("client: a server that echoes the key escaped, as hex, as base64 of base64 or cut short", () => {
  const b64 = (t: string) => Buffer.from(t).toString("base64");
  const uesc = (t: string) => [...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
  const forms = {
    "JSON \\u escapes": (auth: string) => `header was "${uesc(auth)}"`,
    "hex bytes": (auth: string) => Buffer.from(auth).toString("hex"),
    "hex bytes, upper case": (auth: string) => Buffer.from(auth).toString("hex").toUpperCase(),
    "base64 of base64": (auth: string) => b64(b64(auth)),
    "missing its last character": (auth: string) => `invalid key ${auth.slice(7, -1)}`,
    "cut to half": (auth: string) => `invalid key ${auth.slice(7, 7 + 20)}...`,
  };
  it.each(Object.keys(forms))("%s: neither the message nor the metadata holds it", async (form) => {
    const echo = forms[form as keyof typeof forms];
    server = await hostileServer((req, res) => {
      const said = echo(String(req.headers.authorization));
      json(res, 401, { error: { code: 401, message: said, metadata: { echo: said, [said]: 1 } } });
    });
    const err = await failure(client(server.url).getGuardrail(GID));
    expectNoKey(err);
    const everything = `${err.message}\n${inspect(err, { depth: Infinity, showHidden: true })}`;
    for (const piece of [echo(`Bearer ${KEY}`).slice(12, 40), KEY.slice(8, 24)])
      expect(everything, piece).not.toContain(piece);
    expect(JSON.stringify((err as { metadata?: unknown }).metadata)).toMatch(/\[REDACTED/);
  });
});

describe("client: paging a lying server stops with an error", () => {
  it("empty pages with a huge total_count", async () => {
    server = await hostileServer((_req, res) => json(res, 200, { data: [], total_count: 9_000 }));
    const err = await failure(collect(client(server.url).listGuardrails()));
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toContain("21 empty pages in a row up to offset 1980 though total_count is 9000");
    // Pages go out 4 at a time (issue 29): at most 2 × 4 past the one that stops the walk.
    expect(server.requests.length).toBeGreaterThanOrEqual(21);
    expect(server.requests.length).toBeLessThanOrEqual(21 + 8);
  });

  it("a server that ignores offset and repeats its first page", async () => {
    server = await hostileServer((_req, res) =>
      json(res, 200, { data: Array.from({ length: 100 }, (_, i) => member(i)), total_count: 50_000 }),
    );
    const err = await failure(collect(client(server.url).listMemberAssignments(GID)));
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toContain("the page at offset 99 repeats 100 row(s) already read though total_count is 50000");
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(2 + 8);
  });

  it("a count no listing can hold, and a page longer than asked for", async () => {
    server = await hostileServer((req, res) =>
      req.url!.startsWith(`/api/v1/guardrails/${GID}`)
        ? json(res, 200, { data: Array.from({ length: 150 }, (_, i) => member(i)), total_count: 150 })
        : json(res, 200, { data: [member(1)], total_count: 10 ** 12 }),
    );
    expect((await failure(collect(client(server.url).listAllMemberAssignments()))).message).toContain(
      "total_count 1000000000000 is more than the 100000 rows this list may hold",
    );
    expect((await failure(collect(client(server.url).listMemberAssignments(GID)))).message).toContain(
      "holds 150 rows though 100 were asked for",
    );
  });

  it("a count above the listing bound stops at once, so rows invented forever cannot grow without bound", async () => {
    server = await hostileServer((req, res) => {
      const offset = Number(new URL(req.url!, "http://x").searchParams.get("offset"));
      json(res, 200, {
        data: Array.from({ length: 100 }, (_, i) => member(offset + i + 1_000_000 * (offset % 7))),
        total_count: 5_000,
      });
    });
    const rows = await collect(client(server.url, { maxListRows: 1_000 }).listMemberAssignments(GID)).catch(
      (e: Error) => e,
    );
    expect(rows).toBeInstanceOf(PaginationError);
    expect((rows as Error).message).toContain("total_count 5000 is more than the 1000 rows");
  });
});

// Issue 38, class 4: total_count just inside the old 1,000,000-row guard and fresh ids on every
// page cost 6,718 requests and 450 MiB, and never answered. Each list is now bounded by what its
// operation can need, and a page must repeat the last row of the one before it.
describe("client: a pager that invents rows is stopped after a few requests, naming the server", () => {
  /** Fresh ids on every page; answers 500 after `cutOff` requests so an unbounded walk fails fast here too. */
  const inventing = (count: number, cutOff = 60) =>
    hostileServer((req, res, n) => {
      if (n > cutOff) return json(res, 500, { error: { code: 500, message: "the test's cut-off" } });
      const offset = Number(new URL(req.url!, "http://x").searchParams.get("offset"));
      json(res, 200, {
        data: Array.from({ length: 100 }, (_, i) => member(n * 1_000_000 + offset + i)),
        total_count: count,
      });
    });

  it("total_count 999,999: refused on the first page, above what a guardrail's member list may hold", async () => {
    server = await inventing(999_999);
    const err = await failure(collect(client(server.url).listMemberAssignments(GID)));
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toBe(
      `GET ${server.url}/api/v1/guardrails/${GID}/assignments/members: paging stopped: total_count 999999 is more than the 100000 rows this list may hold; the count cannot be right (raise the client's maxListRows if it is)`,
    );
    expect(server.requests).toHaveLength(1);
    expectNoKey(err);
  });

  it("total_count inside the bound: the pages do not overlap, so after 3 walks the read fails, in a few requests", async () => {
    server = await inventing(99_999);
    const err = await failure(collect(client(server.url).listMemberAssignments(GID)));
    expect(err).toBeInstanceOf(PaginationError);
    expect(err.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/guardrails\/[^:]+: paging stopped: the list changed while it was read \(the row at offset 99 was not the same on the two pages that share it\) on 3 reads in a row/,
    );
    // Three walks, each stopped at its second page with at most 2 × 4 pages more in flight.
    expect(server.requests.length).toBeLessThanOrEqual(3 * (2 + 8));
  });

  it("workspaces and guardrails are bounded lower than assignments: 10,000 rows", async () => {
    server = await hostileServer((_req, res) => json(res, 200, { data: [], total_count: 10_001 }));
    expect((await failure(collect(client(server.url).listWorkspaces()))).message).toContain(
      "total_count 10001 is more than the 10000 rows this list may hold",
    );
    expect((await failure(collect(client(server.url).listGuardrails()))).message).toContain(
      "total_count 10001 is more than the 10000 rows",
    );
    expect(server.requests).toHaveLength(2);
  });

  it("a per-call bound is lower still, and the client's maxListRows replaces the defaults", async () => {
    server = await inventing(600);
    expect((await failure(collect(client(server.url).listMemberAssignments(GID, { maxRows: 500 })))).message).toContain(
      "total_count 600 is more than the 500 rows this list may hold",
    );
    expect(server.requests).toHaveLength(1);
    await server.close();
    server = await hostileServer((_req, res) => json(res, 200, { data: [], total_count: 20_000 }));
    const raised = await failure(collect(client(server.url, { maxListRows: 20_000 }).listWorkspaces()));
    expect(raised.message).toContain("empty pages in a row");
  });
});

describe("client: bodies are capped while they stream", () => {
  it("an endless success body stops at the cap with a clear error, and the connection is dropped", async () => {
    let sent = 0;
    let closed!: () => void;
    const done = new Promise<void>((r) => (closed = r));
    server = await hostileServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && sent < 300 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
      };
      res.on("close", () => closed());
      pump();
    });
    const err = await failure(client(server.url, { maxResponseBytes: 1024 * 1024 }).getGuardrail(GID));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toContain(
      "the response body is more than 1048576 bytes, over the client's cap of 1048576 bytes",
    );
    await done;
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  }, 30_000);

  it("an announced 300 MB body is refused before reading it", async () => {
    server = await hostileServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(300 * 1024 * 1024) });
      res.write("{");
    });
    const err = await failure(client(server.url).getGuardrail(GID));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toContain("the response body is 314572800 bytes, over the client's cap of 8388608 bytes");
  });

  it("a huge error body is read only as far as its message needs, on every attempt", async () => {
    server = await hostileServer((_req, res) => {
      res.writeHead(500, { "content-type": "text/plain", "content-length": String(300 * 1024 * 1024) });
      res.write("x".repeat(100 * 1024));
    });
    const err = await failure(
      client(server.url, { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }).getGuardrail(GID),
    );
    expect(err).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
  });
});

describe("client: the key never reaches an error", () => {
  it("a non-JSON error body is redacted before it is cut, so a key straddling the cut does not leak", async () => {
    server = await hostileServer((_req, res) => {
      res.writeHead(400, { "content-type": "text/plain" });
      res.end(`${"e".repeat(175)}${KEY} and more`);
    });
    const err = await failure(client(server.url).getGuardrail(GID));
    expect(err).toBeInstanceOf(ValidationError);
    expectNoKey(err);
  });

  it("metadata, nested or in keys, is redacted on the error object and in util.inspect", async () => {
    server = await hostileServer((_req, res) =>
      json(res, 400, {
        error: {
          code: 400,
          message: "bad",
          metadata: { echo: KEY, nested: { list: [`Bearer ${KEY}`] }, [KEY]: 1, url: `?k=${encodeURIComponent(KEY)}` },
        },
      }),
    );
    const err = await failure(client(server.url).getGuardrail(GID));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).metadata).toEqual({
      echo: "[REDACTED]",
      nested: { list: ["Bearer [REDACTED]"] },
      "[REDACTED]": 1,
      url: "?k=[REDACTED]",
    });
    expectNoKey(err);
  });

  it("a 2xx body that is not JSON: the parser's error, kept as cause, quotes no key", async () => {
    server = await hostileServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(`${KEY} is not json`);
    });
    const err = await failure(client(server.url).getGuardrail(GID));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.cause).toBeInstanceOf(Error);
    expectNoKey(err);
  });

  it("control characters (ANSI escapes, newlines) in a server message are not echoed", async () => {
    server = await hostileServer((_req, res) =>
      json(res, 400, { error: { code: 400, message: "\u001b[2J\u001b[31mname: bad\nerror: forged line" } }),
    );
    const err = await failure(client(server.url).getGuardrail(GID));
    expect(err.message).not.toMatch(/[\u0000-\u001f]/);
    expect(err.message).toContain("name: bad error: forged line");
  });
});
