/**
 * The create loop in retry.ts: a create is repeated only when it was not processed or when
 * `resolve` says nothing landed; an ambiguous failure is settled before anything is repeated.
 * And the error habits: wrapping keeps the class, the details and the cause.
 */
import { describe, expect, it } from "vitest";
import {
  apiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  GuardrailsError,
  ResponseShapeError,
  TimeoutError,
} from "../../src/core/client/errors";
import { createOnce, DEFAULT_RETRY } from "../../src/core/client/retry";
import { PartialApplyError } from "../../src/core/assignments/apply";

const ctx = { method: "POST", url: "http://127.0.0.1/api/v1/guardrails" };
const policy = { ...DEFAULT_RETRY, maxAttempts: 3 };
const hooks = { sleep: async () => undefined, random: () => 0.5 };

/** Runs createOnce over a scripted sequence of POST outcomes and `resolve` answers; returns what happened. */
async function run(posts: Array<Error | "ok">, resolves: Array<"found" | "none" | "throw"> = []) {
  const calls: string[] = [];
  let p = 0;
  let r = 0;
  const result = await createOnce(
    async () => {
      const next = posts[p++]!;
      calls.push(next === "ok" ? "POST ok" : `POST ${next.constructor.name}`);
      if (next === "ok") return "created";
      throw next;
    },
    {
      resolve: async () => {
        const answer = resolves[r++];
        calls.push(`resolve ${answer}`);
        if (answer === "throw") throw new Error("cannot tell");
        return answer === "found" ? "found-it" : undefined;
      },
      onGiveUp: () => void calls.push("give up"),
    },
    policy,
    hooks,
  ).catch((err: Error) => `threw ${err.constructor.name}: ${err.message.slice(0, 30)}`);
  return { result, calls };
}

const lost = () => new ConnectionError("lost", { ...ctx, requestSent: true });
const refused = () => new ConnectionError("refused", { ...ctx, requestSent: false });

describe("createOnce", () => {
  it.each([
    ["success at once", [/* */ "ok"], [], "created", ["POST ok"]],
    ["a 429 is repeated", [apiError(429, ctx), "ok"], [], "created", ["POST RateLimitError", "give up", "POST ok"]],
    ["nothing sent is repeated", [refused(), "ok"], [], "created", ["POST ConnectionError", "give up", "POST ok"]],
    [
      "a 400 is raised at once",
      [apiError(400, ctx)],
      [],
      "threw ValidationError: POST http://127.0.0.1/api/v1/g",
      ["POST ValidationError"],
    ],
    [
      "an ambiguous failure that landed is adopted, not repeated",
      [lost()],
      ["found"],
      "found-it",
      ["POST ConnectionError", "resolve found"],
    ],
    [
      "an ambiguous failure that did not land is repeated after the search",
      [apiError(503, ctx), "ok"],
      ["none"],
      "created",
      ["POST ServerError", "resolve none", "give up", "POST ok"],
    ],
    [
      "a search that cannot tell stops everything",
      [new TimeoutError(0, "slow", ctx)],
      ["throw"],
      "threw Error: cannot tell",
      ["POST TimeoutError", "resolve throw"],
    ],
    [
      "the attempt cap holds",
      [apiError(503, ctx), apiError(503, ctx), apiError(503, ctx)],
      ["none", "none", "none"],
      "threw ServerError: POST http://127.0.0.1/api/v1/g",
      [
        "POST ServerError",
        "resolve none",
        "give up",
        "POST ServerError",
        "resolve none",
        "give up",
        "POST ServerError",
        "resolve none",
        "give up",
      ],
    ],
  ] as const)("%s", async (_name, posts, resolves, result, calls) => {
    expect(await run([...posts] as Array<Error | "ok">, [...resolves])).toEqual({ result, calls });
  });
});

describe("errors", () => {
  it("wrap: a new error of the same class and details, the original as cause, the original untouched", () => {
    const original = apiError(401, { ...ctx, serverMessage: "bad key" });
    const wrapped = original.wrap(`guardrail "eng": ${original.message}`);
    expect(wrapped).toBeInstanceOf(AuthenticationError);
    expect(wrapped).not.toBe(original);
    expect([wrapped.status, wrapped.method, wrapped.url, wrapped.serverMessage, wrapped.name]).toEqual([
      401,
      "POST",
      ctx.url,
      "bad key",
      "AuthenticationError",
    ]);
    expect(wrapped.cause).toBe(original);
    expect(wrapped.message).toBe(`guardrail "eng": ${original.message}`);
    expect(original.message).not.toContain("eng");
    expect(wrapped.stack).toMatch(/^AuthenticationError: guardrail "eng"/);
  });

  it("a 409 is a ConflictError; a shape error keeps the schema's issues; PartialApplyError has a name", () => {
    expect(apiError(409, ctx)).toBeInstanceOf(ConflictError);
    expect(apiError(409, ctx)).toBeInstanceOf(GuardrailsError);
    const shape = new ResponseShapeError(200, "unexpected", {
      ...ctx,
      issues: [{ path: ["data", "id"], code: "invalid_type", message: "expected string" }],
    });
    expect(shape.issues).toEqual([{ path: ["data", "id"], code: "invalid_type", message: "expected string" }]);
    expect(new PartialApplyError("m", "id", {}, []).name).toBe("PartialApplyError");
  });
});
