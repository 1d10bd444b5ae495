/**
 * A workspace policy's previews under the real pulumi CLI on the dynamic face: each member and
 * key that joins or leaves is named (`memberUserIds: { + user_dave: true }`), never a list index
 * (core/policies/id-maps.ts), and the program reads each list back as the sorted ids.
 */
import { describe, expect, it } from "vitest";
import { marked } from "../helpers/preview-marks";
import { useProgram } from "./harness";

const program = (members: string[]) => `
import { BudgetPolicy } from "pulumi-guardrails";

const budget = new BudgetPolicy("eng-budget", {
  workspaceId: "default",
  name: "Eng budget",
  limitUsd: 50,
  resetInterval: "monthly",
  memberUserIds: ${JSON.stringify(members)},
  keyHashes: [],
});
export const members = budget.memberUserIds;
`;

describe("a policy's id lists under the real CLI (dynamic face)", () => {
  const p = useProgram("policy-previews-e2e", { up: program(["user_bob", "user_alice", "user_carol"]) });

  it("a member change previews as named members joining and leaving; the output is the sorted list", async () => {
    expect((await p.outputs()).members).toEqual(["user_alice", "user_bob", "user_carol"]);
    p.write(program(["user_alice", "user_carol", "user_dave"]));
    const preview = await p.preview();
    expect(preview.code).toBe(0);
    expect(marked(preview.stdout, "eng-budget")).toEqual([
      "~ memberUserIds: {",
      "- user_bob: true",
      "+ user_dave: true",
    ]);
    // The stack output is the program's list and diffs by index; the resource's part names ids.
    const resource = preview.stdout.split("--outputs:--")[0]!;
    expect(resource, preview.stdout).not.toMatch(/\[\d+\]: "user_/);
    await p.up();
    expect((await p.outputs()).members).toEqual(["user_alice", "user_carol", "user_dave"]);
    const again = await p.preview();
    expect(marked(again.stdout, "eng-budget")).toEqual([]);
  });
});
