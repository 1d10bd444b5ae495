/**
 * The create journal's key: a journal entry written by one version must be found by the next,
 * so the key depends on what a create asks for, never on the order a refactor happens to put
 * the body's keys in.
 */
import { describe, expect, it } from "vitest";
import { createKey } from "../../src/core/resource/create-journal";
import { EMAIL_REDACT_SSN_BLOCK } from "../helpers/filters";

const body = {
  name: "Engineering",
  limit_usd: 5,
  reset_interval: "daily",
  content_filter_builtins: EMAIL_REDACT_SSN_BLOCK,
};

describe("createKey", () => {
  it("is the same for the same body with its keys, and its items' keys, in another order", () => {
    const reordered = {
      content_filter_builtins: [
        { action: "redact", slug: "email" },
        { action: "block", slug: "ssn" },
      ],
      reset_interval: "daily",
      limit_usd: 5,
      name: "Engineering",
    };
    expect(createKey("p/s/eng", "http://x", reordered)).toBe(createKey("p/s/eng", "http://x", body));
  });

  it("differs for another value, another list order, another resource or another service", () => {
    const key = createKey("p/s/eng", "http://x", body);
    expect(createKey("p/s/eng", "http://x", { ...body, limit_usd: 6 })).not.toBe(key);
    expect(
      createKey("p/s/eng", "http://x", {
        ...body,
        content_filter_builtins: [...body.content_filter_builtins].reverse(),
      }),
    ).not.toBe(key);
    expect(createKey("p/s/other", "http://x", body)).not.toBe(key);
    expect(createKey("p/s/eng", "http://y", body)).not.toBe(key);
  });
});
