/**
 * A wrong base URL must never wipe the stack: `pulumi refresh` with `guardrails:baseUrl` set
 * to the URL plus `/api/v1` works (the suffix is stripped), and with a prefix the service
 * does not serve it fails naming the URL; either way nothing leaves the state. Issue 24: that
 * failure is said once per run without a stack trace, and a plain refresh after the URL was
 * corrected (which still uses the URL recorded in the state) says to use `--run-program`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Program } from "./harness";

const PROGRAM = `
import { Guardrail, GuardrailMemberAssignment, GuardrailKeyAssignment } from "pulumi-guardrails";
const g = new Guardrail("eng", { name: "Engineering", limitUsd: 5, resetInterval: "daily" });
new GuardrailMemberAssignment("eng-members", { guardrailId: g.id, memberUserIds: ["user_alice", "user_bob"] });
new GuardrailKeyAssignment("eng-keys", { guardrailId: g.id, keyHashes: ["a1b2c3d4e5f60718"] });
export const id = g.id;
`;

describe("a wrong guardrails:baseUrl never deletes anything from state", () => {
  let p: Program;
  beforeAll(async () => {
    p = await Program.create("base-url-e2e");
    p.write(PROGRAM);
    await p.up();
  });
  afterAll(() => p.close());

  const resourceCount = async () =>
    (await p.exportState()).json.deployment.resources.filter((r: { type: string }) =>
      r.type.startsWith("pulumi-nodejs:dynamic/guardrails:"),
    ).length;

  it("the URL plus /api/v1 (as the emulator's banner prints it) works: refresh finds no change", async () => {
    await p.pulumi(["config", "set", "guardrails:baseUrl", `${p.emulator.url}/api/v1`], { check: true });
    await p.pulumi(["refresh", "--yes", "--skip-preview", "--run-program", "--expect-no-changes"], { check: true });
    expect(await resourceCount()).toBe(3);
  });

  it("a prefix the service does not serve: refresh fails naming the URL, and the state keeps every resource", async () => {
    const wrong = `${p.emulator.url}/v2`;
    await p.pulumi(["config", "set", "guardrails:baseUrl", wrong], { check: true });
    const res = await p.pulumi(["refresh", "--yes", "--skip-preview", "--run-program"]);
    expect(res.code).not.toBe(0);
    expect(res.output).toContain("not reported as deleted");
    expect(res.output).toContain(`now "${wrong}"`);
    expect(res.output).not.toMatch(/deleted\s+\d|- \d+ deleted/);
    expect(res.output).not.toMatch(/^\s+at /m); // an expected failure prints no stack trace
    expect(await resourceCount()).toBe(3);
    await p.pulumi(["config", "set", "guardrails:baseUrl", p.emulator.url], { check: true });
    // A plain refresh configures the provider from the state, so it still uses the wrong URL: the
    // error says so, once for the three resources, and names the way out.
    const stale = await p.pulumi(["refresh", "--yes", "--skip-preview"]);
    expect(stale.code).not.toBe(0);
    const diag = stale.output.slice(stale.output.indexOf("Diagnostics:"));
    expect(diag.split(`now "${wrong}"`).length - 1).toBe(1);
    expect(diag.split("run `pulumi refresh --run-program` or `pulumi up`").length - 1).toBe(1);
    expect(diag.split("for the reason the first error of this run gives").length - 1).toBe(2);
    expect(stale.output).not.toMatch(/^\s+at /m);
    expect(await resourceCount()).toBe(3);
    await p.pulumi(["refresh", "--yes", "--skip-preview", "--run-program", "--expect-no-changes"], { check: true });
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
    const state = (await p.api("GET", "/guardrails")).body as { data: unknown[] };
    expect(state.data).toHaveLength(1);
  });
});
