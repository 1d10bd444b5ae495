/**
 * Member assignment sets under the real pulumi CLI: drift found by refresh and repaired by
 * up, previews that name members (not list indices), destroy that spares foreign members.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { summarizePreview } from "../../src/preview/summary";
import { useProgram } from "./harness";
import { marked } from "../helpers/preview-marks";
import { assignedMembers } from "../helpers/assigned";

const program = (members: string[], exclusive: boolean) => `
import { Guardrail, GuardrailMemberAssignment, GuardrailKeyAssignment } from "pulumi-guardrails";

const eng = new Guardrail("eng", { name: "Engineering" });
const ops = new Guardrail("ops", { name: "Operations" });
new GuardrailMemberAssignment("eng-members", { guardrailId: eng.id, memberUserIds: ${JSON.stringify(members)}, exclusive: ${exclusive} });
new GuardrailKeyAssignment("eng-keys", { guardrailId: eng.id, keyHashes: ["a1b2c3d4e5f60718"] });
export const engId = eng.id;
export const opsId = ops.id;
`;

const members = assignedMembers;

describe("member sets under the real CLI", () => {
  const p = useProgram("assignments-e2e", { up: program(["user_alice", "user_bob", "user_carol"], true) });
  let eng: string;
  let ops: string;
  beforeAll(async () => {
    ({ engId: eng, opsId: ops } = await p.outputs());
  });

  it("7. a member change previews as named members added and removed, never list indices", async () => {
    p.write(program(["user_alice", "user_carol", "user_dave"], true));
    const preview = await p.preview();
    expect(preview.code).toBe(0);
    expect(marked(preview.stdout, "eng-members")).toEqual(["~ members: {", "- user_bob: true", "+ user_dave: true"]);
    expect(preview.stdout).not.toMatch(/\[\d+\]: "user_/);
    await p.up();
    expect(await members(p, eng)).toEqual(["user_alice", "user_carol", "user_dave"]);
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });

  /** A hand change to eng's members: refresh finds it, the preview marks `lines` on eng-members, up puts the program's members back. */
  async function refreshedAndRepaired(lines: string[]) {
    await p.refresh();
    const preview = await p.preview();
    expect(marked(preview.stdout, "eng-members")).toEqual(lines);
    await p.up();
    expect(await members(p, eng)).toEqual(["user_alice", "user_carol", "user_dave"]);
  }

  it("3b. a member added by hand (exclusive) is found by refresh and removed by up", async () => {
    await p.api("POST", `/guardrails/${eng}/assignments/members`, { member_user_ids: ["user_erin"] });
    await refreshedAndRepaired(["~ members: {", '- user_erin: "assigned here, not in the program"']);
  });

  it("3c. a member removed by hand is found by refresh and put back by up", async () => {
    await p.api("POST", `/guardrails/${eng}/assignments/members/remove`, { member_user_ids: ["user_carol"] });
    const refreshed = await p.pulumi(["refresh", "--preview-only", "--diff"], { check: true });
    expect(refreshed.stdout).toMatch(/user_carol\s*: true => "not assigned"/);
    await refreshedAndRepaired(["~ members: {", '~ user_carol: "not assigned" => true']);
  });

  it("3d. a member moved to another guardrail is found by refresh, named with its new guardrail, and moved back", async () => {
    await p.api("POST", `/guardrails/${ops}/assignments/members`, { member_user_ids: ["user_alice"] });
    await refreshedAndRepaired([
      "~ members: {",
      `~ user_alice: "on guardrail Operations (${ops.slice(0, 8)}…)" => true`,
    ]);
    expect(await members(p, ops)).toEqual([]);
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("an exclusive set adopted onto a guardrail with other members shows their removal in a refreshed preview before any up removes them", async () => {
    const legacy = (await p.api("POST", "/guardrails", { name: "Legacy" })).body.data.id;
    await p.api("POST", `/guardrails/${legacy}/assignments/members`, { member_user_ids: ["user_frank"] });
    p.write(
      program(["user_alice", "user_carol", "user_dave"], true) +
        `
new GuardrailMemberAssignment("legacy-members", { guardrailId: "${legacy}", memberUserIds: ["user_bob"], exclusive: true });
`,
    );
    await p.up();
    expect(await members(p, legacy)).toEqual(["user_bob", "user_frank"]);
    // The engine renders previews from inputs; the foreign member is in the outputs until a
    // refresh reads the live set, so the preview that names it is a refreshed one.
    const preview = await p.preview("--refresh");
    expect(marked(preview.stdout, "legacy-members")).toEqual([
      "~ members: {",
      '- user_frank: "assigned here, not in the program"',
    ]);
    await p.up();
    expect(await members(p, legacy)).toEqual(["user_bob"]);
    p.write(program(["user_alice", "user_carol", "user_dave"], true));
    await p.up();
    expect(await members(p, legacy)).toEqual([]);
    await p.api("DELETE", `/guardrails/${legacy}`);
  });

  it("ids that do not land fail the up with their names, and the engine records what did land", async () => {
    p.write(program(["user_alice", "user_carol", "user_dave", "user_ghost", "user_nobody"], true));
    const res = await p.pulumi(["up", "--yes", "--skip-preview"]);
    expect(res.code).not.toBe(0);
    expect(res.output).toContain(
      "2 member(s) did not land (the service skipped them; are they not members of the organization?): user_ghost, user_nobody",
    );
    const { json } = await p.exportState();
    const set = json.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::eng-members"));
    expect(set.outputs.members).toEqual({
      user_alice: true,
      user_carol: true,
      user_dave: true,
      user_ghost: "not assigned",
      user_nobody: "not assigned",
    });
    expect(set.inputs.__provider).toBeDefined();
    p.write(program(["user_alice", "user_carol", "user_dave"], true));
    await p.up();
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("an added member who sits on a guardrail no program manages previews with where he comes from, in the PR summary too, and up warns (issue 24, finding 19)", async () => {
    const legacy = (await p.api("POST", "/guardrails", { name: "Legacy Sales" })).body.data.id;
    await p.api("POST", `/guardrails/${legacy}/assignments/members`, { member_user_ids: ["user_erin"] });
    p.write(program(["user_alice", "user_carol", "user_dave", "user_erin"], true));
    const from = `from guardrail Legacy Sales (${legacy.slice(0, 8)}…)`;
    expect(marked((await p.preview()).stdout, "eng-members")).toEqual([
      "~ members: {",
      "+ user_erin: true",
      "+ moves: {",
      `+ user_erin: "${from}"`,
    ]);
    const json = JSON.parse((await p.pulumi(["preview", "--json"], { check: true })).stdout);
    expect(summarizePreview(json)).toContain("- added: `user_erin` (moves from `Legacy Sales`)");
    const up = await p.up();
    expect(up.output).toContain(
      `warning: GuardrailMemberAssignment for guardrail ${eng}: moved 1 member(s) here from other guardrails: user_erin (${from})`,
    );
    expect(await members(p, legacy)).toEqual([]);
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
    p.write(program(["user_alice", "user_carol", "user_dave"], true));
    await p.up();
    await p.api("DELETE", `/guardrails/${legacy}`);
  });

  it("5. destroy removes what the stack created and leaves members someone else assigned (additive)", async () => {
    p.write(program(["user_alice", "user_carol", "user_dave"], false));
    await p.up();
    await p.api("POST", `/guardrails/${ops}/assignments/members`, { member_user_ids: ["user_frank"] });
    const other = (await p.api("POST", "/guardrails", { name: "Someone else's" })).body.data.id;
    await p.api("POST", `/guardrails/${other}/assignments/members`, { member_user_ids: ["user_bob"] });
    await p.api("POST", `/guardrails/${eng}/assignments/members`, { member_user_ids: ["user_erin"] });
    await p.clearLog();
    await p.destroy();
    const log = await p.log();
    expect(log.counts.unassignMembers).toBe(1);
    expect(log.counts.unassignKeys).toBe(1);
    expect(log.counts.deleteGuardrail).toBe(2);
    expect((await p.api("GET", "/guardrails")).body.data.map((g: { name: string }) => g.name)).toEqual([
      "Someone else's",
    ]);
    expect(await members(p, other)).toEqual(["user_bob"]);
  });
});
