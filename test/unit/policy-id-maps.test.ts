/**
 * The dynamic policy classes register each id list as a map `{id: true}` (core/policies/id-maps.ts:
 * the engine previews a dynamic resource from its inputs and outputs, and names a map's keys but a
 * list's indices), and read each back as the sorted ids. Under Pulumi's mocks: no engine, no service.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isSecretEnvelope } from "../../src/core/markers";
import { ModerationPolicy } from "../../src/dynamic/policies";

const registered: Record<string, unknown>[] = [];
beforeAll(async () => {
  vi.stubEnv("GUARDRAILS_API_KEY", "test-key");
  vi.stubEnv("GUARDRAILS_BASE_URL", "http://127.0.0.1:9/api/v1");
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        registered.push(a.inputs);
        return { id: `${a.name}-id`, state: a.inputs };
      },
      call: (a) => a.inputs,
    },
    "policy-maps",
    "s",
    false,
  );
});
afterAll(() => vi.unstubAllEnvs());

const value = <T>(o: pulumi.Output<T>) => new Promise<T>((r) => o.apply(r));

describe("a policy's id lists on the dynamic face", () => {
  it("register as maps and read back as sorted lists; absent lists stay absent; a secret list stays secret", async () => {
    const p = new ModerationPolicy("mod", {
      workspaceId: "default",
      name: "Mod",
      memberUserIds: ["user_bob", "user_alice", "user_bob"],
      optedOutKeyHashes: pulumi.secret(["k2", "k1"]),
    });
    expect(await value(p.memberUserIds)).toEqual(["user_alice", "user_bob"]);
    expect(await value(p.optedOutKeyHashes)).toEqual(["k1", "k2"]);
    expect(await pulumi.isSecret(p.optedOutKeyHashes)).toBe(true);
    expect(await pulumi.isSecret(p.memberUserIds)).toBe(false);
    expect(await value(p.keyHashes)).toEqual([]);
    const inputs = registered.at(-1)!;
    expect(inputs.memberUserIds).toEqual({ user_alice: true, user_bob: true });
    expect(isSecretEnvelope(inputs.optedOutKeyHashes)).toBe(true);
    expect((inputs.optedOutKeyHashes as { value: unknown }).value).toEqual({ k1: true, k2: true });
    expect(inputs).not.toHaveProperty("keyHashes");
    expect(inputs.__secretArgs).toEqual(["optedOutKeyHashes"]);
  });
});
