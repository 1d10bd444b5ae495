/**
 * Issue 24, finding 19: a set that adds an id sitting on another guardrail (one no program
 * manages) moves it there. `check` records where each added id is now as `moves`, so the
 * preview and the PR summary say so, and the `up` warns from it without another call. Calls
 * are counted in the emulator's request log.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keyAssignment, memberAssignment } from "../../src/dynamic/internal";
import { useProviderEmulator, W2 } from "../helpers/emulator";

const emu = useProviderEmulator(
  {},
  { options: { members: ["user_a", "user_jon", "user_kim", "user_lee"], keyHashes: ["k1", "k2"] } },
);
const raw = () => emu.client();
const asMap = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));
const memberArgs = (guardrailId: string, ids: string[], extra: Record<string, unknown> = {}) => ({
  __provider: "p",
  guardrailId,
  members: asMap(ids),
  exclusive: false,
  ...extra,
});
const newGuardrail = async (name: string, workspace?: string) =>
  (await raw().createGuardrail({ name, ...(workspace ? { workspace_id: workspace } : {}) })).id;
let stderr: string[];
beforeEach(() => {
  stderr = [];
  vi.spyOn(console, "error").mockImplementation((m: unknown) => void stderr.push(String(m)));
});
afterEach(() => vi.restoreAllMocks());

describe("where an added id is now", () => {
  it("an update's check records the move off an unmanaged guardrail; one in another workspace does not move, even beside one that does; the up warns with no extra call", async () => {
    const eng = await newGuardrail("Engineering");
    const legacy = await newGuardrail("Legacy Sales");
    const elsewhere = await newGuardrail("Other workspace", W2);
    const created = await memberAssignment.create(memberArgs(eng, ["user_a"]));
    await raw().assignMembers(legacy, ["user_jon"]);
    await raw().assignMembers(elsewhere, ["user_kim"]);
    // A member holds one guardrail per workspace: user_lee's row in the other workspace comes last.
    await raw().assignMembers(legacy, ["user_lee"]);
    await raw().assignMembers(elsewhere, ["user_lee"]);

    await emu.clearLog();
    const news = memberArgs(eng, ["user_a", "user_jon", "user_kim", "user_lee"]);
    const checked = await memberAssignment.check(memberArgs(eng, ["user_a"]), news);
    expect(checked.failures).toEqual([]);
    const from = `from guardrail Legacy Sales (${legacy.slice(0, 8)}…)`;
    expect(checked.inputs.moves).toEqual({ user_jon: from, user_lee: from });
    // One walk of the organization's assignments, and a GET of each guardrail involved (ours for its workspace).
    expect((await emu.log()).counts).toEqual({ listAllMemberAssignments: 1, getGuardrail: 3 });

    await emu.clearLog();
    await memberAssignment.update(created.id, created.outs, checked.inputs);
    expect((await emu.log()).counts).toEqual({ assignMembers: 1 });
    expect(stderr).toEqual([
      `warning: GuardrailMemberAssignment for guardrail ${eng}: moved 2 member(s) here from other guardrails: user_jon (${from}), user_lee (${from})`,
    ]);

    // The next change keeps what moved and is still listed, so its preview shows no `- moves` entry; a dropped id leaves.
    await emu.clearLog();
    const next = await memberAssignment.check(checked.inputs, memberArgs(eng, ["user_a", "user_jon", "user_kim"]));
    expect(next.inputs.moves).toEqual({ user_jon: from });
    expect((await emu.log()).total).toBe(0);
  });

  it("an id a refresh already placed on another guardrail is not looked up again: the preview says where it is", async () => {
    const eng = await newGuardrail("Refreshed");
    await emu.clearLog();
    const olds = {
      __provider: "p",
      guardrailId: eng,
      exclusive: false,
      members: { user_a: true, user_jon: "on guardrail Legacy Sales (3f2b8c1e…)" },
    };
    const checked = await memberAssignment.check(olds, memberArgs(eng, ["user_a", "user_jon"]));
    expect(checked.inputs).not.toHaveProperty("moves");
    expect((await emu.log()).total).toBe(0);
  });

  it("nothing added: no call and no moves; a secret list is never copied into moves", async () => {
    const eng = await newGuardrail("Quiet");
    const legacy = await newGuardrail("Legacy quiet");
    await raw().assignMembers(legacy, ["user_lee"]);
    await emu.clearLog();
    const same = await memberAssignment.check(memberArgs(eng, ["user_a"]), memberArgs(eng, ["user_a"]));
    expect(same.inputs).not.toHaveProperty("moves");
    const secret = await memberAssignment.check(
      memberArgs(eng, ["user_a"]),
      memberArgs(eng, ["user_a", "user_lee"], { __secretArgs: ["members"] }),
    );
    expect(secret.inputs).not.toHaveProperty("moves");
    expect((await emu.log()).total).toBe(0);
  });

  it("a new set lists its guardrail first: an adopted set in place costs one list and no walk; a key on another guardrail moves", async () => {
    const eng = await newGuardrail("Adopted");
    await raw().assignMembers(eng, ["user_a"]);
    await emu.clearLog();
    const adopted = await memberAssignment.check({}, memberArgs(eng, ["user_a"]));
    expect(adopted.inputs).not.toHaveProperty("moves");
    expect((await emu.log()).counts).toEqual({ listGuardrailMemberAssignments: 1 });

    const other = await newGuardrail("Key holder", W2);
    await raw().assignKeys(other, ["k2"]);
    const keys = await keyAssignment.check(
      {},
      { __provider: "p", guardrailId: eng.toUpperCase(), keys: asMap(["k1", "k2"]), exclusive: false },
    );
    expect(keys.inputs.moves).toEqual({ k2: `from guardrail Key holder (${other.slice(0, 8)}…)` });
    // `moves` is no arg: the next diff and create read the checked inputs as they are.
    expect(
      await keyAssignment.diff(`${eng}/keys`, { guardrailId: eng, exclusive: false, keys: { k1: true } }, keys.inputs),
    ).toMatchObject({ changes: true, replaces: [] });
    const made = await keyAssignment.create(keys.inputs);
    expect(made.outs.keys).toEqual({ k1: true, k2: true });
    expect(stderr).toEqual([
      expect.stringContaining("moved 1 key(s) here from other guardrails: k2 (from guardrail Key holder"),
    ]);
  });
});
