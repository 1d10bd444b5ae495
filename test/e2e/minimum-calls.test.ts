/**
 * The calls of each command at the minimum under the real CLI (issue 43, "Must show"), on both
 * faces: one member set of N = 2,000 (bulk maximum 500, pages of 100; default settings) created,
 * grown by one, shrunk by one, previewed with no change, refreshed and destroyed, then a stack of
 * 10 sets on 10 guardrails, each adding one member in one run. `pulumi up` runs its preview and
 * its update in two provider processes, so each change is run as `pulumi preview` (the first
 * phase) and `pulumi up --skip-preview` (the second), and both are counted.
 *
 * The minimum counts the safety reads once per command (docs/performance.md, "Safety reads"):
 * the org-wide walk of member assignments costs `ceil(M/100)` pages plus the overlap reads
 * (issue 38) for M assignments in the organization. The credentials check
 * (`GET /guardrails?offset=0&limit=1`) is one per provider process and is listed apart. Call
 * counts are deterministic, so they are asserted exactly; wall time never is.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { http } from "../../support/spawn-emulator";
import { NATIVE_BIN } from "../helpers/parity-face";
import { type Program, useProgram } from "./harness";

const N = 2000;
const MAX_BULK = 500;
const PAGE = 100;
const SETS = 10;

/** Pages to walk M rows: page 0, then windows of 99 new rows each (one row shared, issue 38). */
const pages = (m: number) => (m <= PAGE ? 1 : 1 + Math.ceil((m - PAGE) / (PAGE - 1)));
const bulks = (n: number) => Math.ceil(n / MAX_BULK);

const ids = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `user_${String(from + i).padStart(5, "0")}`);

type Face = "dynamic" | "native";

/** A program of `sets` guardrails, set i holding the ids of members-i.json. */
function programText(face: Face, sets: number): string {
  const head =
    face === "dynamic"
      ? `import { Guardrail, GuardrailMemberAssignment } from "pulumi-guardrails";
const guardrail = (name: string) => new Guardrail(name, { name });
const set = (name: string, guardrailId: any, memberUserIds: string[]) => new GuardrailMemberAssignment(name, { guardrailId, memberUserIds });`
      : `import * as pulumi from "@pulumi/pulumi";
class Native extends pulumi.CustomResource {}
const guardrail = (name: string) => new Native("guardrails:index:Guardrail", name, { name, guardrailId: undefined });
const set = (name: string, guardrailId: any, memberUserIds: string[]) =>
  new Native("guardrails:index:GuardrailMemberAssignment", name, { guardrailId, memberUserIds, exclusive: undefined });`;
  return `${head}
import { readFileSync } from "fs";
for (let i = 0; i < ${sets}; i++) {
  const g = guardrail("g" + i);
  set("s" + i, g.id, JSON.parse(readFileSync("members-" + i + ".json", "utf8")));
}
`;
}

/** The calls of one command: the credentials checks apart, the rest by `METHOD operation`. */
interface Counted {
  credentials: number;
  calls: number;
  safety: number;
  by: Record<string, number>;
}

const CREDENTIALS = (e: { method: string; operation: string | null; query: string }) =>
  e.method === "GET" && e.operation === "listGuardrails" && e.query === "?offset=0&limit=1";
/** The safety reads: the org-wide listings' pages, and the policy lists of a Guardrail's refresh. */
const SAFETY = new Set([
  "listAllMemberAssignments",
  "listAllKeyAssignments",
  "listBudgetPolicies",
  "listModelAvailabilityPolicies",
  "listModerationPolicies",
]);

async function counted(p: Program, args: string[]): Promise<Counted> {
  await p.clearLog();
  await p.pulumi(args, { check: true });
  const { entries } = await p.log();
  const rest = entries.filter((e) => !CREDENTIALS(e));
  const by: Record<string, number> = {};
  for (const e of rest) by[`${e.method} ${e.operation}`] = (by[`${e.method} ${e.operation}`] ?? 0) + 1;
  return {
    credentials: entries.length - rest.length,
    calls: rest.length,
    safety: rest.filter((e) => SAFETY.has(e.operation ?? "")).length,
    by,
  };
}

const PREVIEW = ["preview"];
const UP = ["up", "--yes", "--skip-preview"];

/** The rows of the table printed at the end: a command, its calls, the minimum. */
const table: string[] = [];

/**
 * The minimum of each command, the safety reads counted once (M: assignments in the organization
 * when it is walked). A create: the guardrail's POST, the org walk of the set's check (to say
 * where the ids sit; the guardrail is new, so its own list would spare nothing), the set's list
 * before it writes (adoption: ids already there cost no write), the bulk assigns. A refresh: the
 * guardrail's GET, its list, and the three policy lists of the Guardrail's refresh (one per kind
 * per workspace per process: docs/performance.md).
 */
const MINIMUM = {
  create: (n: number, sets: number, m: number) => sets + pages(m) + sets + sets * bulks(n / sets),
  addPreview: (m: number) => pages(m),
  addUp: (m: number, sets: number) => pages(m) + sets,
  refresh: (n: number) => 1 + pages(n) + 3,
  destroy: (n: number) => bulks(n) + 1,
};

describe.each(["dynamic", "native"] as Face[])("%s face: the calls of each command at N = 2,000", (face) => {
  const p = useProgram(`minimum-calls-${face}`, { create: { emulatorArgs: ["--max-bulk", String(MAX_BULK)] } });
  const members = (i: number, list: string[]) => writeFileSync(join(p.dir, `members-${i}.json`), JSON.stringify(list));

  /** Runs one command; its calls must be `minimum`, `safety` of them safety reads, and one credentials check. */
  async function expectMinimum(command: string, args: string[], minimum: number, safety: number) {
    const c = await counted(p, args);
    const ratio = minimum === 0 ? (c.calls === 0 ? 1 : Number.POSITIVE_INFINITY) : c.calls / minimum;
    table.push(
      `| ${face} | ${command} | ${c.calls} | ${c.safety} | ${minimum} | ${ratio.toFixed(2)} | ${c.credentials} | ${Object.entries(
        c.by,
      )
        .map(([op, k]) => `${op} ×${k}`)
        .join(", ")} |`,
    );
    expect({ command, calls: c.calls, safety: c.safety, credentials: c.credentials }, JSON.stringify(c.by)).toEqual({
      command,
      calls: minimum,
      safety,
      credentials: 1,
    });
  }

  beforeAll(async () => {
    if (face === "native") p.env.PATH = `${NATIVE_BIN}:${p.env.PATH}`;
    // The organization's members (seeded, no API call): N + 1 for the set, SETS more for the stack.
    await http(p.emulator.url)("POST", "/__emulator/members", { user_ids: ids(0, N + 1 + SETS) });
  });

  it("one set: create, add one, remove one, no-op preview, refresh, destroy, each at the minimum", async () => {
    p.write(programText(face, 1));
    members(0, ids(0, N));
    // The preview of a create knows no guardrail id yet: no call.
    await expectMinimum("create: preview", PREVIEW, 0, 0);
    await expectMinimum("create: up", UP, MINIMUM.create(N, 1, 0), pages(0));
    members(0, ids(0, N + 1));
    await expectMinimum("add one: preview", PREVIEW, MINIMUM.addPreview(N), pages(N));
    await expectMinimum("add one: up", UP, MINIMUM.addUp(N, 1), pages(N));
    members(0, ids(1, N + 1));
    await expectMinimum("remove one: preview", PREVIEW, 0, 0);
    await expectMinimum("remove one: up", UP, 1, 0);
    await expectMinimum("no-op preview", PREVIEW, 0, 0);
    await expectMinimum("refresh", ["refresh", "--yes", "--skip-preview"], MINIMUM.refresh(N), 3);
    await expectMinimum("destroy", ["destroy", "--yes", "--skip-preview"], MINIMUM.destroy(N), 0);
  });

  it(`${SETS} sets on ${SETS} guardrails, each adding one member in one run, share one walk`, async () => {
    const per = N / SETS;
    p.write(programText(face, SETS));
    for (let i = 0; i < SETS; i++) members(i, ids(i * per, (i + 1) * per));
    await expectMinimum(`${SETS} sets: create: up`, UP, MINIMUM.create(N, SETS, 0), pages(0));
    for (let i = 0; i < SETS; i++) members(i, [...ids(i * per, (i + 1) * per), ...ids(N + 1 + i, N + 2 + i)]);
    await expectMinimum(`${SETS} sets add one each: preview`, PREVIEW, MINIMUM.addPreview(N), pages(N));
    await expectMinimum(`${SETS} sets add one each: up`, UP, MINIMUM.addUp(N, SETS), pages(N));
    await expectMinimum("destroy", ["destroy", "--yes", "--skip-preview"], SETS * MINIMUM.destroy(per + 1), 0);
  });
});

describe("the table", () => {
  it("prints", () => {
    process.stdout.write(
      `\n| face | command | calls | of them safety reads | minimum | ratio | credentials checks | by operation |\n|---|---|---:|---:|---:|---:|---:|---|\n${table.join("\n")}\n`,
    );
  });
});
