/**
 * Issue 43: the organization's assignment listing (the moves lookup of `check`, the reads that
 * name where a missing id went) is read at most once per provider process and kind, shared by
 * every set, kept true by the process's own writes; `guardrails:movesLookup` turns the lookup
 * into `preview-only` or `off`. Calls are counted in the emulator's request log.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { guardrail, keyAssignment, memberAssignment } from "../../src/dynamic/internal";
import { malformedSettings } from "../../src/core/settings/config-problems";
import { configureProvider, useProviderEmulator } from "../helpers/emulator";

const N = 2_000;
const many = Array.from({ length: N }, (_, i) => `user_${String(i).padStart(5, "0")}`);
const emu = useProviderEmulator(
  {},
  { options: { members: [...many, "user_a", "user_b", "user_jon", "user_kim"], keyHashes: ["k1", "k2", "k3"] } },
);
const raw = () => emu.client();
const asMap = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));
const args = (guardrailId: string, ids: string[], extra: Record<string, unknown> = {}) => ({
  __provider: "p",
  guardrailId,
  members: asMap(ids),
  exclusive: false,
  ...extra,
});
const keyArgs = (guardrailId: string, ids: string[]) => ({
  __provider: "p",
  guardrailId,
  keys: asMap(ids),
  exclusive: false,
});
const newGuardrail = async (name: string) => (await raw().createGuardrail({ name })).id;
/** Walks of each kind's org-wide listing: its first pages (offset 0) in the log. */
const walks = async () => {
  const { entries } = await emu.log();
  const first = (op: string) => entries.filter((e) => e.operation === op && !/[?&]offset=[1-9]/.test(e.query)).length;
  return { members: first("listAllMemberAssignments"), keys: first("listAllKeyAssignments") };
};
const from = (name: string, id: string) => `from guardrail ${name} (${id.slice(0, 8)}…)`;

beforeEach(() => vi.spyOn(console, "error").mockImplementation(() => undefined));
afterEach(() => vi.restoreAllMocks());

describe("one org-wide pass per provider process and kind", () => {
  it("a new set on a guardrail this process created walks without listing it first; on one it did not, it lists first", async () => {
    const legacy = await newGuardrail("Legacy");
    await raw().assignMembers(legacy, ["user_kim", "user_jon"]);
    const made = await guardrail.create({ __provider: "p", name: "Made here" });
    await emu.clearLog();
    // The create of `pulumi up` at N = 2,000: the check's walk, the create's list (adoption), 4 assigns.
    const checked = await memberAssignment.check(undefined as never, args(made.id, [...many, "user_kim"]));
    expect(checked.inputs.moves).toEqual({ user_kim: from("Legacy", legacy) });
    await memberAssignment.create(checked.inputs);
    expect((await emu.log()).counts).toEqual({
      listAllMemberAssignments: 1,
      getGuardrail: 1,
      listGuardrailMemberAssignments: 1,
      assignMembers: 5,
    });
    // A guardrail this process did not make may hold the ids (an adoption): listed first, and no walk when all are there.
    configureProvider(emu.url);
    await emu.clearLog();
    const adopted = await memberAssignment.check(undefined as never, args(legacy, ["user_jon"]));
    expect(adopted.inputs).not.toHaveProperty("moves");
    expect((await emu.log()).counts).toEqual({ listGuardrailMemberAssignments: 1 });
  });

  it("a stack of several sets, checked at once and one after another, walks each kind's listing once", async () => {
    const legacy = await newGuardrail("Legacy");
    await raw().assignMembers(legacy, ["user_jon"]);
    await raw().assignKeys(legacy, ["k2"]);
    const gs = await Promise.all([0, 1, 2, 3].map((i) => newGuardrail(`Team ${i}`)));
    const olds = gs.map((g) => args(g, []));
    await emu.clearLog();
    // Four member sets checked together (the engine runs them at once), then two key sets after.
    const checked = await Promise.all(gs.map((g, i) => memberAssignment.check(olds[i]!, args(g, ["user_jon"]))));
    for (const c of checked) expect(c.inputs.moves).toEqual({ user_jon: from("Legacy", legacy) });
    for (const g of gs.slice(0, 2)) {
      const k = await keyAssignment.check(keyArgs(g, []), keyArgs(g, ["k2"]));
      expect(k.inputs.moves).toEqual({ k2: from("Legacy", legacy) });
    }
    expect(await walks()).toEqual({ members: 1, keys: 1 });
  });

  it("adding one member at N = 2,000 (bulk 500, pages of 100): one walk, one assign; a second set adds no walk", async () => {
    const big = await newGuardrail("Big");
    for (let i = 0; i < N; i += 500) await raw().assignMembers(big, many.slice(i, i + 500));
    const made = await memberAssignment.read(`${big}/members`, args(big, many));
    const other = await newGuardrail("Other");
    await emu.clearLog();
    const checked = await memberAssignment.check(made.props!, args(big, [...many, "user_a"]));
    expect(checked.inputs).not.toHaveProperty("moves");
    await memberAssignment.update(`${big}/members`, made.props!, checked.inputs);
    // The minimum with the safety reads counted: the walk (1 + ceil(1,900 / 99) = 21 pages) and one assign.
    expect((await emu.log()).counts).toEqual({ listAllMemberAssignments: 21, assignMembers: 1 });
    await emu.clearLog();
    // Another set of the same stack adding an id reads nothing more: the walk is shared and current.
    const second = await memberAssignment.check(args(other, []), args(other, ["user_a"]));
    expect(second.inputs.moves).toEqual({ user_a: from("Big", big) });
    expect((await emu.log()).counts).toEqual({ getGuardrail: 2 });
  });
});

describe("the process's own writes keep the shared view true", () => {
  it("an assign, an unassign and a guardrail delete by one set are seen by another set's later check, with no new walk", async () => {
    const old = await newGuardrail("Old home");
    const a = await newGuardrail("Set A");
    const b = await newGuardrail("Set B");
    await raw().assignMembers(old, ["user_jon", "user_kim"]);
    await emu.clearLog();
    const aChecked = await memberAssignment.check(args(a, []), args(a, ["user_jon", "user_kim"]));
    expect(aChecked.inputs.moves).toEqual({ user_jon: from("Old home", old), user_kim: from("Old home", old) });
    const aMade = await memberAssignment.update(`${a}/members`, args(a, []), aChecked.inputs);
    // Set A drops user_kim again: she is nowhere now.
    const aDropped = await memberAssignment.update(`${a}/members`, aMade.outs, args(a, ["user_jon"]));
    expect(aDropped.outs.members).toEqual({ user_jon: true });
    const bChecked = await memberAssignment.check(args(b, []), args(b, ["user_jon", "user_kim"]));
    // A stale view would say user_jon is on "Old home", and user_kim on "Set A". Her row on "Old
    // home", which she left when Set A took her, cannot be told from one in another workspace:
    // then the view is read again.
    expect(bChecked.inputs.moves).toEqual({ user_jon: from("Set A", a) });
    expect((await walks()).members).toBe(2);

    await memberAssignment.delete(`${a}/members`, aDropped.outs);
    await raw().deleteGuardrail(a);
    const again = await memberAssignment.check(args(b, []), args(b, ["user_jon"]));
    expect(again.inputs).not.toHaveProperty("moves");
  });

  it("a write by another client of the same service makes the view stale: the next lookup walks again", async () => {
    const here = await newGuardrail("Here");
    const there = await newGuardrail("There");
    await emu.clearLog();
    const first = await memberAssignment.check(args(here, []), args(here, ["user_b"]));
    expect(first.inputs).not.toHaveProperty("moves");
    await raw().assignMembers(there, ["user_b"]);
    const second = await memberAssignment.check(args(here, []), args(here, ["user_b"]));
    expect(second.inputs.moves).toEqual({ user_b: from("There", there) });
    expect((await walks()).members).toBe(2);
  });
  it("a write of one kind leaves the other kind's view current: a key set walks the key listing once around a member write", async () => {
    const g = await newGuardrail("Kinds apart");
    await emu.clearLog();
    const before = await keyAssignment.check(keyArgs(g, []), keyArgs(g, ["k1"]));
    expect(before.inputs).not.toHaveProperty("moves");
    const members = await memberAssignment.check(args(g, []), args(g, ["user_a"]));
    await memberAssignment.update(`${g}/members`, args(g, []), members.inputs);
    await raw().assignMembers(g, ["user_b"]);
    const after = await keyAssignment.check(keyArgs(g, []), keyArgs(g, ["k1"]));
    expect(after.inputs).not.toHaveProperty("moves");
    // Which of the two sets the engine runs first must not change the calls (issue 43's parity).
    expect(await walks()).toEqual({ members: 1, keys: 1 });
  });
});

describe("guardrails:movesLookup", () => {
  const lookup = async (setting: string | undefined, dryRun: boolean | undefined) => {
    configureProvider(emu.url, setting === undefined ? {} : { "guardrails:movesLookup": setting });
    const here = await newGuardrail(`Lookup ${setting} ${dryRun}`);
    const legacy = await newGuardrail(`Legacy ${setting} ${dryRun}`);
    await raw().assignMembers(legacy, ["user_jon"]);
    await emu.clearLog();
    const news = args(here, ["user_jon"], dryRun === undefined ? {} : { __dryRun: dryRun });
    const checked = await memberAssignment.check(args(here, []), news);
    expect(checked.inputs).not.toHaveProperty("__dryRun");
    const c = (await emu.log()).counts;
    return { moves: checked.inputs.moves, walks: (await walks()).members, gets: c.getGuardrail ?? 0 };
  };

  it("full (the default) looks up in every check; off never; preview-only in a preview, and wherever no program says", async () => {
    expect(await lookup(undefined, false)).toEqual({ moves: { user_jon: expect.any(String) }, walks: 1, gets: 2 });
    expect(await lookup("full", false)).toEqual({ moves: { user_jon: expect.any(String) }, walks: 1, gets: 2 });
    expect(await lookup("off", true)).toEqual({ moves: undefined, walks: 0, gets: 0 });
    expect(await lookup("preview-only", true)).toEqual({ moves: { user_jon: expect.any(String) }, walks: 1, gets: 2 });
    expect(await lookup("preview-only", false)).toEqual({ moves: undefined, walks: 0, gets: 0 });
    // The native face's programs cannot say: preview-only then looks up, as full does.
    expect(await lookup(" Preview-Only ", undefined)).toEqual({
      moves: { user_jon: expect.any(String) },
      walks: 1,
      gets: 2,
    });
  });

  it("a bad value is a problem at preview and fails the first call, naming the setting, the value and the expected ones", async () => {
    const said = 'guardrails:movesLookup must be one of full, preview-only, off (got "sometimes")';
    expect(malformedSettings({ movesLookup: "sometimes" }, {})).toEqual([{ setting: "movesLookup", message: said }]);
    configureProvider(emu.url, { "guardrails:movesLookup": "sometimes" });
    const g = await newGuardrail("Bad setting");
    await expect(memberAssignment.read(`${g}/members`, args(g, ["user_jon"]))).rejects.toThrow(said);
    configureProvider(emu.url);
    vi.stubEnv("GUARDRAILS_MOVES_LOOKUP", "never");
    await expect(memberAssignment.read(`${g}/members`, args(g, ["user_jon"]))).rejects.toThrow(
      'the env var GUARDRAILS_MOVES_LOOKUP must be one of full, preview-only, off (got "never")',
    );
    vi.unstubAllEnvs();
  });
});
