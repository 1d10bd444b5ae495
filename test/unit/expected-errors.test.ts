import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

let printed: string[] = [];
const realConsoleError = console.error;
/** A fresh module, whose filter wraps a recorder standing in for the process's stderr. */
async function load() {
  vi.resetModules();
  const { quietExpectedErrors } = await import("../../provider/expected-errors");
  const { AuthenticationError } = await import("../../provider/client/errors");
  return { quietExpectedErrors, AuthenticationError };
}

/** What Pulumi's dynamic-provider host does with an error from check/diff/read/delete. */
async function hostCalls(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    return await fn();
  } catch (e) {
    console.error(`${e}: ${(e as Error).stack}`);
    return e;
  }
}

describe("expected errors are said once", () => {
  beforeEach(() => {
    printed = [];
    console.error = (...args: unknown[]) => void printed.push(args.join(" "));
  });
  afterEach(() => {
    console.error = realConsoleError;
  });

  it("drops the host's echo of an expected error, keeps a bug's trace, and leaves create alone", async () => {
    const { quietExpectedErrors, AuthenticationError } = await load();
    const methods = quietExpectedErrors({
      read: async () => {
        throw new AuthenticationError(401, "401 Unauthorized", { method: "GET", url: "http://x/api/v1/guardrails/1" });
      },
      check: async () => {
        throw new Error("guardrail \"eng\": adoptId abc names no guardrail");
      },
      diff: async () => {
        throw new TypeError("a bug");
      },
      create: async () => {
        throw new Error("create errors are not echoed by the host");
      },
    });
    const auth = await hostCalls(methods.read);
    const plain = await hostCalls(methods.check);
    const bug = await hostCalls(methods.diff);
    expect(auth).toBeInstanceOf(AuthenticationError); // the engine still gets the error and its message
    expect(plain).toBeInstanceOf(Error);
    expect(printed.join("")).not.toContain("AuthenticationError");
    expect(printed.join("")).not.toContain("adoptId abc");
    expect(bug).toBeInstanceOf(TypeError);
    expect(printed.join("")).toContain("TypeError: a bug: TypeError: a bug\n    at ");
    await expect(methods.create()).rejects.toThrow("create errors are not echoed");
  });

  it("an unrelated console.error with the same words still prints", async () => {
    const methods = (await load()).quietExpectedErrors({ read: async () => Promise.reject(new Error("boom")) });
    await hostCalls(methods.read);
    expect(printed).toEqual([]);
    console.error("Error: boom");
    expect(printed).toEqual(["Error: boom"]);
  });
});
