/**
 * Parity: one scenario, run on both faces under the real CLI, each on its own emulator and
 * stack, concurrently: create, no-op, update in place, replace, drift found and repaired,
 * partial failure recorded, adopt, destroy. A workspace's default guardrail rides along
 * (WorkspaceDefaultGuardrail): PATCHed on create and update, its drift repaired, left in force
 * by destroy. So do a BudgetPolicy, a ModelAccessPolicy (the workspace default, with opt-outs) and
 * a ModerationPolicy (issue 40): created, updated, their drift repaired, deleted. Every CLI run's API calls, counted by the emulator's
 * request log (method, path shape, status), must be the same on both faces. What may differ is
 * only what the engine shows.
 *
 * Both programs are written from one description (test/helpers/parity-scenario.ts). The kinds a
 * program holds are those every face in the run serves (SERVED there); GUARDRAILS_PARITY_FACES=
 * dynamic runs one face with every kind (to check the scenario itself).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KINDS, type Face, type Kind } from "../helpers/parity-program";
import { type CallCounts, type CountedRun, ParityFace, callTable } from "../helpers/parity-face";
import {
  ENG_NAME,
  LEGACY_NAME,
  OPS_NAME,
  POLICY,
  POLICY_KINDS,
  SERVED,
  type Version,
  W2,
  assigned,
  guardrail,
  guardrailsByName,
  policy,
  recorded,
  resources,
  widePolicy,
} from "../helpers/parity-scenario";
import { DEMO_DEFAULT_WORKSPACE as DEFAULT_WS, DEMO_KEY_HASHES as HASH } from "../../emulator";
import { Program } from "./harness";

const FACES = (process.env.GUARDRAILS_PARITY_FACES ?? "dynamic,native").split(",") as Face[];
/** The kinds every face of this run serves: the programs hold these only. */
const kinds: Kind[] = KINDS.filter((k) => FACES.every((f) => SERVED[f].includes(k)));
const sets = kinds.includes("GuardrailMemberAssignment") && kinds.includes("GuardrailKeyAssignment");
const defaults = kinds.includes("WorkspaceDefaultGuardrail");
const policies = POLICY_KINDS.every((k) => kinds.includes(k));
const wideKind = kinds.includes("WorkspaceWidePolicy");
const sorted = (xs: string[]) => [...xs].sort();
/** W2's default guardrail as the service holds it (undefined: never written). */
const w2Default = async (p: ParityFace["program"]) =>
  guardrail(p, (await p.api("GET", `/workspaces/${W2}`)).body.data.default_guardrail_id);

const faces: ParityFace[] = [];
/** Every counted run, for the table printed at the end. */
const ledger: Array<{ step: string; calls: CallCounts[] }> = [];
/** `fn` on every face at once; a failure is thrown only once every face is done (no run outlives its test). */
async function each<T>(fn: (f: ParityFace) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(faces.map(fn));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/** The calls of one step's runs (one per face) must be equal. */
function sameCalls(step: string, runs: CountedRun[]): void {
  ledger.push({ step, calls: runs.map((r) => r.calls) });
  if (runs.length < 2) return;
  const [a, b] = runs as [CountedRun, CountedRun];
  expect(b.calls, `${step}: the faces made different calls\n${callTable(a.calls, b.calls)}`).toEqual(a.calls);
  // The engine's own count of what it did (created, updated, replaced, deleted) agrees as well.
  expect(summary(b.stdout), `${step}: the engine's summaries differ`).toEqual(summary(a.stdout));
}

/** The engine's "Resources:" lines of a run (`+ 1 created`, `~ 1 updated`, `2 unchanged`). */
function summary(stdout: string): string[] {
  const block = stdout.split(/^Resources:\n/m)[1] ?? "";
  return block
    .split("\n\n")[0]!
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * Writes `v` on every face, runs `args` on all of them at once, compares their calls. A run
 * expected to fail gets `--continue-on-error`: without it the engine starts nothing after the
 * first failure, so whether a resource the program registers a moment later (the `ops` create
 * beside the update answered 409) runs at all depends on timing, and the faces' calls differed
 * under load.
 */
async function step(name: string, v: Version, args: string[], expectFailure = false): Promise<CountedRun[]> {
  for (const f of faces) f.write(resources(v));
  const runs = await each((f) => (expectFailure ? f.fails([...args, "--continue-on-error"]) : f.ok(args)));
  sameCalls(name, runs);
  return runs;
}

const UP = ["up", "--yes", "--skip-preview"];
const V1: Version = { members: ["user_alice", "user_bob"], keys: [HASH[0]!] };
const V2: Version = {
  eng: {
    limitUsd: 75,
    description: "Changed by the parity suite",
    contentFilterBuiltins: [
      { slug: "email", action: "redact" },
      { slug: "phone", action: "block" },
    ],
  },
  members: ["user_alice", "user_carol"],
  keys: [HASH[0]!, HASH[1]!],
  wsDefault: { limitUsd: 45 },
  policies: {
    BudgetPolicy: { limitUsd: 35, memberUserIds: ["user_alice", "user_dave"] },
    ModelAccessPolicy: { optedOutMemberUserIds: ["user_bob", "user_erin"] },
    ModerationPolicy: {
      contentFilterBuiltins: [
        { slug: "email", action: "redact" },
        { slug: "phone", action: "block" },
      ],
    },
  },
  wide: { limitUsd: 90, workspaceIds: [DEFAULT_WS, W2] },
};
const V3: Version = { ...V2, eng: { ...V2.eng, workspaceId: W2 } };
const V4: Version = { ...V3, eng: { ...V3.eng, limitUsd: 80 }, ops: true };
/** V4 plus a member the organization does not have: the set's apply lands part of its change. */
const V5: Version = { ...V4, members: [...V4.members, "user_dave", "user_ghost"] };

describe(`parity of the faces (${FACES.join(", ")}; kinds: ${kinds.join(", ")})`, () => {
  /** Each face's ids, by Pulumi name, after the last `up`. */
  const ids: Record<string, Record<string, string>> = {};
  const programOf = (f: ParityFace) => f.program;
  const idsOf = async () => {
    for (const f of faces) ids[f.face] = await f.ids();
  };

  beforeAll(async () => {
    const made = await Promise.all(FACES.map((face) => Program.create(`parity-${face}`)));
    faces.push(...made.map((p, i) => new ParityFace(FACES[i]!, p, kinds)));
  });
  afterAll(async () => {
    for (const { step, calls } of ledger)
      console.log(`parity ${step}:\n${callTable(calls[0] ?? {}, calls[1] ?? {}, [FACES[0]!, FACES[1] ?? "-"])}`);
    await Promise.all(faces.map((f) => f.program.close()));
  });

  it("the comparison fails on one planted extra call and on a differing summary (no CLI run)", () => {
    const run = (calls: CallCounts, stdout = "Resources:\n    ~ 1 updated\n\nDuration: 1s\n") =>
      ({ code: 0, stdout, stderr: "", output: stdout, calls }) as CountedRun;
    const one = { "PATCH /api/v1/guardrails/{id} 200": 1 };
    expect(() => sameCalls("planted", [run(one), run({ ...one, "GET /api/v1/guardrails/{id} 200": 1 })])).toThrow(
      /different calls/,
    );
    expect(() => sameCalls("planted", [run(one), run(one, "Resources:\n    +- 1 replaced\n")])).toThrow(/summaries/);
    ledger.length = 0;
  });

  it("create: the guardrail and its sets, the same calls on each face", async () => {
    await step("create", V1, UP);
    await idsOf();
    for (const f of faces) {
      const eng = await guardrail(programOf(f), ids[f.face]!.eng!);
      expect(eng, f.face).toMatchObject({ name: ENG_NAME, limit_usd: 50, reset_interval: "monthly" });
      if (defaults) expect(await w2Default(programOf(f)), f.face).toMatchObject({ limit_usd: 40 });
      if (policies) {
        const id = (k: (typeof POLICY_KINDS)[number]) => ids[f.face]![POLICY[k].name]!;
        expect(await policy(programOf(f), "BudgetPolicy", id("BudgetPolicy")), f.face).toMatchObject({
          config: { limit_usd: 30, reset_interval: "weekly" },
          member_ids: ["user_alice"],
          api_key_hashes: [HASH[0]],
        });
        expect(await policy(programOf(f), "ModelAccessPolicy", id("ModelAccessPolicy")), f.face).toMatchObject({
          is_workspace_default: true,
          opted_out_member_ids: ["user_bob"],
          opted_out_api_key_hashes: [HASH[1]],
        });
        expect(await policy(programOf(f), "ModerationPolicy", id("ModerationPolicy")), f.face).toMatchObject({
          member_ids: ["user_carol"],
        });
      }
      if (wideKind)
        expect(await widePolicy(programOf(f), ids[f.face]!.wide!), f.face).toMatchObject({
          policy_type: "budget",
          config: { limit_usd: 100, reset_interval: "monthly" },
          workspace_ids: [DEFAULT_WS],
        });
      if (!sets) continue;
      expect(await assigned(programOf(f), ids[f.face]!.eng!, "members"), f.face).toEqual(["user_alice", "user_bob"]);
      expect(await assigned(programOf(f), ids[f.face]!.eng!, "keys"), f.face).toEqual([HASH[0]]);
    }
  });

  it("no-op: a preview of the same program expects no changes", async () => {
    await step("no-op preview", V1, ["preview", "--expect-no-changes"]);
  });

  it("update in place: settings, a builtin, a member swapped and a key added; the id stays", async () => {
    await step("update", V2, UP);
    const before = { ...ids };
    await idsOf();
    for (const f of faces) {
      const id = ids[f.face]!.eng!;
      expect(id, f.face).toBe(before[f.face]!.eng);
      expect(await guardrail(programOf(f), id), f.face).toMatchObject({ limit_usd: 75 });
      if (defaults) expect(await w2Default(programOf(f)), f.face).toMatchObject({ limit_usd: 45 });
      if (policies) {
        const budget = await policy(programOf(f), "BudgetPolicy", ids[f.face]!.budget!);
        expect(budget, f.face).toMatchObject({ id: before[f.face]!.budget, config: { limit_usd: 35 } });
        expect(sorted(budget!.member_ids), f.face).toEqual(["user_alice", "user_dave"]);
        const models = await policy(programOf(f), "ModelAccessPolicy", ids[f.face]!.models!);
        expect(sorted(models!.opted_out_member_ids), f.face).toEqual(["user_bob", "user_erin"]);
        const moderation = await policy(programOf(f), "ModerationPolicy", ids[f.face]!.moderation!);
        expect(moderation!.config.content_filter_builtins, f.face).toHaveLength(2);
      }
      if (wideKind) {
        const wide = await widePolicy(programOf(f), ids[f.face]!.wide!);
        expect(wide, f.face).toMatchObject({ id: before[f.face]!.wide, config: { limit_usd: 90 } });
        expect(sorted(wide!.workspace_ids), f.face).toEqual(sorted([DEFAULT_WS, W2]));
      }
      if (!sets) continue;
      expect(await assigned(programOf(f), id, "members"), f.face).toEqual(["user_alice", "user_carol"]);
      expect(await assigned(programOf(f), id, "keys"), f.face).toEqual([HASH[0], HASH[1]].sort());
    }
  });

  it("replace: a move to another workspace makes a new guardrail and deletes the old one", async () => {
    const before = Object.fromEntries(faces.map((f) => [f.face, ids[f.face]!.eng!]));
    await step("replace", V3, UP);
    await idsOf();
    for (const f of faces) {
      const id = ids[f.face]!.eng!;
      expect(id, f.face).not.toBe(before[f.face]);
      expect(await guardrail(programOf(f), id), f.face).toMatchObject({ name: ENG_NAME, workspace_id: W2 });
      expect(await guardrail(programOf(f), before[f.face]!), f.face).toBeUndefined();
      if (!sets) continue;
      expect(await assigned(programOf(f), id, "members"), f.face).toEqual(["user_alice", "user_carol"]);
      expect(await assigned(programOf(f), id, "keys"), f.face).toEqual([HASH[0], HASH[1]].sort());
    }
  });

  it("drift: a change made by hand is found by refresh and repaired by up", async () => {
    await each(async (f) => {
      const id = ids[f.face]!.eng!;
      await programOf(f).api("PATCH", `/guardrails/${id}`, { limit_usd: 999 });
      if (defaults) {
        const w2 = (await programOf(f).api("GET", `/workspaces/${W2}`)).body.data.default_guardrail_id;
        await programOf(f).api("PATCH", `/guardrails/${w2}`, { limit_usd: 999 });
      }
      if (sets)
        await programOf(f).api("POST", `/guardrails/${id}/assignments/members/remove`, {
          member_user_ids: ["user_carol"],
        });
      // A budget policy's limit changed by hand (the PUT keeps its assignments: neither list sent).
      if (policies) {
        const put = await programOf(f).api("PUT", `/guardrails/policies/budget/${ids[f.face]!.budget}`, {
          name: "Parity budget",
          workspace_id: DEFAULT_WS,
          config: { limit_usd: 999, reset_interval: "weekly" },
        });
        expect(put.status, JSON.stringify(put.body)).toBe(200);
      }
    });
    const found = await step("drift: refresh", V3, ["refresh", "--yes", "--skip-preview"]);
    const drifted = 1 + (sets ? 1 : 0) + (defaults ? 1 : 0) + (policies ? 1 : 0);
    for (const r of found) expect(r.stdout).toMatch(new RegExp(`~ ${drifted} updated`));
    await step("drift: up", V3, UP);
    for (const f of faces) {
      const id = ids[f.face]!.eng!;
      expect(await guardrail(programOf(f), id), f.face).toMatchObject({ limit_usd: 75 });
      if (defaults) expect(await w2Default(programOf(f)), f.face).toMatchObject({ limit_usd: 45 });
      if (sets) expect(await assigned(programOf(f), id, "members"), f.face).toEqual(["user_alice", "user_carol"]);
      if (policies)
        expect(await policy(programOf(f), "BudgetPolicy", ids[f.face]!.budget!), f.face).toMatchObject({
          config: { limit_usd: 35 },
          member_ids: ["user_alice", "user_dave"],
        });
    }
  });

  it("partial failure: an update answered 409 fails while a create lands; state records the create", async () => {
    await each((f) => f.program.setFaults({ updateConflicts: 1 }));
    const runs = await step("partial: up with a 409", V4, UP, true);
    for (const r of runs) expect(r.output).toMatch(/409/);
    for (const f of faces) {
      const byName = await guardrailsByName(programOf(f));
      expect(byName[ENG_NAME], f.face).toMatchObject({ limit_usd: 75 });
      expect(byName[OPS_NAME], f.face).toMatchObject({ limit_usd: 20 });
      // The create that landed is in state: the next up does not create it again.
      expect((await recorded(programOf(f), "ops"))?.name, f.face).toBe(OPS_NAME);
    }
  });

  it("partial failure: the next up finishes the update; a set lands what it can and records it", async () => {
    const runs = await step(`partial: up${sets ? " with an unknown member" : ""}`, V5, UP, sets);
    for (const f of faces) {
      const id = (await guardrailsByName(programOf(f)))[ENG_NAME]!.id as string;
      expect(await guardrail(programOf(f), id), f.face).toMatchObject({ limit_usd: 80 });
      if (!sets) continue;
      expect(runs[faces.indexOf(f)]!.output).toMatch(/did not land.*user_ghost/);
      expect(await assigned(programOf(f), id, "members"), f.face).toEqual(["user_alice", "user_carol", "user_dave"]);
      expect((await recorded(programOf(f), "eng-members"))?.members, f.face).toEqual({
        user_alice: true,
        user_carol: true,
        user_dave: true,
        user_ghost: "not assigned",
      });
    }
  });

  it("adopt: a guardrail made by hand comes under management by adoptId, and the stack converges", async () => {
    const made = await each(
      async (f) =>
        (await programOf(f).api("POST", "/guardrails", { name: LEGACY_NAME, limit_usd: 1, reset_interval: "weekly" }))
          .body.data.id as string,
    );
    const adopt = (f: ParityFace) => made[faces.indexOf(f)]!;
    for (const f of faces) f.write(resources({ ...V4, adopt: adopt(f) }));
    const runs = await each((f) => f.ok(UP));
    sameCalls("adopt: up", runs);
    await idsOf();
    for (const f of faces) {
      expect(ids[f.face]!.legacy, f.face).toBe(adopt(f));
      expect(await guardrail(programOf(f), adopt(f)), f.face).toMatchObject({ limit_usd: 5, reset_interval: "daily" });
    }
    sameCalls("adopt: no-op preview", await each((f) => f.ok(["preview", "--expect-no-changes"])));
  });

  it("destroy: every guardrail the stack manages is deleted, the adopted one too; a default stays in force", async () => {
    sameCalls("destroy", await each((f) => f.ok(["destroy", "--yes", "--skip-preview"])));
    for (const f of faces) {
      const left = Object.values(await guardrailsByName(programOf(f)));
      const w2 = defaults ? await w2Default(programOf(f)) : undefined;
      expect(
        left.map((g) => g.id),
        f.face,
      ).toEqual(w2 ? [w2.id] : []);
      if (defaults) expect(w2, f.face).toMatchObject({ limit_usd: 45, allowed_data_regions: ["europe"] });
      for (const k of policies ? POLICY_KINDS : [])
        expect(await policy(programOf(f), k, ids[f.face]![POLICY[k].name]!), `${f.face} ${k}`).toBeUndefined();
      if (wideKind) expect(await widePolicy(programOf(f), ids[f.face]!.wide!), f.face).toBeUndefined();
    }
  });
});
