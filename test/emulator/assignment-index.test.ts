/**
 * The emulator's assignment indexes (emulator/operations.ts: rows by guardrail for lists, live rows
 * by assignee for assigns) keep 100,000-row walks linear. They must never change an answer: a
 * seeded random run of assigns, moves, unassigns, deletes, resets and short-page toggles, where
 * after every step each list page is checked against the same answer computed naively from the
 * raw state (`GET /__emulator/state`), each assign's count against the naive count, and the state
 * against the rule that an assignee holds one guardrail per scope.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY_HASHES, DEMO_MEMBERS } from "../../emulator";
import { DEFAULT_WS, TEST_KEY, W2, withEmulator, type TestEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

interface RawRow {
  guardrail_id: string;
  user_id?: string;
  key_hash?: string;
  deleted?: boolean;
}
interface RawState {
  guardrails: { id: string; workspace_id?: string | null }[];
  memberRows: RawRow[];
  keyRows: RawRow[];
}
const KINDS = [
  {
    name: "members",
    rows: "memberRows",
    field: "member_user_ids",
    assignee: "user_id",
    ids: [...DEMO_MEMBERS, "user_ghost"],
  },
  {
    name: "keys",
    rows: "keyRows",
    field: "key_hashes",
    assignee: "key_hash",
    ids: [...DEMO_KEY_HASHES, "0000ghost0000000"],
  },
] as const;
type Kind = (typeof KINDS)[number];

/** mulberry32: the same run every time. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let emu: TestEmulator;
let api: ReturnType<typeof http>;
let admin: ReturnType<typeof http>;
beforeAll(async () => {
  emu = await withEmulator();
  api = http(`${emu.url}/api/v1`, TEST_KEY);
  admin = http(emu.url);
});
afterAll(() => emu.close());

const state = async () => (await admin("GET", "/__emulator/state")).body as RawState;

function scopeOf(s: RawState, kind: Kind, guardrailId: string): string | undefined {
  const g = s.guardrails.find((x) => x.id === guardrailId);
  if (!g) return undefined;
  return kind.name === "keys" ? "*" : typeof g.workspace_id === "string" ? g.workspace_id : "(none)";
}

/** Rules 5 and 6 as the emulator counted them before it had indexes. */
function naiveAssignCount(s: RawState, kind: Kind, guardrailId: string, ids: string[]): number {
  const scope = scopeOf(s, kind, guardrailId);
  const live = new Map<string, RawRow>();
  for (const r of s[kind.rows])
    if (!r.deleted && scopeOf(s, kind, r.guardrail_id) === scope) live.set(r[kind.assignee]!, r);
  const known = new Set<string>(kind.ids.slice(0, -1));
  let n = 0;
  for (const id of new Set(ids)) if (known.has(id) && live.get(id)?.guardrail_id !== guardrailId) n++;
  return n;
}

function naivePage(s: RawState, kind: Kind, guardrailId: string | undefined, tombstones: boolean, offset: number) {
  const rows = s[kind.rows].filter(
    (r) => (tombstones || !r.deleted) && (guardrailId === undefined || r.guardrail_id === guardrailId),
  );
  const data = rows
    .slice(offset, offset + 2)
    .filter((r) => !r.deleted)
    .map((r) => [r.guardrail_id, r[kind.assignee]]);
  return { data, total_count: rows.length };
}

describe("the emulator's assignment indexes", () => {
  it("answer every list page, assign count and move exactly as the naive scan does", async () => {
    const random = prng(29);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    // A non-empty pick, sometimes with a repeat (a bulk body needs at least one id).
    const some = <T>(xs: readonly T[]): T[] => {
      const out = xs.filter(() => random() < 0.4);
      return out.length === 0 ? [pick(xs)] : random() < 0.2 ? [...out, out[0]!] : out;
    };
    const create = async (workspace: string) =>
      (
        (await api("POST", "/guardrails", { name: `g${random()}`, workspace_id: workspace })).body as {
          data: { id: string };
        }
      ).data.id;
    let tombstones = false;
    let guardrails = [await create(DEFAULT_WS), await create(DEFAULT_WS), await create(W2)];
    const steps = { assign: 0, moved: 0, unassign: 0, pages: 0 };

    for (let step = 0; step < 160; step++) {
      const roll = random();
      const kind = pick(KINDS);
      const g = pick(guardrails);
      if (roll < 0.5) {
        const ids = some(kind.ids);
        const before = await state();
        const expected = naiveAssignCount(before, kind, g, ids);
        const res = await api("POST", `/guardrails/${g}/assignments/${kind.name}`, { [kind.field]: ids });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect((res.body as { assigned_count: number }).assigned_count).toBe(expected);
        steps.assign++;
        if (before[kind.rows].some((r) => !r.deleted && r.guardrail_id !== g && ids.includes(r[kind.assignee]!)))
          steps.moved++;
      } else if (roll < 0.8) {
        const res = await api("POST", `/guardrails/${g}/assignments/${kind.name}/remove`, {
          [kind.field]: some(kind.ids),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        steps.unassign++;
      } else if (roll < 0.88) {
        expect((await api("DELETE", `/guardrails/${g}`)).status).toBe(200);
        guardrails = guardrails.filter((x) => x !== g).concat(await create(pick([DEFAULT_WS, W2])));
      } else if (roll < 0.96) {
        tombstones = !tombstones;
        await emu.setFaults({ shortPages: tombstones });
      } else {
        await admin("POST", "/__emulator/reset", {});
        guardrails = [await create(DEFAULT_WS), await create(DEFAULT_WS), await create(W2)];
        tombstones = false;
      }

      const s = await state();
      for (const k of KINDS) {
        const live = new Set<string>();
        for (const r of s[k.rows]) {
          if (r.deleted) continue;
          const key = `${r[k.assignee]} in ${scopeOf(s, k, r.guardrail_id)}`;
          expect(live.has(key), `${key} held twice`).toBe(false);
          live.add(key);
        }
        for (const target of [...guardrails, undefined]) {
          const base = target ? `/guardrails/${target}/assignments/${k.name}` : `/guardrails/assignments/${k.name}`;
          for (let offset = 0; ; offset += 2) {
            const page = (await api("GET", `${base}?offset=${offset}&limit=2`)).body as {
              data: RawRow[];
              total_count: number;
            };
            const want = naivePage(s, k, target, tombstones, offset);
            expect({
              data: page.data.map((r) => [r.guardrail_id, r[k.assignee]]),
              total_count: page.total_count,
            }).toEqual(want);
            steps.pages++;
            if (offset + 2 >= want.total_count) break;
          }
        }
      }
    }
    // The run exercised what the indexes must follow.
    expect(steps.assign).toBeGreaterThan(40);
    expect(steps.moved).toBeGreaterThan(5);
    expect(steps.unassign).toBeGreaterThan(20);
    expect(steps.pages).toBeGreaterThan(1000);
  });
});
