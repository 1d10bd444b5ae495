import { describe, expect, it } from "vitest";
import {
  apiError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
  ValidationError,
} from "../../src/core/client/errors";
import { redact, redactUrl } from "../../src/core/client/redaction";

const ctx = { method: "PATCH", url: "https://api.example.com/api/v1/guardrails/abc" };

describe("apiError", () => {
  it.each([
    [400, ValidationError],
    [401, AuthenticationError],
    [403, PermissionError],
    [404, NotFoundError],
    [429, RateLimitError],
    [408, ServerError],
    [500, ServerError],
    [503, ServerError],
    [302, UnexpectedStatusError],
    [418, UnexpectedStatusError],
  ])("maps %i to its class, carrying status, method, url", (status, cls) => {
    const err = apiError(status, { ...ctx, serverMessage: "why" });
    expect(err).toBeInstanceOf(cls);
    expect([err.status, err.method, err.url, err.serverMessage]).toEqual([status, "PATCH", ctx.url, "why"]);
    expect(err.name).toBe(cls.name);
  });

  it("builds messages a person can act on", () => {
    expect(apiError(400, { ...ctx, serverMessage: "name: must be 1 to 200 characters" }).message).toMatchInlineSnapshot(
      `"PATCH https://api.example.com/api/v1/guardrails/abc: 400 Bad Request: name: must be 1 to 200 characters"`,
    );
    expect(apiError(401, ctx).message).toMatchInlineSnapshot(
      `"PATCH https://api.example.com/api/v1/guardrails/abc: 401 Unauthorized (check the API key)"`,
    );
    expect(apiError(403, ctx).message).toMatchInlineSnapshot(
      `"PATCH https://api.example.com/api/v1/guardrails/abc: 403 Forbidden (a management key is required)"`,
    );
  });

  it("keeps Retry-After on rate-limit errors and the cause on connection errors", () => {
    expect((apiError(429, { ...ctx, retryAfterSeconds: 7 }) as RateLimitError).retryAfterSeconds).toBe(7);
    const cause = new Error("socket hang up");
    const err = new ConnectionError("lost", { ...ctx, cause, requestSent: true });
    expect(err.cause).toBe(cause);
    expect(err.status).toBe(0);
  });
});

describe("redaction", () => {
  it("drops userinfo and secret-looking query values", () => {
    expect(redactUrl("https://user:pw@api.example.com/api/v1/guardrails?api_key=sk-123&offset=5&token=t")).toBe(
      "https://api.example.com/api/v1/guardrails?api_key=REDACTED&offset=5&token=REDACTED",
    );
    expect(redactUrl("not a url")).toBe("[unparseable URL]");
  });

  it("scrubs a key from any text", () => {
    expect(redact("server echoed sk-live-abcdef in its message, sk-live-abcdef twice", "sk-live-abcdef")).toBe(
      "server echoed [REDACTED] in its message, [REDACTED] twice",
    );
    expect(redact("short keys are left alone", "ab")).toBe("short keys are left alone");
  });
});
