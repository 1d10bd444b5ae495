/**
 * The dynamic WorkspaceWidePolicy hands the core its `project/stack/name` as the hidden input
 * `__resource`, which keys its create journal (core/resource/create-journal.ts), as the Guardrail
 * and the workspace policies do. Under Pulumi's mocks: no engine, no service.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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
    "wsw-proj",
    "dev",
    false,
  );
});
afterAll(() => vi.unstubAllEnvs());

describe("WorkspaceWidePolicy on the dynamic face", () => {
  it("passes its project/stack/name as __resource, the create journal's key", async () => {
    const p = new WorkspaceWidePolicy("org-budget", {
      name: "Org",
      policyType: "budget",
      limitUsd: 10,
      resetInterval: "monthly",
      allWorkspaces: true,
    });
    await new Promise<void>((r) => p.urn.apply(() => r()));
    expect(registered.at(-1)?.__resource).toBe("wsw-proj/dev/org-budget");
  });
});
