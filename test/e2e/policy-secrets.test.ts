/**
 * Every copy of a secret is a secret, for the Guardrail Policies (issue 40): one program per face
 * whose policies hold every arg as a secret (names, limits, members, keys, opt-outs, a content
 * filter's pattern and label, a workspace-wide policy's coverage), through preview, up, a
 * no-change preview, refresh, another no-change preview and destroy. No CLI output and no plain
 * `pulumi stack export` holds any of the values; `--show-secrets` finds them, so the greps can fail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NATIVE_BIN } from "../helpers/parity-face";
import { Program } from "./harness";

/** Values no CLI output would hold by accident: long, and in no other test's data. */
const S = {
  ws: "5ec7e7a0-d00d-4bad-9c0d-f00dcafe7a11",
  budgetName: "SECRET-BUDGET-NAME-11aa",
  modelsName: "SECRET-MODELS-NAME-22bb",
  moderationName: "SECRET-MOD-NAME-33cc",
  wideName: "SECRET-WIDE-NAME-44dd",
  member: "user_SECRET-MEMBER-a81c3f",
  optedOut: "user_SECRET-OPTOUT-b92d4e",
  key: "SECRETKEYHASH9d27e4c1",
  provider: "secret-prov-5e1d0a93",
  pattern: "SECRET-RX-0c9b7e[0-9]+",
  label: "SECRET-LABEL-4e2a91",
  limit: "4321.987",
  wideLimit: "8765.123",
};
const VALUES = Object.values(S);
const found = (text: string) => VALUES.filter((v) => text.includes(v));

const program = (from: string) => `
import * as pulumi from "@pulumi/pulumi";
import { BudgetPolicy, ModelAccessPolicy, ModerationPolicy, WorkspaceWidePolicy } from "${from}";
const s = pulumi.secret;
new BudgetPolicy("budget", {
  workspaceId: s(${JSON.stringify(S.ws)}),
  name: s(${JSON.stringify(S.budgetName)}),
  limitUsd: s(${S.limit}),
  resetInterval: s("monthly"),
  memberUserIds: s([${JSON.stringify(S.member)}]),
  keyHashes: s([${JSON.stringify(S.key)}]),
});
new ModelAccessPolicy("models", {
  workspaceId: s(${JSON.stringify(S.ws)}),
  name: s(${JSON.stringify(S.modelsName)}),
  allowedProviders: s([${JSON.stringify(S.provider)}]),
  workspaceDefault: s(true),
  optedOutMemberUserIds: s([${JSON.stringify(S.optedOut)}]),
  optedOutKeyHashes: s([]),
});
new ModerationPolicy("moderation", {
  workspaceId: s(${JSON.stringify(S.ws)}),
  name: s(${JSON.stringify(S.moderationName)}),
  // Secrets inside a value, and one inside a list.
  contentFilters: [{ pattern: s(${JSON.stringify(S.pattern)}), action: s("flag"), label: s(${JSON.stringify(S.label)}) }],
  memberUserIds: [s(${JSON.stringify(S.optedOut)})],
});
new WorkspaceWidePolicy("wide", {
  name: s(${JSON.stringify(S.wideName)}),
  policyType: "budget",
  limitUsd: s(${S.wideLimit}),
  resetInterval: s("weekly"),
  workspaceIds: s([${JSON.stringify(S.ws)}]),
});
`;

describe.each(["pulumi-guardrails", "pulumi-guardrails/native"])(
  "policies whose every arg is a secret (%s)",
  (from) => {
    let p: Program;
    beforeAll(async () => {
      p = await Program.create("policy-secrets-e2e", {
        emulatorArgs: ["--workspaces", S.ws, "--members", `${S.member},${S.optedOut}`, "--key-hashes", S.key],
      });
      if (from.endsWith("/native")) {
        p.env.PATH = `${NATIVE_BIN}:${p.env.PATH}`;
        p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
      }
      p.write(program(from));
    });
    afterAll(async () => {
      await p.close();
    });

    it("no CLI output and no plain state export holds a value, through up, refresh and destroy", async () => {
      const printed: Array<[string, string]> = [];
      for (const [step, args] of [
        ["preview", ["preview", "--diff"]],
        ["up", ["up", "--yes", "--skip-preview", "--diff"]],
        ["no-change preview", ["preview", "--diff", "--expect-no-changes"]],
        ["refresh", ["refresh", "--yes", "--skip-preview", "--diff"]],
        ["no-change preview after refresh", ["preview", "--diff", "--expect-no-changes"]],
      ] as const) {
        const r = await p.pulumi([...args]);
        printed.push([step, r.output]);
        expect(r.code, `${step}\n${r.output}`).toBe(0);
      }
      printed.push(["stack export", (await p.exportState()).text]);
      for (const [step, text] of printed) expect({ step, found: found(text) }).toEqual({ step, found: [] });
      // The greps can fail: the opened state holds the values.
      expect(found((await p.pulumi(["stack", "export", "--show-secrets"])).stdout).length).toBeGreaterThan(8);
      const destroy = await p.pulumi(["destroy", "--yes", "--skip-preview"]);
      expect(destroy.code, destroy.output).toBe(0);
      expect(found(destroy.output)).toEqual([]);
    });
  },
);
