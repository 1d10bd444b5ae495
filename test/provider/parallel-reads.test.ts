/**
 * Parallel paged reads and the one budget (issue 29) through the provider's own read and
 * create, over real HTTP to the emulator. The set is edited mid-walk from inside the
 * emulator (its fault hook runs as each call arrives), so the edit lands between pages at
 * a known point however the pages interleave.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MEMBERS as MEMBER_ROWS } from "../../emulator/assignment-kinds";
import { configure, resetConfiguration } from "../../src/core/settings/config";
import { memberAssignment } from "../../src/dynamic/internal";
import { FOREIGN } from "../../src/core/assignments/status";
import { TEST_KEY, withEmulator } from "../helpers/emulator";

const MEMBERS = Array.from({ length: 1000 }, (_, i) => `user_${String(i).padStart(4, "0")}`);
let emu: Awaited<ReturnType<typeof withEmulator>>;
const asMap = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));
const assigned = (props: Record<string, unknown>) =>
  Object.entries(props.members as Record<string, unknown>)
    .filter(([, v]) => v === true)
    .map(([k]) => k)
    .sort();

beforeAll(async () => {
  emu = await withEmulator({ members: MEMBERS, maxBulk: 500 });
});
afterAll(() => emu.close());
beforeEach(async () => {
  resetConfiguration();
  configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
  await emu.setFaults({ shortPages: false, rateLimitRate: 0, latencyMs: 0 });
});

/** Runs `edit` inside the emulator as its `at`-th call arrives, before the call is answered. */
function editAt(at: number, edit: () => void): () => void {
  const faults = emu.internals.faults;
  const original = faults.before.bind(faults);
  let calls = 0;
  faults.before = () => {
    if (++calls === at) edit();
    return original();
  };
  return () => {
    faults.before = original;
  };
}

describe.each([false, true])("a set edited while a read walks its pages (short pages: %s)", (shortPages) => {
  it("the read sees every row that is there at its end: none moved past it unseen", async () => {
    await emu.setFaults({ shortPages, latencyMs: 5 });
    const g = (await emu.client().createGuardrail({ name: `walk-${shortPages}` })).id;
    const created = await memberAssignment.create({
      __provider: "p",
      guardrailId: g,
      members: asMap(MEMBERS.slice(0, 450)),
      exclusive: false,
    });
    await emu.clearLog();
    // Page 0 is read, then 20 rows from its window leave: every later row moves up 20 places.
    const restore = editAt(2, () => emu.internals.ops.unassign(MEMBER_ROWS, g, MEMBERS.slice(10, 30)));
    try {
      const read = await memberAssignment.read(created.id, created.outs);
      const seen = assigned(read.props!);
      // Every row still there at the end is read; with tombstones the rows that left page 0
      // after it was read are still in it (read before they left), and nothing moved.
      const after = [...MEMBERS.slice(0, 10), ...MEMBERS.slice(30, 450)];
      expect(seen).toEqual(shortPages ? MEMBERS.slice(0, 450) : after);
    } finally {
      restore();
    }
    const pages = (await emu.log()).counts.listGuardrailMemberAssignments;
    // With tombstones the windows keep their places: no walk again, the minimum calls.
    if (shortPages) expect(pages).toBe(5);
    else expect(pages).toBeGreaterThan(5);
  });
});

// Issue 38: 20 rows leave page 0's window after it is read and 20 others join at the end, so
// total_count never changes: every later row moves up 20 places, and a read that checks only
// the count misses the 20 that moved onto page 0. Each page now repeats the last row of the one
// before it, and that row must match.
describe.each(["1", "4", "8"])("an equal-count swap while a read walks its pages (maxConcurrency %s)", (n) => {
  it("the read sees every member there at its end: the shift shows at a page boundary and the read walks again", async () => {
    configure(
      (k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url, "guardrails:maxConcurrency": n })[k],
    );
    await emu.setFaults({ latencyMs: 5 });
    const g = (await emu.client().createGuardrail({ name: `swap-${n}` })).id;
    const created = await memberAssignment.create({
      __provider: "p",
      guardrailId: g,
      members: asMap(MEMBERS.slice(0, 450)),
      exclusive: true,
    });
    await emu.clearLog();
    const restore = editAt(2, () => {
      emu.internals.ops.unassign(MEMBER_ROWS, g, MEMBERS.slice(10, 30));
      emu.internals.ops.assign(MEMBER_ROWS, g, MEMBERS.slice(450, 470));
    });
    let read: Awaited<ReturnType<typeof memberAssignment.read>>;
    try {
      read = await memberAssignment.read(created.id, created.outs);
    } finally {
      restore();
    }
    const members = read.props!.members as Record<string, unknown>;
    // In exclusive mode every live id is in the map: `true` (the program's) or foreign.
    const live = Object.keys(members)
      .filter((k) => members[k] === true || members[k] === FOREIGN)
      .sort();
    expect(live).toEqual([...MEMBERS.slice(0, 10), ...MEMBERS.slice(30, 470)]);
    expect(Object.keys(members).filter((k) => members[k] === FOREIGN)).toEqual(MEMBERS.slice(450, 470));
    // 450 rows: pages at 0, 99, 198, 297, 396 (5, as without the overlap); the shift is seen at
    // the first boundary read after the edit, so that walk stops early and a second one reads all 5.
    const pages = (await emu.log()).counts.listGuardrailMemberAssignments;
    expect(pages).toBeGreaterThan(5);
    expect(pages).toBeLessThanOrEqual(5 + 1 + 2 * Number(n));
  });
});

describe("one budget under a 429", () => {
  it("a 429 on one page of a parallel read holds back every call until its Retry-After, and the read converges", async () => {
    await emu.setFaults({ latencyMs: 300 });
    const g = (await emu.client().createGuardrail({ name: "burst" })).id;
    const created = await memberAssignment.create({
      __provider: "p",
      guardrailId: g,
      members: asMap(MEMBERS),
      exclusive: false,
    });
    const arrivals: Array<{ at: number; limited: boolean }> = [];
    const faults = emu.internals.faults;
    const original = faults.before.bind(faults);
    // Call 1 is page 0; pages 1 to 4 then go out together, and page 2 is told to wait 2 s.
    faults.before = () => {
      const limited = arrivals.length === 2;
      arrivals.push({ at: Date.now(), limited });
      return limited ? { kind: "rate-limit", retryAfter: 2 } : original();
    };
    try {
      const read = await memberAssignment.read(created.id, created.outs);
      expect(assigned(read.props!)).toEqual(MEMBERS);
    } finally {
      faults.before = original;
    }
    // 1,000 rows in pages of 100 that share a row with the page before: 11 pages, and the retry.
    expect(arrivals).toHaveLength(12);
    const told = arrivals[2]!.at;
    // Arrivals are timed after the emulator's 300 ms: calls on the wire when the 429 was answered
    // arrive up to 300 ms later (pages 5 to 7); without the pause the pages after them would
    // arrive 300 ms later still (the margin absorbs a loaded machine's event-loop lag). None may
    // start before the Retry-After is over.
    expect(arrivals.filter((a) => a.at > told + 450 && a.at < told + 1950)).toEqual([]);
    expect(arrivals.filter((a) => a.at >= told + 1950).length).toBeGreaterThanOrEqual(5);
  });
});

describe("429 bursts from the emulator", () => {
  it("a create and a read converge, and the request log shows the whole budget backing off after each 429", async () => {
    await emu.setFaults({ rateLimitRate: 0.15, rateLimitBurst: 3, retryAfterSeconds: 2, seed: 3, latencyMs: 300 });
    // Two in flight: pages wait for a slot, so one sent too early would show.
    const config: Record<string, string> = {
      "guardrails:apiKey": TEST_KEY,
      "guardrails:baseUrl": emu.url,
      "guardrails:maxConcurrency": "2",
    };
    configure((k) => config[k]);
    const g = (await emu.client().createGuardrail({ name: "bursts" })).id;
    await emu.clearLog();
    const created = await memberAssignment.create({
      __provider: "p",
      guardrailId: g,
      members: asMap(MEMBERS),
      exclusive: true,
    });
    const read = await memberAssignment.read(created.id, created.outs);
    expect(assigned(read.props!)).toEqual(MEMBERS);
    const { entries } = await emu.log();
    const limited = entries.filter((e) => e.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    // A call sent before a 429 was answered arrives at once (loopback, give or take a loaded
    // machine's event-loop lag; the emulator logs it before its 300 ms); none may arrive later
    // until the Retry-After (2 s) is over: the budget holds every call back. Without the pause, the calls waiting for a slot would go out at once,
    // and the next ones 300 ms later.
    for (const told of limited) {
      const answered = told.receivedAt! + (told.delayedMs ?? 0);
      const early = entries.filter((e) => e.receivedAt! > answered + 250 && e.receivedAt! < answered + 1850);
      expect(early, `calls during the pause after the 429 at ${answered}`).toEqual([]);
    }
  });
});
