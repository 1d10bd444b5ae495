/**
 * `declareGuardrailFiles` registers the files' policies (issue 40) as the package's resources:
 * which type, which logical name, which args. Pulumi's own resource mocks record the
 * registrations (no service is called: a registration is what is checked here; the lifecycles
 * have their own tests over the emulator).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, expect, it } from "vitest";
import { KINDS } from "../../src/core/kinds";

const registered: Array<{ type: string; name: string; inputs: Record<string, unknown> }> = [];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "gr-declare-policies-"));
  // The resources check their configuration at construction; no call reaches this URL.
  process.env.GUARDRAILS_API_KEY = "sk-test";
  process.env.GUARDRAILS_BASE_URL = "http://127.0.0.1:9/api/v1";
  pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: () => ({}),
    },
    "p",
    "s",
    false,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a BudgetPolicy, ModelAccessPolicy, ModerationPolicy per policies: entry and a WorkspaceWidePolicy per workspaceWidePolicies: entry", async () => {
  writeFileSync(
    join(dir, "p.yaml"),
    `policies:
  production:
    budget:
      eng: { name: Eng, limitUsd: 10, resetInterval: daily, memberUserIds: [user_a] }
    modelAccess:
      eu: { name: EU, allowedDataRegions: [europe], workspaceDefault: true, optedOutKeyHashes: [k1] }
    moderation:
      pii: { name: PII, contentFilterBuiltins: [{ slug: email, action: redact }] }
workspaceWidePolicies:
  cap: { name: Cap, policyType: budget, limitUsd: 100, resetInterval: monthly, allWorkspaces: true }
`,
  );
  const { declareGuardrailFiles } = await import("../../src/declarative/declare");
  const out = declareGuardrailFiles(dir, { namePrefix: "t-" });
  expect(Object.keys(out.policies)).toEqual(["eng", "eu", "pii"]);
  expect(Object.keys(out.workspaceWidePolicies)).toEqual(["cap"]);
  await new Promise((r) => setTimeout(r, 50));
  registered.sort((a, b) => a.name.localeCompare(b.name));
  const seen = registered.map((r) => [r.type, r.name]);
  expect(seen).toEqual([
    [KINDS.BudgetPolicy.dynamicToken, "t-policy.eng"],
    [KINDS.ModelAccessPolicy.dynamicToken, "t-policy.eu"],
    [KINDS.ModerationPolicy.dynamicToken, "t-policy.pii"],
    [KINDS.WorkspaceWidePolicy.dynamicToken, "t-workspace-wide-policy.cap"],
  ]);
  expect(registered[1]!.inputs).toMatchObject({
    workspaceId: "production",
    name: "EU",
    allowedDataRegions: ["europe"],
    workspaceDefault: true,
    // The dynamic face registers id lists as maps `{id: true}` (core/policies/id-maps.ts).
    optedOutKeyHashes: { k1: true },
  });
  expect(registered[3]!.inputs).toMatchObject({ policyType: "budget", limitUsd: 100, allWorkspaces: true });
});
