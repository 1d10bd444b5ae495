/**
 * Issue 41: `guardrails-access`, the built bin run as a child process against the emulator over
 * HTTP, on the layered org of test/helpers/access-layers.ts. `explain` agrees with
 * `getEffectiveAccess` and with what the emulator enforces (`GET /__emulator/enforcement`); `who`
 * agrees with `explain` and the enforcement answer for every subject it lists, and its calls do
 * not grow with the number of members; a hostile name is neutralised; the `--json` shape is
 * pinned; bad flags are refused, naming the flag and the value, before any call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExplainAnswer, WhoAnswer } from "../../src/access";
import { getEffectiveAccess } from "../../src/core/data-sources/access";
import { comparable, connectionOf, enforced, id, K0, K1, setUpLayers } from "../helpers/access-layers";
import { DEFAULT_WS, reshapeGuardrail, type TestEmulator, tempFolder, withEmulator } from "../helpers/emulator";
import { ACCESS_BIN, exportBin } from "../helpers/export-bin";

let emu: TestEmulator;
let run: ReturnType<typeof exportBin>;
const cwd = tempFolder("guardrails-access-");
beforeAll(async () => {
  emu = await withEmulator();
  await setUpLayers(emu);
  run = exportBin(emu, ACCESS_BIN);
});
afterAll(() => emu.close());

const json = async <T>(args: string[]) => {
  const r = await run([...args, "--workspace", DEFAULT_WS, "--json"], cwd);
  expect(r.stderr).toBe("");
  return { code: r.code, answer: JSON.parse(r.stdout) as T };
};

/** Whether the emulator lets `q`'s subject through to `provider`. */
async function emulatorAllows(q: string, provider: string): Promise<boolean> {
  const e = comparable(await enforced(emu, q));
  const allowed = e.allowedProviders as string[] | null;
  return (allowed === null || allowed.includes(provider)) && !(e.ignoredProviders as string[]).includes(provider);
}

describe("explain", () => {
  it.each([
    [["--member", "user_alice"], { memberId: "user_alice" }, "member=user_alice"],
    [["--member", "user_bob"], { memberId: "user_bob" }, "member=user_bob"],
    [["--member", "user_carol"], { memberId: "user_carol" }, "member=user_carol"],
    [["--key", K0, "--owner", "user_alice"], { keyHash: K0, ownerMemberId: "user_alice" }, `key=${K0}`],
  ])("%o: the effective access of getEffectiveAccess, and what the emulator enforces", async (flags, args, q) => {
    const { code, answer } = await json<ExplainAnswer>(["explain", ...flags]);
    expect(code).toBe(0);
    const found = await getEffectiveAccess(connectionOf(emu.client()), { ...args, workspaceId: DEFAULT_WS });
    expect(answer.access).toEqual(found.access);
    expect(comparable(answer.access)).toEqual(comparable(await enforced(emu, q)));
  });

  it.each([
    ["user_alice", "vendor-a", 0],
    ["user_alice", "vendor-b", 1],
    ["user_carol", "vendor-b", 0],
    ["user_carol", "vendor-x", 1],
    ["user_bob", "vendor-d", 1],
  ])("member %s, provider %s: exit %i, as the emulator enforces", async (member, provider, exit) => {
    const { code, answer } = await json<ExplainAnswer>(["explain", "--member", member, "--provider", provider]);
    expect(code).toBe(exit);
    expect(answer.verdict?.allowed).toBe(await emulatorAllows(`member=${member}`, provider));
    expect(answer.verdict?.certain).toBe(true);
  });

  it("names the deciding layer: Eng denies vendor-b to alice; the workspace-wide policy denies vendor-x", async () => {
    const b = (await json<ExplainAnswer>(["explain", "--member", "user_alice", "--provider", "vendor-b"])).answer;
    expect(b.verdict?.deciding.map((d) => d.layers.map((l) => [l.kind, l.id]))).toEqual([
      [["member-guardrail", id.eng]],
    ]);
    const x = (await json<ExplainAnswer>(["explain", "--member", "user_carol", "--provider", "vendor-x"])).answer;
    expect(x.verdict?.deciding.flatMap((d) => d.layers.map((l) => l.id))).toContain(id.wide);
    const human = await run(
      ["explain", "--member", "user_alice", "--provider", "vendor-b", "--workspace", DEFAULT_WS],
      cwd,
    );
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('provider "vendor-b": DENIED');
    expect(human.stdout).toMatch(
      /provider {2}denies {2}"vendor-b" is not on the provider allow list {2}member-guardrail "Eng"/,
    );
  });

  it("a key without its owner: a denial by its own layers is certain (exit 1); an allowance is not (exit 4)", async () => {
    const us = await json<ExplainAnswer>(["explain", "--key", K0, "--region", "us"]);
    expect([us.code, us.answer.ownerKnown, us.answer.verdict]).toMatchObject([
      1,
      false,
      { allowed: false, certain: true },
    ]);
    const b = await json<ExplainAnswer>(["explain", "--key", K0, "--provider", "vendor-b"]);
    expect([b.code, b.answer.verdict]).toMatchObject([4, { allowed: true, certain: false }]);
    // Its owner (the emulator knows: alice) denies it: exactly why "allowed" was not claimed as certain.
    expect(await emulatorAllows(`key=${K0}`, "vendor-b")).toBe(false);
    expect(b.answer.notes.join(" ")).toContain("the service does not say who owns a key");
  });

  it("without a query: the whole effective access, its layers lined up", async () => {
    const r = await run(["explain", "--member", "user_bob", "--workspace", DEFAULT_WS], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("effective access:");
    expect(r.stdout).toMatch(
      /\n {2}allowed providers {4}vendor-a, vendor-b, vendor-c {2}workspace-default-guardrail "Workspace /,
    );
    expect(r.stdout).toMatch(/\n {2}ignored providers {4}vendor-x {22}workspace-wide-policy "no vendor-x"\n/);
    expect(r.stdout).toMatch(/\n {2}budget {15}50 USD monthly {16}policy "bob monthly"\n/);
    expect(r.stdout).toMatch(/\n {2}policy \(budget, via member\) {16}"bob monthly" {4}/);
  });
});

describe("--json shape", () => {
  it("explain and who answer the documented keys", async () => {
    const e = (await json<ExplainAnswer>(["explain", "--member", "user_alice", "--model", "vendor-a/model-x"])).answer;
    expect(Object.keys(e).sort()).toEqual(
      [
        "access",
        "command",
        "conditions",
        "layers",
        "notes",
        "ownerKnown",
        "query",
        "source",
        "subject",
        "verdict",
        "workspaceId",
      ].sort(),
    );
    expect(e).toMatchObject({
      command: "explain",
      source: "service",
      workspaceId: DEFAULT_WS,
      subject: { memberId: "user_alice" },
      ownerKnown: true,
      query: { model: "vendor-a/model-x" },
      verdict: { allowed: expect.any(Boolean), certain: true, deciding: expect.any(Array) },
    });
    const w = (await json<WhoAnswer>(["who", "--provider", "vendor-a"])).answer;
    expect(Object.keys(w).sort()).toEqual(["command", "keys", "members", "notes", "query", "source", "workspaceId"]);
    expect(Object.keys(w.members[0]!).sort()).toEqual(["allowed", "certain", "deciding", "id", "ownerKnown"]);
    expect(w.members.at(-1)!.id).toBeNull();
  });
});

describe("who", () => {
  it("every member listed agrees with explain and with the emulator; every key denied is denied there too", async () => {
    for (const provider of ["vendor-a", "vendor-b", "vendor-x"]) {
      const { code, answer } = await json<WhoAnswer>(["who", "--provider", provider]);
      expect(code).toBe(0);
      expect(answer.members.map((m) => m.id)).toEqual(["user_alice", "user_bob", null]);
      for (const m of answer.members) {
        const member = m.id ?? "user_carol"; // carol is named by no listing: "any other member"
        const one = (await json<ExplainAnswer>(["explain", "--member", member, "--provider", provider])).answer;
        expect([m.id, m.allowed, m.certain]).toEqual([m.id, one.verdict!.allowed, true]);
        expect(m.allowed).toBe(await emulatorAllows(`member=${member}`, provider));
      }
      for (const k of answer.keys.filter((k) => k.id !== null)) {
        expect(k.ownerKnown).toBe(false);
        if (!k.allowed) expect(await emulatorAllows(`key=${k.id}`, provider)).toBe(false);
        else expect(k.certain).toBe(false);
      }
    }
  });

  it("human output: who can, who may (owner not known), and a count of those who cannot", async () => {
    const r = await run(["who", "--provider", "vendor-b", "--workspace", DEFAULT_WS], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("can reach it (2):\n  member  user_bob\n  member  any other member\n");
    expect(r.stdout).toContain(
      `may reach it (allowed by every layer known; a layer that is not known may deny) (2):\n  key  ${K0}\n  key  any other key\n`,
    );
    expect(r.stdout).toContain("cannot reach it: 1 member(s), 0 key(s)");
    const all = await run(["who", "--provider", "vendor-b", "--all", "--workspace", DEFAULT_WS], cwd);
    expect(all.stdout).toContain('cannot reach it (1):\n  member  user_alice  member-guardrail "Eng"\n');
  });

  it("calls: the same at 6 members and at 260, but for the pages of the member listing", async () => {
    const counts = async (n: number) => {
      const members = Array.from({ length: n }, (_, i) => `user_${String(i).padStart(4, "0")}`);
      const big = await withEmulator({ members });
      try {
        const c = big.client();
        const g = (await c.createGuardrail({ name: "Many", workspace_id: DEFAULT_WS, allowed_providers: ["vendor-a"] }))
          .id;
        await c.assignMembers(g, members.slice(0, n - 1));
        await big.clearLog();
        const r = await exportBin(big, ACCESS_BIN)(
          ["who", "--provider", "vendor-a", "--workspace", DEFAULT_WS, "--json"],
          cwd,
        );
        expect(r.code).toBe(0);
        expect((JSON.parse(r.stdout) as WhoAnswer).members).toHaveLength(n);
        return (await big.log()).counts;
      } finally {
        await big.close();
      }
    };
    const few = await counts(6);
    const many = await counts(260);
    expect(few.listAllMemberAssignments).toBe(1);
    expect(many.listAllMemberAssignments).toBe(3);
    expect({ ...many, listAllMemberAssignments: 1 }).toEqual(few);
    expect(Object.keys(few)).not.toContain("getMemberPolicyAssignment");
  });
});

describe("what the service sent reaches the terminal neutralised", () => {
  it("a guardrail name with escape sequences and a bidi control is shown escaped, and bounded", async () => {
    await reshapeGuardrail(emu.url, id.eng!, {
      set: { name: `\u001b[2J\u001b[31mEng\u202e${"x".repeat(300)}\nforged: line` },
    });
    try {
      const r = await run(
        ["explain", "--member", "user_alice", "--provider", "vendor-b", "--workspace", DEFAULT_WS],
        cwd,
      );
      expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
      expect(r.stdout).toContain("<U+001B>[2J<U+001B>[31mEng<U+202E>xx");
      expect(r.stdout).not.toContain("x".repeat(60));
      expect(r.stdout).not.toMatch(/^forged/m);
      const all = await run(["who", "--provider", "vendor-b", "--all", "--workspace", DEFAULT_WS], cwd);
      expect(all.stdout).not.toMatch(/[\u001b\u202e]/);
      // --json keeps the service's name exactly for a script, but as JSON escapes, never raw.
      const { answer } = await json<ExplainAnswer>(["explain", "--member", "user_alice", "--provider", "vendor-b"]);
      const raw = await run(["explain", "--member", "user_alice", "--workspace", DEFAULT_WS, "--json"], cwd);
      expect(raw.stdout).not.toMatch(/[\u001b\u202e\u0085\u2028]/);
      expect(raw.stdout).toContain("\\u202e");
      expect(answer.layers.map((l) => l.name)).toContain(
        `\u001b[2J\u001b[31mEng\u202e${"x".repeat(300)}\nforged: line`,
      );
    } finally {
      await reshapeGuardrail(emu.url, id.eng!, { set: { name: "Eng" } });
    }
  });
});

describe("bad usage: exit 2, the flag and the value named, no call made", () => {
  it.each([
    [["explain"], "guardrails-access: --member: give --member (a member's user id) or --key"],
    [["explain", "--member", "user_alice", "--key", K1], `--key "${K1}": give --member or --key, not both`],
    [
      ["explain", "--member", "user_alice", "--owner", "user_bob"],
      `--owner "user_bob": names a key's owner; give it with --key, not --member`,
    ],
    [["explain", "--member", " "], '--member " ": must be a non-empty string'],
    [["explain", "--member", "user_alice", "--provider", ""], '--provider "": expected a provider id'],
    [
      ["explain", "--member", "user_alice", "--workspace", "no/such"],
      '--workspace "no/such": must be a workspace id (UUID) or slug',
    ],
    [["explain", "--member", "user_alice", "--modle", "m"], "Unknown option '--modle'"],
    [["who", "--workspace", DEFAULT_WS], "who needs --model M, --provider P or --region R"],
    [["who", "--member", "user_alice", "--provider", "vendor-a"], "who takes no --member"],
    [["explain", "--member", "user_alice", "--all"], "explain takes no --all"],
    [["why"], 'unknown command "why": explain or who'],
    [["who", "--provider", "vendor-a", "--provider", "vendor-x"], "--provider is given 2 times: give it once"],
    [["explain", "--member", "user_alice", "--member=user_bob"], "--member is given 2 times: give it once"],
    [["explain", "--member", "user_alice", "--stack", "s\u202e1"], '--stack "s\\u202e1" names a stack'],
    [["wh\u202ey"], 'unknown command "wh\\u202ey"'],
  ])("%o", async (args, message) => {
    await emu.clearLog();
    const r = await run(args, cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe("");
    expect((await emu.log()).total).toBe(0);
  });

  it("a failure of the service is exit 3, one line, the key never shown", async () => {
    const r = await run(["explain", "--member", "user_alice", "--workspace", DEFAULT_WS], cwd, {
      GUARDRAILS_API_KEY: "wrong-key-0123456789",
    });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).not.toContain("wrong-key-0123456789");
  });
});
