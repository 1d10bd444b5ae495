/**
 * The effective-access tables of issue 41 (`npm run bench` prints them; `BENCH_ONLY=access npm
 * run bench` prints them alone, in well under a minute, without the pulumi CLI):
 *
 * - **Effective access in-process**: every member's facts computed from one org read
 *   (`factsOf`, src/core/data-sources/access-org.ts) and combined (`effectiveAccess`), then
 *   `explain`ed against one model, at N members, in this process; median of 3 runs.
 * - **Calls of a `who`**: the built `guardrails-access who` run as a user runs it, against a
 *   spawned emulator holding N members spread over guardrails and policies: its calls by
 *   operation from the emulator's log, and its wall time (the child's, start to exit, Node's
 *   start included). "One lookup per member" is what the same answer would cost through
 *   `getEffectiveAccess` per member in one process: 10 calls each, and the org-wide listing
 *   once (the process shares it: client/org-assignments.ts).
 *
 * Figures only: nothing here asserts a time. Env: `ACCESS_N` (comma list, default 100,1000,10000).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { effectiveAccess, explain } from "../src/core/access";
import { factsOf, type OrgRead, type PolicyRead } from "../src/core/data-sources/access-org";
import { GuardrailsClient } from "../src/core/client";
import { PolicyClient } from "../src/core/client/policies";
import { policyConfig } from "../src/core/fields/policy-kinds";
import { http, REPO_ROOT, spawnEmulator } from "../support/spawn-emulator";

const run = promisify(execFile);
const SIZES = (process.env.ACCESS_N ?? "100,1000,10000").split(",").map(Number);
const WS = "00000000-0000-4000-8000-000000000001";
const KEY = "bench-management-key";
/** The org's shape, the same at every N: member i is on guardrail i % 20 (every fifth on none), and a third hold one of 10 direct budgets. */
const GUARDRAILS = 20;
const POLICIES = 10;
const teamOf = (i: number) => (i % 5 === 0 ? undefined : i % GUARDRAILS);
const budgetOf = (i: number) => (i % 30 < POLICIES ? i % 30 : undefined);
const member = (i: number) => `user_${String(i).padStart(6, "0")}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => n.toLocaleString("en");

/** A synthetic workspace of `n` members: 20 guardrails, 10 direct budgets, three defaults, one workspace-wide. */
function syntheticOrg(n: number): OrgRead {
  const g = (i: number) => ({
    id: `g-${i}`,
    name: `Team ${i}`,
    settings: { allowedProviders: ["vendor-a", i % 2 ? "vendor-b" : "vendor-c"], limitUsd: 100 + i },
  });
  const guardrails = new Map(Array.from({ length: GUARDRAILS }, (_, i) => [`g-${i}`, g(i)]));
  // Every fifth member holds no guardrail: the workspace default applies to it.
  const memberHolders = new Map(
    Array.from({ length: n }, (_, i) => i)
      .filter((i) => teamOf(i) !== undefined)
      .map((i) => [member(i), [`g-${teamOf(i)}`]]),
  );
  const policy = (id: string, kind: PolicyRead["kind"], settings: object, members: string[], dflt = false) => ({
    id,
    name: id,
    kind,
    settings,
    isWorkspaceDefault: dflt,
    isLegacyMapped: false,
    legacyGuardrailIds: [],
    memberIds: new Set(members),
    keyHashes: new Set<string>(),
    optedOutMemberIds: new Set(dflt ? [member(1)] : []),
    optedOutKeyHashes: new Set<string>(),
  });
  const all = Array.from({ length: n }, (_, i) => i);
  const direct = Array.from({ length: POLICIES }, (_, p) =>
    policy(
      `budget-${p}`,
      "budget",
      { limitUsd: p, resetInterval: "monthly" },
      all.filter((i) => budgetOf(i) === p).map(member),
    ),
  );
  return {
    workspaceId: WS,
    workspaceDefault: { id: "dflt", name: "Default", settings: { allowedDataRegions: ["europe", "us"] } },
    guardrails,
    memberHolders,
    keyHolders: new Map(),
    policies: [
      ...direct,
      policy("d-budget", "budget", { limitUsd: 20, resetInterval: "weekly" }, [], true),
      policy("d-models", "modelAvailability", { ignoredModels: ["vendor-x/model-z"] }, [], true),
      policy("d-mod", "moderation", { contentFilterBuiltins: [{ slug: "pii-email", action: "redact" }] }, [], true),
    ],
    workspaceWide: [
      {
        id: "wide",
        name: "wide",
        kind: "modelAvailability",
        settings: { ignoredProviders: ["vendor-x"] },
        workspaceIds: [],
        optedOutWorkspaceIds: [],
        isDefault: true,
      },
    ],
  };
}

/** ms to compute every member's effective access (and with an explain), median of 3. */
function inProcess(n: number): { combineMs: number; explainMs: number } {
  const org = syntheticOrg(n);
  const ids = Array.from({ length: n }, (_, i) => member(i));
  const time = (f: () => void) =>
    median(
      [0, 1, 2].map(() => {
        const t = performance.now();
        f();
        return performance.now() - t;
      }),
    );
  const combineMs = time(() => {
    for (const m of ids) effectiveAccess(factsOf(org, { memberId: m }).facts);
  });
  const explainMs = time(() => {
    for (const m of ids) explain(effectiveAccess(factsOf(org, { memberId: m }).facts), { provider: "vendor-b" });
  });
  return { combineMs, explainMs };
}

/** The emulator's org of `n` members, shaped as `syntheticOrg`'s (the default budget only of the three defaults). */
async function seed(url: string, n: number): Promise<void> {
  const client = new GuardrailsClient({ baseUrl: url, apiKey: KEY });
  const pc = new PolicyClient(client);
  const ids = Array.from({ length: n }, (_, i) => member(i));
  for (let g = 0; g < GUARDRAILS; g++) {
    const made = await client.createGuardrail({
      name: `Team ${g}`,
      workspace_id: WS,
      allowed_providers: ["vendor-a", g % 2 ? "vendor-b" : "vendor-c"],
    });
    const team = ids.filter((_, i) => teamOf(i) === g);
    for (let at = 0; at < team.length; at += 500) await client.assignMembers(made.id, team.slice(at, at + 500));
  }
  for (let p = 0; p < POLICIES; p++) {
    const members = ids.filter((_, i) => budgetOf(i) === p);
    await pc.createPolicy("budget", {
      name: `budget ${p}`,
      config: policyConfig("budget", { limitUsd: p, resetInterval: "monthly" }),
      workspace_id: WS,
      member_ids: members,
      api_key_hashes: [],
    });
  }
  await pc.createPolicy("budget", {
    name: "everyone weekly",
    config: policyConfig("budget", { limitUsd: 20, resetInterval: "weekly" }),
    workspace_id: WS,
    member_ids: [],
    api_key_hashes: [],
    is_workspace_default: true,
  });
}

interface WhoRow {
  n: number;
  calls: number;
  listingPages: number;
  policyDetails: number;
  other: number;
  ms: number;
  perMember: number;
}

async function whoCalls(n: number): Promise<WhoRow> {
  const members = Array.from({ length: n }, (_, i) => member(i));
  const emu = await spawnEmulator(["--management-key", KEY, "--members", members.join(",")]);
  try {
    await seed(emu.url, n);
    const admin = http(emu.url);
    await admin("DELETE", "/__emulator/log");
    const env = { PATH: process.env.PATH, GUARDRAILS_API_KEY: KEY, GUARDRAILS_BASE_URL: emu.url };
    const bin = join(REPO_ROOT, "dist/tools/access/cli.js");
    const t = performance.now();
    await run(process.execPath, [bin, "who", "--provider", "vendor-b", "--workspace", WS, "--json"], {
      env,
      maxBuffer: 1 << 30,
    });
    const ms = performance.now() - t;
    const counts = ((await admin("GET", "/__emulator/log")).body as { counts: Record<string, number> }).counts;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const listingPages = (counts.listAllMemberAssignments ?? 0) + (counts.listAllKeyAssignments ?? 0);
    const policyDetails = Object.entries(counts)
      .filter(([op]) => /^get.*Policy$/.test(op))
      .reduce((a, [, c]) => a + c, 0);
    // One getEffectiveAccess per member in one process: 10 calls each (access-facts.ts), the org-wide listing walked once.
    const perMember = n * 10 + listingPages;
    return { n, calls: total, listingPages, policyDetails, other: total - listingPages - policyDetails, ms, perMember };
  } finally {
    await emu.stop();
  }
}

/** Both tables, as Markdown. */
export async function runAccessBench(): Promise<string> {
  const out = [
    "**Effective access in-process** (every member's facts from one org read, combined; then explained)",
    "",
    "| members | factsOf + effectiveAccess, all | per member | + explain, all | per member |",
    "|---:|---:|---:|---:|---:|",
  ];
  inProcess(1000); // warm-up: the first sizes would otherwise time the JIT
  for (const n of [...new Set([...SIZES, 10000, 100000])].sort((a, b) => a - b)) {
    const { combineMs, explainMs } = inProcess(n);
    out.push(
      `| ${fmt(n)} | ${combineMs.toFixed(0)} ms | ${((combineMs * 1000) / n).toFixed(1)} µs | ${explainMs.toFixed(0)} ms | ${((explainMs * 1000) / n).toFixed(1)} µs |`,
    );
  }
  out.push(
    "",
    "**Calls of a `who`** (`guardrails-access who --provider vendor-b --json`, the built bin against the emulator)",
    "",
    "| members | calls | of them, org-wide listing pages | policy details | other | time (child process) | one lookup per member would take |",
    "|---:|---:|---:|---:|---:|---:|---:|",
  );
  for (const n of SIZES) {
    const r = await whoCalls(n);
    out.push(
      `| ${fmt(r.n)} | ${r.calls} | ${r.listingPages} | ${r.policyDetails} | ${r.other} | ${(r.ms / 1000).toFixed(1)} s | ${fmt(r.perMember)} calls |`,
    );
  }
  return out.join("\n");
}

if (require.main === module)
  runAccessBench().then(
    (md) => process.stdout.write(`${md}\n`),
    (err: unknown) => {
      process.stderr.write(`bench access: ${(err as Error).stack}\n`);
      process.exitCode = 1;
    },
  );
