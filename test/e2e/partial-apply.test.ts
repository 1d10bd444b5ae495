/**
 * Issue 38, class 1, under the real CLI on both faces: a partial apply records exactly what
 * landed. One stack per face, two guardrails (an additive set on one, an exclusive set on the
 * other), and the emulator's scripted faults: a bulk call lands but loses its answer, the retry
 * answers a count of 0, and the re-list that would settle it gets 503s, so the `up` fails. For
 * the assign step and the unassign step, in each mode: after the failed `up`, state (`pulumi
 * stack export`) and service agree (every id state says is here is; every id here is recorded
 * or marked unconfirmed), and the next `up`, the program dropping those members, leaves the
 * service exactly as the program says. Then the `up` after a failure on an unknown member: its
 * preview names what is pending (native), and the update the engine makes of a partly applied
 * resource reads the service (a broken base URL fails it) instead of "updating" nothing.
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { http, REPO_ROOT } from "../../support/spawn-emulator";
import { FOREIGN, UNCONFIRMED, UNCONFIRMED_FOREIGN } from "../../src/core/assignments/status";
import { assignedMembers } from "../helpers/assigned";
import { useProgram } from "./harness";

type Mode = "additive" | "exclusive";
type Sets = Record<Mode, string[]>;
const BASE: Sets = { additive: ["user_alice", "user_bob"], exclusive: ["user_erin", "user_frank"] };
const EXTRA: Sets = { additive: ["user_carol", "user_dave"], exclusive: ["user_gina", "user_hank"] };

const sets = (s: Sets, set: (mode: Mode, ids: string[]) => string) =>
  (["additive", "exclusive"] as const).map((m) => set(m, s[m])).join("\n");
// `flip`: the exclusive set's program says `exclusive: false`.
const PROGRAMS: Record<string, (s: Sets, flip?: boolean) => string> = {
  dynamic: (s, flip = false) => `
import { Guardrail, GuardrailMemberAssignment } from "pulumi-guardrails";
const g = { additive: new Guardrail("additive", { name: "Additive" }), exclusive: new Guardrail("exclusive", { name: "Exclusive" }) };
${sets(s, (m, ids) => `new GuardrailMemberAssignment("${m}-members", { guardrailId: g.${m}.id, memberUserIds: ${JSON.stringify(ids)}, exclusive: ${m === "exclusive" && !flip} });`)}
export const ids = { additive: g.additive.id, exclusive: g.exclusive.id };
`,
  native: (s, flip = false) => `
import * as pulumi from "@pulumi/pulumi";
// new pulumi.CustomResource(type, ...) as the generated SDK does (its class is abstract to the type checker).
class Native extends pulumi.CustomResource {}
const guardrail = (name: string) => new Native("guardrails:index:Guardrail", name, { name, guardrailId: undefined });
const g = { additive: guardrail("Additive"), exclusive: guardrail("Exclusive") };
${sets(s, (m, ids) => `new Native("guardrails:index:GuardrailMemberAssignment", "${m}-members", { guardrailId: g.${m}.id, memberUserIds: ${JSON.stringify(ids)}, exclusive: ${m === "exclusive" && !flip} });`)}
export const ids = { additive: g.additive.id, exclusive: g.exclusive.id };
`,
};

describe.each(Object.keys(PROGRAMS))("%s face: partial applies under scripted faults", (face) => {
  const p = useProgram(`partial-${face}`);
  const program = (s: Partial<Sets>, flip = false) => p.write(PROGRAMS[face]!({ ...BASE, ...s }, flip));
  let ids: Record<Mode, string>;
  beforeAll(async () => {
    p.env.PATH = `${join(REPO_ROOT, "src/native/bin")}:${p.env.PATH}`;
    await http(p.emulator.url)("POST", "/__emulator/members", { user_ids: ["user_gina", "user_hank"] });
    await p.pulumi(["config", "set", "guardrails:maxAttempts", "2"], { check: true });
    program({});
    await p.up();
    ({ ids } = await p.outputs());
  });

  /** The set's member map as `pulumi stack export` holds it. */
  const recorded = async (mode: Mode): Promise<Record<string, true | string>> => {
    const { json } = await p.exportState();
    const res = json.deployment.resources.find((r: { urn: string }) => r.urn.endsWith(`::${mode}-members`));
    return res.outputs.members;
  };
  const withStatus = (map: Record<string, true | string>, status: true | string) =>
    Object.keys(map)
      .filter((id) => map[id] === status)
      .sort();

  /** One failed `up`: `operation` lands and loses its answer, the retry counts 0, the re-list answers 503. */
  async function failedUp(operation: "assignMembers" | "unassignMembers") {
    await p.setFaults({
      script: [
        { operation, fault: "drop" },
        { operation: "listGuardrailMemberAssignments", fault: 503, times: 2 },
      ],
    });
    const res = await p.pulumi(["up", "--yes", "--skip-preview"]);
    await p.setFaults({ script: [] });
    expect(res.code, res.output).not.toBe(0);
    expect(res.output).toMatch(/did not say whether \d+ member\(s\) changed/);
    return res;
  }

  /** State and service agree: what state says is here is; what is here is recorded, or marked unconfirmed. */
  async function expectAgree(mode: Mode, unconfirmed: string[]) {
    const map = await recorded(mode);
    const live = await assignedMembers(p, ids[mode]);
    expect(withStatus(map, UNCONFIRMED)).toEqual(unconfirmed);
    expect(live).toEqual(expect.arrayContaining(withStatus(map, true)));
    expect([...withStatus(map, true), ...unconfirmed]).toEqual(expect.arrayContaining(live));
  }

  async function expectExactly(mode: Mode, members: string[]) {
    expect(await assignedMembers(p, ids[mode])).toEqual([...members].sort());
    expect(await recorded(mode)).toEqual(Object.fromEntries([...members].sort().map((id) => [id, true])));
  }

  describe.each(["additive", "exclusive"] as const)("%s set", (mode) => {
    it("assign landed unanswered, re-list failed: state marks the members; the next up, dropping them, removes them", async () => {
      program({ [mode]: [...BASE[mode], ...EXTRA[mode]] });
      await failedUp("assignMembers");
      expect(await assignedMembers(p, ids[mode])).toEqual([...BASE[mode], ...EXTRA[mode]].sort());
      await expectAgree(mode, EXTRA[mode]);
      program({});
      await p.up();
      await expectExactly(mode, BASE[mode]);
    });

    it("unassign landed unanswered, re-list failed: state never records it assigned; the next up settles it", async () => {
      const [kept, dropped] = BASE[mode] as [string, string];
      program({ [mode]: [kept] });
      await failedUp("unassignMembers");
      expect(await assignedMembers(p, ids[mode])).toEqual([kept]);
      await expectAgree(mode, [dropped]);
      await p.up();
      await expectExactly(mode, [kept]);
      // Back to BASE, so the next test's `up` changes one set only (the scripted fault hits the first call).
      program({});
      await p.up();
      await expectExactly(mode, BASE[mode]);
    });
  });

  it("after a failure on an unknown member, the next up reads the service before it says updated", async () => {
    program({ additive: ["user_alice", "user_ghost"] });
    const failed = await p.pulumi(["up", "--yes", "--skip-preview"]);
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/did not land/);
    program({ additive: ["user_alice"] });
    // The engine updates a partly applied resource even when nothing differs; the native face names what changes.
    const preview = await p.preview();
    if (face === "native") expect(preview.stdout).toMatch(/- user_ghost: "not assigned"/);
    const url = (await p.pulumi(["config", "get", "guardrails:baseUrl"], { check: true })).stdout.trim();
    await p.pulumi(["config", "set", "guardrails:baseUrl", "http://127.0.0.1:9"], { check: true });
    const broken = await p.pulumi(["up", "--yes", "--skip-preview"]);
    await p.pulumi(["config", "set", "guardrails:baseUrl", url], { check: true });
    expect(broken.code, broken.output).not.toBe(0);
    await p.up();
    await expectExactly("additive", ["user_alice"]);
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });

  // The attack pass's S6 (issue 38): last, since it leaves the exclusive set additive.
  it("an exclusive set's removal of a hand-assigned member lost, re-list failed, then additive: she stays", async () => {
    program({});
    await p.up();
    await expectExactly("exclusive", BASE.exclusive);
    await p.api("POST", `/guardrails/${ids.exclusive}/assignments/members`, { member_user_ids: ["user_gina"] });
    await p.refresh();
    expect((await recorded("exclusive")).user_gina).toBe(FOREIGN);
    await failedUp("unassignMembers");
    expect(await recorded("exclusive")).toEqual({ user_erin: true, user_frank: true, user_gina: UNCONFIRMED_FOREIGN });
    // Someone assigns her again; the program turns the set additive, which leaves her alone.
    await p.api("POST", `/guardrails/${ids.exclusive}/assignments/members`, { member_user_ids: ["user_gina"] });
    program({}, true);
    await p.up();
    expect(await assignedMembers(p, ids.exclusive)).toEqual([...BASE.exclusive, "user_gina"]);
    expect(await recorded("exclusive")).toEqual({ user_erin: true, user_frank: true });
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });
});
