import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const PROVIDER = join(__dirname, "../../src");
/** Every source file of the library, relative to src/. */
const SOURCES = (readdirSync(PROVIDER, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).sort();

let printed: string[] = [];
const realConsoleError = console.error;
/** A fresh module, whose filter wraps a recorder standing in for the process's stderr. */
async function load() {
  vi.resetModules();
  const { quietExpectedErrors } = await import("../../src/dynamic/expected-errors");
  const { AuthenticationError } = await import("../../src/core/client/errors");
  const { UserError } = await import("../../src/core/user-error");
  const { UntrustedNotFoundError } = await import("../../src/core/confirm-gone");
  return { quietExpectedErrors, AuthenticationError, UserError, UntrustedNotFoundError };
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
    const { quietExpectedErrors, AuthenticationError, UserError } = await load();
    const methods = quietExpectedErrors({
      read: async () => {
        throw new AuthenticationError(401, "401 Unauthorized", { method: "GET", url: "http://x/api/v1/guardrails/1" });
      },
      check: async () => {
        throw new UserError("guardrail \"eng\": adoptId abc names no guardrail");
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
    const { quietExpectedErrors, UserError } = await load();
    const methods = quietExpectedErrors({ read: async () => Promise.reject(new UserError("boom")) });
    await hostCalls(methods.read);
    expect(printed).toEqual([]);
    console.error("UserError: boom");
    expect(printed).toEqual(["UserError: boom"]);
  });

  it("a plain Error is a bug: it keeps its trace", async () => {
    const methods = (await load()).quietExpectedErrors({ delete: async () => Promise.reject(new Error("boom")) });
    await hostCalls(methods.delete);
    expect(printed.join("")).toContain("Error: boom: Error: boom\n    at ");
  });

  it("a refused 404 (wrong URL at refresh) prints one line, not a trace per guardrail (issue 24)", async () => {
    const { quietExpectedErrors, UntrustedNotFoundError } = await load();
    const methods = quietExpectedErrors({ read: async () => Promise.reject(new UntrustedNotFoundError('guardrail "G0": not reported as deleted', 'guardrail "G0"')) });
    await hostCalls(methods.read);
    expect(printed).toEqual([]);
  });
});

/** Names of the classes that a file declares as `class X extends Y`. */
function declaredClasses(): Array<{ file: string; name: string; base: string }> {
  return SOURCES.flatMap((file) =>
    [...readFileSync(join(PROVIDER, file), "utf8").matchAll(/\bclass (\w+) extends ([\w.]+)/g)].map((m) => ({ file, name: m[1]!, base: m[2]! })),
  );
}

describe("one base for failures meant for a person (issue 24)", () => {
  it("every error class the provider exports is expected: one line, no trace", async () => {
    const { isExpected } = await import("../../src/dynamic/expected-errors");
    const { UserError } = await import("../../src/core/user-error");
    const found: string[] = [];
    const declared = new Set(declaredClasses().map((c) => c.name));
    for (const file of SOURCES) {
      const mod = (await import(join(PROVIDER, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        // The tools' own errors (re-exported by index.ts) are printed by their CLIs, not by the provider host.
        if (typeof value !== "function" || !declared.has(name) || !(value.prototype instanceof Error || value === UserError)) continue;
        found.push(name);
        // The prototype alone: constructors take different arguments, and instanceof reads only the chain.
        expect(isExpected(Object.create(value.prototype as object)), `${file}: ${name}`).toBe(true);
      }
    }
    // Every class that extends an error class is among them, so none escapes the check.
    const errorClasses = declaredClasses().filter((c) => /Error$/.test(c.base) && c.name !== "DeadlinePassed");
    expect([...new Set(found)].sort()).toEqual([...new Set(errorClasses.map((c) => c.name))].sort());
    expect(found.length).toBeGreaterThan(15);
  });

  it("only the base extends Error; a plain Error is thrown only where it would be a bug", () => {
    // DeadlinePassed is the client's own abort reason: caught in the transport, never thrown out of it.
    expect(declaredClasses().filter((c) => c.base === "Error").map((c) => `${c.file}: ${c.name}`)).toEqual(["core/client/transport.ts: DeadlinePassed", "core/user-error.ts: UserError"]);
    const plain = SOURCES.flatMap((file) => (readFileSync(join(PROVIDER, file), "utf8").match(/new Error\(/g) ?? []).map(() => file));
    // redaction.ts copies a cause chain (never thrown); lifecycle.ts wraps a thrown non-Error, which is a bug.
    expect(plain).toEqual(["core/client/redaction.ts", "core/guardrail/lifecycle.ts"]);
    const marks = SOURCES.filter((file) => /pulumi\.RunError|__pulumiRunError|constructor === Error/.test(readFileSync(join(PROVIDER, file), "utf8")));
    expect(marks.map((f) => relative(".", f))).toEqual(["core/user-error.ts"]);
  });
});
