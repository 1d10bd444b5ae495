/**
 * Under the real pulumi CLI: an adopted guardrail survives dropping an explicit default
 * workspaceId (no replace, members kept), and flipping a member set between exclusive and
 * additive touches only what the program lists.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Program } from "./harness";
import { marked } from "../helpers/preview-marks";

const DEFAULT_WS = "00000000-0000-4000-8000-000000000001";

const program = (adoptId: string, opts: { ws?: string; exclusive: boolean }) => `
import { Guardrail, GuardrailMemberAssignment } from "pulumi-guardrails";

const eng = new Guardrail("eng", { name: "Engineering", limitUsd: 10, resetInterval: "daily", adoptId: "${adoptId}"${opts.ws ? `, workspaceId: "${opts.ws}"` : ""} });
new GuardrailMemberAssignment("eng-members", { guardrailId: eng.id, memberUserIds: ["user_alice", "user_bob"], exclusive: ${opts.exclusive} });
export const engId = eng.id;
`;

function ops(previewJson: string): string[] {
  return (JSON.parse(previewJson).steps ?? [])
    .filter((s: { urn: string }) => /Guardrail|Assignment/.test(s.urn))
    .map((s: { op: string; urn: string }) => `${s.urn.split("::").pop()}: ${s.op}`);
}

describe("adoption and set modes under the real CLI", () => {
  let p: Program;
  let adopted: string;
  const members = async () =>
    (
      (await p.api("GET", `/guardrails/${adopted}/assignments/members?limit=100`)).body.data as Array<{
        user_id: string;
      }>
    )
      .map((r) => r.user_id)
      .sort();

  beforeAll(async () => {
    p = await Program.create("adoption-e2e");
    adopted = (await p.api("POST", "/guardrails", { name: "Legacy engineering" })).body.data.id;
  });
  afterAll(() => p.close());

  it("adopting with an explicit default workspaceId, then dropping it: no replace, the guardrail and its members survive", async () => {
    p.write(program(adopted, { ws: DEFAULT_WS, exclusive: true }));
    await p.up();
    expect((await p.outputs()).engId).toBe(adopted);
    expect(await members()).toEqual(["user_alice", "user_bob"]);

    p.write(program(adopted, { exclusive: true }));
    const preview = await p.pulumi(["preview", "--json"], { check: true });
    // The JSON lists only steps that do something; a replace would be "eng: replace".
    expect(ops(preview.stdout).filter((o) => !o.endsWith(": same"))).toEqual([]);
    await p.clearLog();
    await p.up();
    const log = await p.log();
    expect(log.counts.deleteGuardrail ?? 0).toBe(0);
    expect(log.counts.createGuardrail ?? 0).toBe(0);
    expect((await p.outputs()).engId).toBe(adopted);
    expect((await p.api("GET", `/guardrails/${adopted}`)).body.data).toMatchObject({
      name: "Engineering",
      workspace_id: DEFAULT_WS,
      limit_usd: 10,
    });
    expect(await members()).toEqual(["user_alice", "user_bob"]);
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("exclusive -> additive with a member assigned by hand: the member stays", async () => {
    await p.api("POST", `/guardrails/${adopted}/assignments/members`, { member_user_ids: ["user_erin"] });
    await p.refresh();
    p.write(program(adopted, { exclusive: false }));
    const preview = await p.preview();
    // The engine renders the recorded inputs against the program's: the foreign member leaves
    // the state (a "-" line) while `exclusive` turns false; the up unassigns nobody.
    expect(marked(preview.stdout, "eng-members")).toEqual([
      "~ exclusive: true => false",
      "~ members: {",
      '- user_erin: "assigned here, not in the program"',
    ]);
    await p.clearLog();
    await p.up();
    expect((await p.log()).counts.unassignMembers ?? 0).toBe(0);
    expect(await members()).toEqual(["user_alice", "user_bob", "user_erin"]);
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("additive -> exclusive records the hand-assigned member, a refreshed preview names it, and only the next up removes it", async () => {
    p.write(program(adopted, { exclusive: true }));
    await p.up();
    expect(await members()).toEqual(["user_alice", "user_bob", "user_erin"]);
    const preview = await p.preview("--refresh");
    expect(marked(preview.stdout, "eng-members")).toEqual([
      "~ members: {",
      '- user_erin: "assigned here, not in the program"',
    ]);
    await p.up();
    expect(await members()).toEqual(["user_alice", "user_bob"]);
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
    await p.destroy();
  });
});
