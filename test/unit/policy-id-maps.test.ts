/**
 * The dynamic policy classes register each id list as a map `{id: true}` (core/policies/id-maps.ts:
 * the engine previews a dynamic resource from its inputs and outputs, and names a map's keys but a
 * list's indices), and read each back as the sorted ids; so does the WorkspaceWidePolicy for the
 * workspaces it covers, and `idMapFace` converts at the core's edge for its lists too. Under
 * Pulumi's mocks: no engine, no service.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { asSecret, isSecretEnvelope } from "../../src/core/markers";
import { idMapFace } from "../../src/core/policies/id-maps";
import { COVERAGE_LISTS } from "../../src/core/policies/workspace-wide-model";
import type { Lifecycle } from "../../src/core/results";
import { ModerationPolicy } from "../../src/dynamic/policies";
import { WorkspaceWidePolicy } from "../../src/dynamic/workspace-wide-policy";

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

describe("a WorkspaceWidePolicy's coverage lists on the dynamic face", () => {
  it("register as maps and read back as sorted lists; absent stays absent; a secret list stays secret", async () => {
    const w = new WorkspaceWidePolicy("wide", {
      name: "Org budget",
      policyType: "budget",
      limitUsd: 10,
      workspaceIds: ["ws-b", "ws-a", "ws-b"],
      optedOutWorkspaceIds: pulumi.secret(["ws-c"]),
    });
    expect(await value(w.workspaceIds)).toEqual(["ws-a", "ws-b"]);
    expect(await value(w.optedOutWorkspaceIds)).toEqual(["ws-c"]);
    expect(await pulumi.isSecret(w.optedOutWorkspaceIds)).toBe(true);
    const inputs = registered.at(-1)!;
    expect(inputs.workspaceIds).toEqual({ "ws-a": true, "ws-b": true });
    expect(isSecretEnvelope(inputs.optedOutWorkspaceIds)).toBe(true);
    expect((inputs.optedOutWorkspaceIds as { value: unknown }).value).toEqual({ "ws-c": true });
    const bare = new WorkspaceWidePolicy("bare", { name: "All", policyType: "moderation", allWorkspaces: true });
    expect(await value(bare.workspaceIds)).toEqual([]);
    expect(registered.at(-1)).not.toHaveProperty("workspaceIds");
  });
});

describe("idMapFace over a WorkspaceWidePolicy's lists", () => {
  /** A core that records what it was given and answers its news back as properties (with a list-shaped `args`). */
  function recordingCore() {
    const given: Record<string, unknown>[] = [];
    const core: Lifecycle = {
      check: async (_o, news) => {
        given.push(news);
        return { inputs: news, failures: [{ property: "workspaceIds[1]", reason: "must be a UUID" }] };
      },
      diff: async (_id, olds, news) => {
        given.push(olds, news);
        return { changes: [] };
      },
      create: async (news) => {
        given.push(news);
        return { id: "p1", properties: { ...news, args: { workspaceIds: news.workspaceIds } } };
      },
      read: async (_id, props) => {
        given.push(props);
        return { id: "p1", properties: props, inputs: props };
      },
      update: async (_id, _olds, news) => ({ properties: news }),
      delete: async () => {},
    };
    return { core, given };
  }

  it("gives the core lists and answers maps, in the state and its args; a failure names the entry by id", async () => {
    const { core, given } = recordingCore();
    const face = idMapFace(core, Object.keys(COVERAGE_LISTS));
    const news = {
      name: "Org",
      workspaceIds: { "ws-b": true, "ws-a": true },
      optedOutWorkspaceIds: asSecret({ "ws-c": true }),
    };
    const checked = await face.check({}, news);
    expect(given.at(-1)!.workspaceIds).toEqual(["ws-a", "ws-b"]);
    expect(checked.failures).toEqual([{ property: 'workspaceIds["ws-b"]', reason: "must be a UUID" }]);
    const made = await face.create(news);
    expect(given.at(-1)!.workspaceIds).toEqual(["ws-a", "ws-b"]);
    expect((given.at(-1)!.optedOutWorkspaceIds as { value: unknown }).value).toEqual(["ws-c"]);
    expect(made.properties.workspaceIds).toEqual({ "ws-a": true, "ws-b": true });
    expect((made.properties.args as Record<string, unknown>).workspaceIds).toEqual({ "ws-a": true, "ws-b": true });
    await face.diff("p1", made.properties, news);
    expect(given.at(-2)!.workspaceIds).toEqual(["ws-a", "ws-b"]);
    expect(given.at(-1)!.workspaceIds).toEqual(["ws-a", "ws-b"]);
    const r = await face.read("p1", made.properties);
    expect(r!.inputs.workspaceIds).toEqual({ "ws-a": true, "ws-b": true });
  });
});
