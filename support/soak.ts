/**
 * A model-based soak under the real CLI: each round applies a random program edit (add or
 * remove guardrails, members and keys, rename, change settings, flip `exclusive`), random
 * out-of-band changes through the emulator's API and random faults (5xx, 429 bursts, dropped
 * answers); after `pulumi up --refresh` converges, the service must equal the program (no
 * duplicate, no orphan, every set exact) and the state must equal the service (a refreshed
 * preview and a plain preview show no change). Shared by the e2e test and `npm run soak`.
 */
import { http } from "./spawn-emulator";
import { Program, type PulumiContext } from "./program";

export interface SoakOptions {
  rounds: number;
  seed: number;
  /** Attempts of `up --refresh` per round before the round counts as not converging. @default 6 */
  maxUps?: number;
  log?: (line: string) => void;
}

export interface SoakResult {
  rounds: number;
  seed: number;
  ups: number;
  failedUps: number;
  faults: Record<string, number>;
  outOfBand: number;
}

interface ModelGuardrail {
  name: string;
  limitUsd: number;
  exclusive: boolean;
  members: Set<string>;
  keys: Set<string>;
  /** Members outside the program put here by hand: an additive set leaves them, an exclusive one removes them. */
  foreign: Set<string>;
}

const MEMBERS = Array.from({ length: 16 }, (_, i) => `user_soak${String(i).padStart(2, "0")}`);
const FOREIGN = Array.from({ length: 4 }, (_, i) => `user_foreign${i}`);
const KEYS = Array.from({ length: 10 }, (_, i) => `soak${String(i).padStart(12, "0")}`);

/** mulberry32, as the emulator's faults: the same seed replays the same soak. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return { next, pick, chance: (p: number) => next() < p };
}

function program(model: Map<string, ModelGuardrail>): string {
  const lines = [
    `import { Guardrail, GuardrailMemberAssignment, GuardrailKeyAssignment } from "pulumi-guardrails";`,
    `export const ids: Record<string, unknown> = {};`,
  ];
  for (const [logical, g] of [...model].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(
      `{ const g = new Guardrail(${JSON.stringify(logical)}, { name: ${JSON.stringify(g.name)}, limitUsd: ${g.limitUsd}, resetInterval: "monthly" }); ids[${JSON.stringify(logical)}] = g.id;`,
    );
    if (g.members.size > 0 || g.exclusive)
      lines.push(
        `  new GuardrailMemberAssignment(${JSON.stringify(`${logical}-members`)}, { guardrailId: g.id, exclusive: ${g.exclusive}, memberUserIds: ${JSON.stringify([...g.members].sort())} });`,
      );
    if (g.keys.size > 0)
      lines.push(
        `  new GuardrailKeyAssignment(${JSON.stringify(`${logical}-keys`)}, { guardrailId: g.id, keyHashes: ${JSON.stringify([...g.keys].sort())} });`,
      );
    lines.push("}");
  }
  return lines.join("\n") + "\n";
}

interface Dump {
  guardrails: Array<{ id: string; name: string; limit_usd: number | null }>;
  memberRows: Array<{ user_id: string; guardrail_id: string; deleted?: boolean }>;
  keyRows: Array<{ key_hash: string; guardrail_id: string; deleted?: boolean }>;
}

type Rng = ReturnType<typeof rng>;
type Admin = ReturnType<typeof http>;

/** What one soak carries from round to round. */
interface SoakRun {
  p: Program;
  admin: Admin;
  r: Rng;
  model: Map<string, ModelGuardrail>;
  result: SoakResult;
  /** The last guardrail number handed out. */
  serial: number;
}

/** Runs the soak; throws (naming the round and seed) on the first divergence. */
export async function runSoak(context: PulumiContext, options: SoakOptions): Promise<SoakResult> {
  const { rounds, seed } = options;
  const log = options.log ?? (() => undefined);
  const p = await Program.create(context, `soak-${seed}`, {});
  const admin = http(p.emulator.url);
  await admin("POST", "/__emulator/members", { user_ids: [...MEMBERS, ...FOREIGN] });
  await admin("POST", "/__emulator/key-hashes", { key_hashes: KEYS });
  const run: SoakRun = {
    p,
    admin,
    r: rng(seed),
    model: new Map(),
    result: { rounds: 0, seed, ups: 0, failedUps: 0, faults: {}, outOfBand: 0 },
    serial: 0,
  };
  try {
    for (let round = 1; round <= rounds; round++) {
      // Out-of-band changes to what the last round left (faults off while a person types).
      const edits = run.model.size > 0 ? await outOfBandEdits(run) : [];
      edits.push(...programEdits(run, round));
      p.write(program(run.model));
      const { faults, injected, failures } = await upUnderFaults(run, round, seed, options.maxUps ?? 6, edits);
      await expectConverged(p, run.model, round, seed);
      run.result.rounds = round;
      log(
        `soak round ${round}/${rounds} (seed ${seed}): ${edits.join(", ")}; faults ${JSON.stringify({ e: faults.errorRate, r: faults.rateLimitRate, d: faults.dropAfterApplyRate })}; ${injected} injected; ${failures.length} failed up(s)${failures.length > 0 ? `: ${failures.join(" || ")}` : ""}`,
      );
    }
    return run.result;
  } finally {
    await p.close();
  }
}

/** One to three random changes through the API, as a person would make them; the model follows. */
async function outOfBandEdits({ p, admin, r, model, result }: SoakRun): Promise<string[]> {
  const edits: string[] = [];
  const d = (await admin("GET", "/__emulator/state")).body as Dump;
  const byName = new Map(d.guardrails.map((g) => [g.name, g.id]));
  const gone = new Set<string>();
  for (let i = 0; i < 1 + Math.floor(r.next() * 3); i++) {
    const [logical, g] = r.pick([...model]);
    if (gone.has(logical)) continue;
    const id = byName.get(g.name)!;
    const kind = r.pick(["patch", "unassign", "move", "foreign", "delete"] as const);
    if (kind === "patch") await p.api("PATCH", `/guardrails/${id}`, { limit_usd: g.limitUsd + 1000 });
    if (kind === "unassign" && g.members.size > 0)
      await p.api("POST", `/guardrails/${id}/assignments/members/remove`, {
        member_user_ids: [r.pick([...g.members])],
      });
    if (kind === "move" && g.members.size > 0 && model.size > 1) {
      const other = r.pick([...model.values()].filter((o) => o !== g));
      await p.api("POST", `/guardrails/${byName.get(other.name)}/assignments/members`, {
        member_user_ids: [r.pick([...g.members])],
      });
    }
    if (kind === "foreign") {
      const f = r.pick(FOREIGN);
      await p.api("POST", `/guardrails/${id}/assignments/members`, { member_user_ids: [f] });
      for (const o of model.values()) o.foreign.delete(f); // one guardrail per workspace: it moved here
      g.foreign.add(f);
    }
    if (kind === "delete") {
      await p.api("DELETE", `/guardrails/${id}`);
      g.foreign.clear();
      gone.add(logical);
    }
    result.outOfBand++;
    edits.push(`oob:${kind}(${logical})`);
  }
  return edits;
}

/** Random program edits to the model; the first round starts from three guardrails, so later rounds have sets to move between. */
function programEdits(run: SoakRun, round: number): string[] {
  const { r, model } = run;
  const edits: string[] = [];
  const freeMembers = () => MEMBERS.filter((m) => ![...model.values()].some((g) => g.members.has(m)));
  const freeKeys = () => KEYS.filter((k) => ![...model.values()].some((g) => g.keys.has(k)));
  for (let i = 0; i < (round === 1 ? 3 : 2 + Math.floor(r.next() * 3)); i++) {
    const op =
      round === 1 || model.size === 0
        ? "add"
        : r.pick([
            "add",
            "add",
            "remove",
            "rename",
            "relogical",
            "limit",
            "member+",
            "member-",
            "member-move",
            "key+",
            "key-",
            "flip",
          ] as const);
    const entries = [...model];
    const [logical, g] = entries.length > 0 ? r.pick(entries) : ["", undefined];
    if (op === "add" && model.size < 5) {
      run.serial++;
      const members = new Set(
        freeMembers()
          .filter(() => r.chance(0.3))
          .slice(0, 4),
      );
      model.set(`g${run.serial}`, {
        name: `Soak ${run.serial}`,
        limitUsd: 10 * run.serial,
        exclusive: r.chance(0.5),
        members,
        keys: new Set(
          freeKeys()
            .filter(() => r.chance(0.2))
            .slice(0, 2),
        ),
        foreign: new Set(),
      });
    } else if (!g) continue;
    else if (op === "remove") model.delete(logical);
    else if (op === "rename") g.name = `${g.name}'`;
    else if (op === "relogical") {
      model.delete(logical);
      model.set(`${logical}r`, g);
      g.foreign.clear(); // a new guardrail replaces the old one
    } else if (op === "limit") g.limitUsd += 1;
    else if (op === "member+" && freeMembers().length > 0) g.members.add(r.pick(freeMembers()));
    else if (op === "member-" && g.members.size > 0) g.members.delete(r.pick([...g.members]));
    else if (op === "member-move" && g.members.size > 0 && model.size > 1) {
      const m = r.pick([...g.members]);
      g.members.delete(m);
      r.pick([...model.values()].filter((o) => o !== g)).members.add(m);
    } else if (op === "key+" && freeKeys().length > 0) g.keys.add(r.pick(freeKeys()));
    else if (op === "key-" && g.keys.size > 0) g.keys.delete(r.pick([...g.keys]));
    else if (op === "flip") g.exclusive = !g.exclusive;
    edits.push(op === "add" ? `add(g${run.serial})` : `${op}(${logical})`);
  }
  return edits;
}

/** `up --refresh` under random faults until it succeeds (at most `maxUps` times); throws when it never does or crashes. */
async function upUnderFaults(
  { p, admin, r, result }: SoakRun,
  round: number,
  seed: number,
  maxUps: number,
  edits: string[],
) {
  const faults = {
    seed: seed * 1000 + round,
    errorRate: r.pick([0.1, 0.2, 0.3]),
    rateLimitRate: r.pick([0, 0.05]),
    rateLimitBurst: 2,
    retryAfterSeconds: 0,
    dropAfterApplyRate: r.pick([0, 0.1]),
  };
  await admin("PUT", "/__emulator/faults", faults);
  await p.clearLog();
  let ok = false;
  const failures: string[] = [];
  for (let attempt = 1; attempt <= maxUps && !ok; attempt++) {
    const res = await p.pulumi(["up", "--yes", "--skip-preview", "--refresh"]);
    result.ups++;
    ok = res.code === 0;
    if (!ok) {
      result.failedUps++;
      failures.push(
        res.output
          .split("\n")
          .filter((l) => /error:/.test(l))
          .slice(0, 3)
          .join(" | "),
      );
      if (/TypeError|ReferenceError|Cannot read propert/.test(res.output))
        throw new Error(`round ${round} (seed ${seed}): a crash, not a clear error:\n${res.output}`);
    }
  }
  const injected = (
    (await admin("GET", "/__emulator/log")).body as { entries: Array<{ fault?: string }> }
  ).entries.filter((e) => e.fault);
  for (const e of injected) result.faults[e.fault!] = (result.faults[e.fault!] ?? 0) + 1;
  await admin("PUT", "/__emulator/faults", { errorRate: 0, rateLimitRate: 0, dropAfterApplyRate: 0 });
  if (!ok)
    throw new Error(
      `round ${round} (seed ${seed}) did not converge in ${maxUps} ups; edits ${edits.join(", ")}; errors: ${failures.join(" || ")}`,
    );
  return { faults, injected: injected.length, failures };
}

async function expectConverged(
  p: Program,
  model: Map<string, ModelGuardrail>,
  round: number,
  seed: number,
): Promise<void> {
  const fail = (what: string) => {
    throw new Error(`round ${round} (seed ${seed}): ${what}`);
  };
  const d = (await http(p.emulator.url)("GET", "/__emulator/state")).body as Dump;
  const names = d.guardrails.map((g) => g.name).sort();
  const wanted = [...model.values()].map((g) => g.name).sort();
  if (JSON.stringify(names) !== JSON.stringify(wanted))
    fail(
      `the service holds guardrails ${JSON.stringify(names)}, the program ${JSON.stringify(wanted)} (a duplicate or an orphan)`,
    );
  const ids = ((await p.outputs()).ids ?? {}) as Record<string, string>;
  for (const [logical, g] of model) {
    const live = d.guardrails.find((x) => x.name === g.name)!;
    if (ids[logical] !== live.id) fail(`${logical}: the state holds id ${ids[logical]}, the service ${live.id}`);
    if (live.limit_usd !== g.limitUsd) fail(`${logical}: limit ${live.limit_usd}, the program ${g.limitUsd}`);
    // An exclusive set removed what was put by hand; an additive one (or none) left it.
    if (g.exclusive) g.foreign.clear();
    const expected = [...g.members, ...g.foreign].sort();
    const members = d.memberRows
      .filter((m) => !m.deleted && m.guardrail_id === live.id)
      .map((m) => m.user_id)
      .sort();
    if (JSON.stringify(members) !== JSON.stringify(expected))
      fail(
        `${logical}: members ${JSON.stringify(members)}, expected ${JSON.stringify(expected)} (program plus foreign left by an additive set)`,
      );
    const keys = d.keyRows
      .filter((k) => !k.deleted && k.guardrail_id === live.id)
      .map((k) => k.key_hash)
      .sort();
    if (JSON.stringify(keys) !== JSON.stringify([...g.keys].sort()))
      fail(`${logical}: keys ${JSON.stringify(keys)}, the program ${JSON.stringify([...g.keys].sort())}`);
  }
  for (const check of [
    ["refresh", "--preview-only", "--expect-no-changes"],
    ["preview", "--expect-no-changes"],
  ]) {
    const res = await p.pulumi(check);
    if (res.code !== 0) fail(`\`pulumi ${check.join(" ")}\` found changes after convergence:\n${res.output}`);
  }
}
