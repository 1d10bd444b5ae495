import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const ROOT = join(__dirname, "../..");
/** Every source file of the library and of its tools, relative to the repository root. */
const SOURCES = ["src", "tools"]
  .flatMap((dir) =>
    (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts"))
      .map((f) => `${dir}/${f}`),
  )
  .sort();
/** The commands' entry files run their command when loaded, so they are read, never imported. */
const RUNS_ON_LOAD = /^(tools\/[^/]+\/cli|src\/native\/main)\.ts$/;

let printed: string[] = [];
const realConsoleError = console.error;
/** A fresh module, whose filter wraps a recorder standing in for the process's stderr. */
async function load() {
  vi.resetModules();
  const { quietExpectedErrors } = await import("../../src/dynamic/expected-errors");
  const { AuthenticationError } = await import("../../src/core/client/errors");
  const { UserError } = await import("../../src/core/user-error");
  const { UntrustedNotFoundError } = await import("../../src/core/client/errors");
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
        throw new UserError('guardrail "eng": adoptId abc names no guardrail');
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
    const methods = quietExpectedErrors({
      read: async () =>
        Promise.reject(new UntrustedNotFoundError('guardrail "G0": not reported as deleted', 'guardrail "G0"')),
    });
    await hostCalls(methods.read);
    expect(printed).toEqual([]);
  });

  it("the dynamic face itself: a bad arg is said once, in the engine's line; a bug (a TypeError) keeps its trace (issue 25)", async () => {
    vi.resetModules();
    const { guardrail } = await import("../../src/dynamic/internal");
    const diff = guardrail.diff as (id: string, olds: unknown, news: unknown) => Promise<unknown>;
    const expected = await hostCalls(() => diff("g1", { name: "a" }, { name: 5 }));
    expect((expected as Error).message).toBe("invalid guardrail args: name: must be a string (got 5)");
    expect(printed).toEqual([]);
    // The host never passes null inputs: reading them fails as a bug would, and its trace stays.
    const bug = await hostCalls(() => diff("g1", null, null));
    expect(bug).toBeInstanceOf(TypeError);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^TypeError: [^\n]+: TypeError: [^\n]+\n {4}at /);
  });
});

describe("a command says an expected failure in one line and keeps a bug's trace (issue 25)", () => {
  const BIN = join(ROOT, "dist/tools/preview-summary/cli.js");
  const dir = mkdtempSync(join(tmpdir(), "expected-errors-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], input: string) => spawnSync(process.execPath, args, { input, encoding: "utf8" });

  it("guardrails-preview-summary --drift: a failed preview is one line; a TypeError prints its stack", () => {
    const failed = run(
      [BIN, "--drift"],
      JSON.stringify({ steps: [], diagnostics: [{ severity: "error", message: "boom" }] }),
    );
    expect(failed.status).toBe(2);
    expect(failed.stderr).toBe(
      "guardrails-preview-summary --drift: the preview reported 1 error(s), so drift is unknown; the first: boom\n",
    );
    // A bug planted where the command writes its report, inside the code that reports failures.
    const plant = join(dir, "bug.cjs");
    writeFileSync(plant, 'process.stdout.write = () => { throw new TypeError("planted bug"); };\n');
    const bug = run(["--require", plant, BIN, "--drift"], JSON.stringify({ steps: [] }));
    expect(bug.status).toBe(2);
    expect(bug.stderr).toMatch(/^guardrails-preview-summary --drift: TypeError: planted bug\n {4}at /);
  });
});

/** Names of the classes that a file declares as `class X extends Y`. */
function declaredClasses(): Array<{ file: string; name: string; base: string }> {
  return SOURCES.flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(/\bclass (\w+) extends ([\w.]+)/g)].map((m) => ({
      file,
      name: m[1]!,
      base: m[2]!,
    })),
  );
}

/** Whether a declared class reaches `UserError` through the classes declared in the tree. */
function reachesUserError(name: string, classes = declaredClasses()): boolean {
  for (let at: string | undefined = name, hops = 0; at && hops < 10; hops++) {
    if (at === "UserError") return true;
    at = classes.find((c) => c.name === at)?.base;
  }
  return false;
}

describe("one base for failures meant for a person (issues 24, 25)", () => {
  it("every error class of the library and its tools is expected: one line, no trace", async () => {
    const { isExpected } = await import("../../src/dynamic/expected-errors");
    const { UserError } = await import("../../src/core/user-error");
    const found: string[] = [];
    const declared = new Set(declaredClasses().map((c) => c.name));
    for (const file of SOURCES.filter((f) => !RUNS_ON_LOAD.test(f))) {
      const mod = (await import(join(ROOT, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (
          typeof value !== "function" ||
          !declared.has(name) ||
          !(value.prototype instanceof Error || value === UserError)
        )
          continue;
        found.push(name);
        // The prototype alone: constructors take different arguments, and instanceof reads only the chain.
        expect(isExpected(Object.create(value.prototype as object)), `${file}: ${name}`).toBe(true);
      }
    }
    // Every class that extends an error class is among them, so none escapes the check; a
    // command's own (UsageError) cannot be loaded, so its chain is read from the source.
    const errorClasses = declaredClasses().filter((c) => /Error$/.test(c.base) && c.name !== "DeadlinePassed");
    const unloadable = errorClasses.filter((c) => RUNS_ON_LOAD.test(c.file));
    expect(unloadable.map((c) => c.name)).toEqual(["UsageError"]);
    for (const c of unloadable) expect(reachesUserError(c.name), `${c.file}: ${c.name}`).toBe(true);
    expect([...new Set([...found, ...unloadable.map((c) => c.name)])].sort()).toEqual(
      [...new Set(errorClasses.map((c) => c.name))].sort(),
    );
    expect(found).toEqual(
      expect.arrayContaining([
        "DriftUnknownError",
        "ExportConflictError",
        "ExportOptionsError",
        "ExportSelectionError",
        "ExportTargetError",
        "PolicyOptionsError",
      ]),
    );
    expect(found.length).toBeGreaterThan(20);
  });

  it("only the base extends Error; a plain Error is thrown only where it would be a bug", () => {
    // DeadlinePassed is the client's own abort reason: caught in the transport, never thrown out of it.
    expect(
      declaredClasses()
        .filter((c) => c.base === "Error")
        .map((c) => `${c.file}: ${c.name}`),
    ).toEqual(["src/core/client/transport.ts: DeadlinePassed", "src/core/user-error.ts: UserError"]);
    const plain = SOURCES.flatMap((file) =>
      (readFileSync(join(ROOT, file), "utf8").match(/new Error\(/g) ?? []).map(() => file),
    );
    // redaction.ts copies a cause chain (never thrown); resource/annotate.ts's annotateAs (which the
    // policy lifecycles use too) wraps a thrown non-Error, which is a bug; the program writers
    // (export/program-*.ts) meet a property type the package schema never has, which is a bug.
    expect(plain).toEqual([
      "src/core/client/redaction.ts",
      "src/core/resource/annotate.ts",
      "src/export/program-go.ts",
      "src/export/program-walk.ts",
    ]);
    // Clean errors are marked one way: the base's brand, which Pulumi reads to print the message alone.
    const marks = SOURCES.filter((file) =>
      /RunError|__pulumiRunError|constructor === Error/.test(readFileSync(join(ROOT, file), "utf8")),
    );
    expect(marks).toEqual(["src/core/user-error.ts"]);
  });
});
