/**
 * Issue 40, third attack pass: the two faces given the same wrong-typed id list. The native face
 * checks the list the engine sends; the dynamic class first turns each id list into a map
 * `{id: true}` (core/policies/id-maps.ts), and that conversion must not make a bad list look
 * good (a string spread into its letters, a null turned into the id "null") or throw inside the
 * program. Under Pulumi's mocks (the dynamic class) and the native service in this process;
 * no call reaches a service (a check that fails calls nothing).
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ModerationPolicy } from "../../src/dynamic/policies";
import { moderationPolicy } from "../../src/dynamic/internal";
import { nativeService, urnOf } from "../helpers/native-service";

const registered = new Map<string, Record<string, unknown>>();
const errors: unknown[] = [];
const onError = (e: unknown) => errors.push(e);
beforeAll(async () => {
  vi.stubEnv("GUARDRAILS_API_KEY", "test-key");
  vi.stubEnv("GUARDRAILS_BASE_URL", "http://127.0.0.1:9/api/v1");
  process.on("unhandledRejection", onError);
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        registered.set(a.name, a.inputs);
        return { id: `${a.name}-id`, state: a.inputs };
      },
      call: (a) => a.inputs,
    },
    "policy-parity",
    "s",
    false,
  );
});
afterAll(() => {
  process.off("unhandledRejection", onError);
  vi.unstubAllEnvs();
});

/** What the dynamic class registers for `memberUserIds`, once its outputs settle. */
async function registeredFor(name: string, memberUserIds: unknown): Promise<Record<string, unknown>> {
  const p = new ModerationPolicy(name, { workspaceId: "default", name, memberUserIds } as never);
  await new Promise<void>((r) => p.urn.apply(() => r()));
  await new Promise((r) => setTimeout(r, 20));
  return registered.get(name)!;
}

const BAD: Array<[string, unknown]> = [
  ["a string, not a list", "user_alice"],
  ["a null entry", ["user_alice", null]],
  ["a number entry", ["user_alice", 5]],
  ["an object entry", [{ id: "user_alice" }]],
];

describe("a wrong-typed id list on both faces", () => {
  it.each(BAD)("D01 %s: both faces refuse it at check, naming memberUserIds", async (what, list) => {
    const name = `d01-${what.replace(/\W+/g, "-")}`;
    const inputs = await registeredFor(name, list);
    expect(errors).toEqual([]);
    const dyn = await moderationPolicy.check({}, inputs as never);
    const dynFailures = (dyn.failures ?? []) as Array<{ property: string; reason: string }>;
    const s = await nativeService("http://127.0.0.1:9/api/v1");
    const nat = await s.check(urnOf("ModerationPolicy"), { workspaceId: "default", name, memberUserIds: list });
    expect(nat.failures.map((f) => `${f.property} ${f.reason}`).join(" ")).toContain("memberUserIds");
    expect(
      dynFailures.map((f) => `${f.property} ${f.reason}`).join(" "),
      JSON.stringify({ m: inputs.memberUserIds, dynFailures }),
    ).toContain("memberUserIds");
  });
});
