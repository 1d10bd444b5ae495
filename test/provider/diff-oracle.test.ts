/**
 * Property-based oracle of the Guardrail's and the member set's diff, create, update and
 * read, driven the way the engine drives them, against the emulator over real HTTP.
 *
 * Random arg pairs (A, B): model lists with duplicates, slug and canonical forms of one
 * model and prefix-related slugs, under the built-in catalogue or one whose slugs are not
 * prefixes of their canonical slugs; a workspace given (either case) or omitted; adoptId
 * kept, dropped or changed; member sets flipping between exclusive and additive with ids
 * assigned by hand. The oracle is written from the spec alone (it imports nothing of the
 * provider's model): after B the service holds B, the next diff is a no-op, nothing outside B
 * was touched, and no guardrail is lost or duplicated.
 *
 * Fixed seed and a modest case count in `npm test`; `ORACLE_RUNS=2000` (and `ORACLE_SEED`)
 * for a longer run.
 */
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { configure, resetConfiguration } from "../../src/core/settings/config";
import { guardrail, memberAssignment } from "../../src/dynamic/internal";
import { collect } from "../../src/core/client";
import { DEFAULT_MODELS } from "../../emulator/catalogue";
import { TEST_KEY, withEmulator } from "../helpers/emulator";

const RUNS = Number(process.env.ORACLE_RUNS ?? 100);
const SEED = Number(process.env.ORACLE_SEED ?? 20261123);
/** Generous: a case is a few dozen local HTTP calls, but the machine may be busy. */
const TIMEOUT_MS = Math.max(120_000, RUNS * 1_000);
const DEFAULT_WS = "00000000-0000-4000-8000-000000000001";
const W2 = "00000000-0000-4000-8000-000000000002";

/** Slugs that are not prefixes of their canonical slugs, and slugs that are prefixes of other models' canonical slugs. */
const NON_PREFIX = [
  { slug: "v/alpha", canonical_slug: "v/one-1" },
  { slug: "v/beta", canonical_slug: "v/two-1" },
  { slug: "v/al", canonical_slug: "v/alpha-x" },
  { slug: "v/one", canonical_slug: "v/alpha-y" },
];
const PREFIXED = DEFAULT_MODELS.filter((m) => /model-x|model-m/.test(m.slug));
const CATALOGUES = { prefixed: PREFIXED, nonPrefix: NON_PREFIX } as const;
type CatalogueName = keyof typeof CATALOGUES;

/** The oracle's own reading of docs/api-contract.md rule 4. */
const canonical = (cat: CatalogueName, ids: string[] | undefined) => {
  if (!ids) return null;
  const index = new Map(
    CATALOGUES[cat].flatMap(
      (m) =>
        [
          [m.slug, m.canonical_slug],
          [m.canonical_slug, m.canonical_slug],
        ] as const,
    ),
  );
  return [...new Set(ids.map((id) => index.get(id)!))].sort();
};
const identifiers = (cat: CatalogueName) => CATALOGUES[cat].flatMap((m) => [m.slug, m.canonical_slug]);

type Ws = "omitted" | "default" | "DEFAULT" | "w2";
type AdoptB = "none" | "same" | "other";
const wsValue = (ws: Ws) =>
  ({ omitted: undefined, default: DEFAULT_WS, DEFAULT: DEFAULT_WS.toUpperCase(), w2: W2 })[ws];
const wsTarget = (ws: Ws) => (ws === "w2" ? W2 : DEFAULT_WS);

const settings = (cat: CatalogueName) =>
  fc.record({
    description: fc.constantFrom(undefined, "d1", "d2"),
    limitUsd: fc.constantFrom(undefined, 0, 5),
    allowedModels: fc.option(fc.array(fc.constantFrom(...identifiers(cat)), { minLength: 1, maxLength: 4 }), {
      nil: undefined,
    }),
    ignoredModels: fc.option(fc.array(fc.constantFrom(...identifiers(cat)), { minLength: 1, maxLength: 4 }), {
      nil: undefined,
    }),
    ws: fc.constantFrom<Ws>("omitted", "default", "DEFAULT", "w2"),
  });
const guardrailCase = fc.constantFrom<CatalogueName>("prefixed", "nonPrefix").chain((cat) =>
  fc
    .record({
      cat: fc.constant(cat),
      a: settings(cat),
      b: settings(cat),
      bIsA: fc.boolean(),
      adoptA: fc.boolean(),
      adoptB: fc.constantFrom<AdoptB>("none", "none", "none", "same", "other"),
    })
    .map(({ bIsA, ...r }) => (bIsA ? { ...r, b: { ...r.a, ws: r.b.ws } } : r)),
);

const emus: Partial<Record<CatalogueName, Awaited<ReturnType<typeof withEmulator>>>> = {};
const bystanders: Partial<Record<CatalogueName, string[]>> = {};
let caseNo = 0;

function use(cat: CatalogueName) {
  resetConfiguration();
  configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emus[cat]!.url })[k]);
  return emus[cat]!;
}

beforeAll(async () => {
  for (const cat of Object.keys(CATALOGUES) as CatalogueName[]) {
    const emu = await withEmulator({
      models: CATALOGUES[cat],
      members: ["user_a", "user_b", "user_c", "user_d", "user_f1", "user_f2"],
    });
    emus[cat] = emu;
    const c = emu.client();
    bystanders[cat] = [
      (await c.createGuardrail({ name: "bystander", limit_usd: 1, reset_interval: "daily" })).id,
      (await c.createGuardrail({ name: "bystander", workspace_id: W2 })).id,
    ];
  }
});
afterAll(async () => {
  for (const emu of Object.values(emus)) await emu!.close();
});
beforeEach(() => resetConfiguration());

/** The engine's way: diff, then nothing, an update, or a create-before-delete replacement. */
async function engineUp(id: string, olds: any, news: Record<string, unknown>) {
  const d = await guardrail.diff(id, olds, news);
  if (d.replaces && d.replaces.length > 0) {
    const created = await guardrail.create(news);
    await guardrail.delete(id, olds);
    return { id: created.id, outs: created.outs, op: "replace" };
  }
  if (d.changes) return { id, outs: (await guardrail.update(id, olds, news)).outs, op: "update" };
  return { id, outs: olds, op: "same" };
}

const argsOf = (
  name: string,
  s: {
    description?: string | undefined;
    limitUsd?: number | undefined;
    allowedModels?: string[] | undefined;
    ignoredModels?: string[] | undefined;
    ws: Ws;
  },
  adoptId?: string,
) =>
  Object.fromEntries(
    Object.entries({
      __provider: "p",
      name,
      description: s.description,
      limitUsd: s.limitUsd,
      resetInterval: s.limitUsd === undefined ? undefined : "monthly",
      allowedModels: s.allowedModels,
      ignoredModels: s.ignoredModels,
      workspaceId: wsValue(s.ws),
      adoptId,
    }).filter(([, v]) => v !== undefined),
  );

async function snapshot(cat: CatalogueName) {
  const c = emus[cat]!.client();
  return Promise.all(bystanders[cat]!.map((id) => c.getGuardrail(id)));
}

async function named(cat: CatalogueName, name: string) {
  const c = emus[cat]!.client();
  return [
    ...(await collect(c.listGuardrails({ workspaceId: DEFAULT_WS }))),
    ...(await collect(c.listGuardrails({ workspaceId: W2 }))),
  ].filter((g) => g.name === name);
}

describe("diff oracle", () => {
  it(
    `Guardrail: random (A, B) pairs converge on B and touch nothing else (seed ${SEED})`,
    async () => {
      let ran = 0;
      const ops: Record<string, number> = {};
      await fc.assert(
        fc.asyncProperty(guardrailCase, async ({ cat, a, b, adoptA, adoptB }) => {
          ran++;
          const emu = use(cat);
          const c = emu.client();
          const name = `case-${++caseNo}`;
          const before = await snapshot(cat);
          const adopted = adoptA
            ? (
                await c.createGuardrail({
                  name,
                  description: "pre-existing",
                  ...(a.ws === "w2" ? { workspace_id: W2 } : {}),
                })
              ).id
            : undefined;
          const other =
            adoptB === "other"
              ? (await c.createGuardrail({ name: `${name}-other`, ...(b.ws === "w2" ? { workspace_id: W2 } : {}) })).id
              : undefined;
          const A = argsOf(name, a, adopted?.toUpperCase());
          const first = await guardrail.create(A);
          const idA = first.id;
          if (adopted) expect(idA).toBe(adopted);
          const bAdopt = adoptB === "same" ? (adopted ?? idA) : adoptB === "other" ? other : undefined;
          const B = argsOf(name, b, bAdopt);

          // The oracle's verdict on B: refused (another guardrail named, or a replacement that would re-adopt what it deletes), else applied.
          const moves = wsTarget(a.ws) !== wsTarget(b.ws);
          const refused = (bAdopt !== undefined && bAdopt !== idA) || (moves && bAdopt === idA);
          const outcome = await engineUp(idA, first.outs, B).catch((e: Error) => e);
          if (refused) {
            expect(outcome).toBeInstanceOf(Error);
            const live = await c.getGuardrail(idA);
            expect(live.workspace_id).toBe(wsTarget(a.ws));
            expect([live.description, live.limit_usd]).toEqual([a.description ?? null, a.limitUsd ?? null]);
          } else {
            if (outcome instanceof Error) throw outcome;
            ops[outcome.op] = (ops[outcome.op] ?? 0) + 1;
            expect(outcome.op === "replace").toBe(moves);
            const live = await c.getGuardrail(outcome.id);
            expect({
              workspace: live.workspace_id,
              description: live.description,
              limitUsd: live.limit_usd,
              allowed: live.allowed_models ? [...live.allowed_models].sort() : null,
              ignored: live.ignored_models ? [...live.ignored_models].sort() : null,
            }).toEqual({
              workspace: wsTarget(b.ws),
              description: b.description ?? null,
              limitUsd: b.limitUsd ?? null,
              allowed: canonical(cat, b.allowedModels),
              ignored: canonical(cat, b.ignoredModels),
            });
            // The next diff is a no-op, before and after a refresh.
            expect(await guardrail.diff(outcome.id, outcome.outs, B)).toMatchObject({ changes: false, replaces: [] });
            const read = await guardrail.read(outcome.id, outcome.outs);
            expect(await guardrail.diff(outcome.id, read.props, B)).toMatchObject({ changes: false, replaces: [] });
            // No guardrail lost or duplicated: exactly one holds this case's name, the one in state.
            expect((await named(cat, name)).map((g) => g.id)).toEqual([outcome.id]);
            if (outcome.op === "replace") expect(outcome.id).not.toBe(idA);
            await c.deleteGuardrail(outcome.id);
          }
          if (refused) await c.deleteGuardrail(idA);
          if (other && other !== idA) expect((await c.getGuardrail(other)).description).toBeNull();
          if (other) await c.deleteGuardrail(other);
          expect(await snapshot(cat)).toEqual(before);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      console.log(`diff oracle (Guardrail): ${ran} cases, seed ${SEED}; ops ${JSON.stringify(ops)}`);
    },
    TIMEOUT_MS,
  );

  it(
    `member sets: random mode flips with hand-assigned ids touch only what the program lists (seed ${SEED})`,
    async () => {
      const ids = fc.uniqueArray(fc.constantFrom("user_a", "user_b", "user_c", "user_d"), { maxLength: 4 });
      const scenario = fc.record({
        a: ids,
        b: ids,
        exA: fc.boolean(),
        exB: fc.boolean(),
        foreign: fc.uniqueArray(fc.constantFrom("user_f1", "user_f2"), { maxLength: 2 }),
        refresh: fc.boolean(),
      });
      let ran = 0;
      await fc.assert(
        fc.asyncProperty(scenario, async ({ a, b, exA, exB, foreign, refresh }) => {
          ran++;
          const emu = use("prefixed");
          const c = emu.client();
          const g = (await c.createGuardrail({ name: `set-${++caseNo}` })).id;
          const live = async () => (await collect(c.listMemberAssignments(g))).map((r) => r.user_id).sort();
          const args = (list: string[], exclusive: boolean) => ({
            __provider: "p",
            guardrailId: g,
            members: Object.fromEntries(list.map((id) => [id, true])),
            exclusive,
          });
          let state = (await memberAssignment.create(args(a, exA))).outs;
          if (foreign.length > 0) await c.assignMembers(g, foreign);
          if (refresh) state = (await memberAssignment.read(`${g}/members`, state)).props!;
          const up = async (news: ReturnType<typeof args>) => {
            const d = await memberAssignment.diff(`${g}/members`, state, news);
            if (d.changes) state = (await memberAssignment.update(`${g}/members`, state, news)).outs;
          };
          await up(args(b, exB));
          const sorted = (xs: string[]) => [...new Set(xs)].sort();
          // Ids assigned by hand are removed only by an exclusive set that already knew them (a
          // refresh while exclusive). A flip to exclusive records them without removing any, so
          // the next preview can name them; the next up removes them. Everything else keeps them.
          const removedNow = exA && refresh && exB;
          const claimed = !exA && exB && foreign.length > 0;
          expect(await live()).toEqual(sorted(removedNow ? b : [...b, ...foreign]));
          if (claimed) {
            const members = state.members as Record<string, unknown>;
            expect(
              Object.keys(members)
                .filter((k) => members[k] !== true)
                .sort(),
            ).toEqual(sorted(foreign));
            await up(args(b, exB));
            expect(await live()).toEqual(sorted(b));
          }
          if (exA && !refresh && exB && foreign.length > 0) {
            // An exclusive set that never saw them: a refresh finds them, the next up removes them.
            state = (await memberAssignment.read(`${g}/members`, state)).props!;
            expect(await memberAssignment.diff(`${g}/members`, state, args(b, exB))).toMatchObject({ changes: true });
            await up(args(b, exB));
            expect(await live()).toEqual(sorted(b));
          }
          expect(await memberAssignment.diff(`${g}/members`, state, args(b, exB))).toMatchObject({ changes: false });
          const read = await memberAssignment.read(`${g}/members`, state);
          expect(await memberAssignment.diff(`${g}/members`, read.props!, args(b, exB))).toMatchObject({
            changes: false,
          });
          await c.deleteGuardrail(g);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      console.log(`diff oracle (member sets): ${ran} cases, seed ${SEED}`);
    },
    TIMEOUT_MS,
  );
});
