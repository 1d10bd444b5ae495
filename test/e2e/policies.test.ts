/**
 * Guardrail Policies under the real CLI (issue 40, "Must show"), on both faces at once (the
 * dynamic TypeScript program and the native plugin, each on its own emulator and stack): a
 * program of a BudgetPolicy (members and a key), a ModelAccessPolicy (the workspace default,
 * with a member and a key opted out), a ModerationPolicy and a WorkspaceWidePolicy (a budget
 * covering a list of workspaces) goes through
 *   1. create; 2. a no-op preview; 3. an update in place (members joining and leaving by name);
 *   4. a change made out of band (plain HTTP), seen at refresh and repaired by up;
 *   5. a change made out of band after a preview: the up fails with a clear error and the
 *      change is still there; 6. import with no diff (native: `pulumi import`; dynamic: the
 *   `import` option is refused, naming what works); 7. destroy.
 * Each step's calls come from the emulator's request log.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY_HASHES as HASH } from "../../emulator";
import { REPO_ROOT } from "../../support/spawn-emulator";
import { DEFAULT_WS, W2 } from "../helpers/emulator";
import { Program } from "./harness";

type Face = "dynamic" | "native";
const FACES: Face[] = ["dynamic", "native"];
/** The workspace policies (a workspace-wide one rides along: `WIDE`). */
const KINDS = ["BudgetPolicy", "ModelAccessPolicy", "ModerationPolicy"] as const;
type Kind = (typeof KINDS)[number] | "WorkspaceWidePolicy";
const SEGMENT: Record<(typeof KINDS)[number], string> = {
  BudgetPolicy: "budget",
  ModelAccessPolicy: "model-availability",
  ModerationPolicy: "moderation",
};
/** The request log's operation names (the contract's operationIds) of each kind. */
const OP: Record<Kind, string> = {
  BudgetPolicy: "BudgetPolicy",
  ModelAccessPolicy: "ModelAvailabilityPolicy",
  ModerationPolicy: "ModerationPolicy",
  WorkspaceWidePolicy: "AccountPolicy",
};
/** Pulumi name of each kind's resource in the program. */
const NAME: Record<Kind, string> = {
  BudgetPolicy: "budget",
  ModelAccessPolicy: "models",
  ModerationPolicy: "moderation",
  WorkspaceWidePolicy: "wide",
};

type Args = Record<string, unknown>;
/** The program at one step: each kind's args; `extra` adds resources (name, kind, args, options source). */
interface Version {
  budget: Args;
  models: Args;
  moderation: Args;
  wide: Args;
  extra?: Array<{ name: string; kind: Kind; args: Args; opts?: string }>;
}

const V1: Version = {
  budget: {
    workspaceId: DEFAULT_WS,
    name: "E2E budget",
    limitUsd: 50,
    resetInterval: "monthly",
    memberUserIds: ["user_alice", "user_bob"],
    keyHashes: [HASH[0]],
  },
  models: {
    workspaceId: DEFAULT_WS,
    name: "E2E models",
    allowedProviders: ["provider-a"],
    allowedDataRegions: ["europe"],
    workspaceDefault: true,
    optedOutMemberUserIds: ["user_carol"],
    optedOutKeyHashes: [HASH[1]],
  },
  moderation: {
    workspaceId: DEFAULT_WS,
    name: "E2E moderation",
    contentFilterBuiltins: [{ slug: "email", action: "redact" }],
    memberUserIds: ["user_dave"],
    keyHashes: [],
  },
  wide: {
    name: "E2E org budget",
    policyType: "budget",
    limitUsd: 500,
    resetInterval: "monthly",
    workspaceIds: [DEFAULT_WS],
  },
};
/** In place: a limit raised, bob leaves and carol joins the budget, erin opts out of the default, a builtin added. */
const V2: Version = {
  budget: { ...V1.budget, limitUsd: 75, memberUserIds: ["user_alice", "user_carol"] },
  models: { ...V1.models, optedOutMemberUserIds: ["user_carol", "user_erin"] },
  moderation: {
    ...V1.moderation,
    contentFilterBuiltins: [
      { slug: "email", action: "redact" },
      { slug: "phone", action: "block" },
    ],
  },
  wide: { ...V1.wide, limitUsd: 400, workspaceIds: [DEFAULT_WS, W2] },
};
/** The program change the concurrent step previews and then cannot apply. */
const V3: Version = { ...V2, budget: { ...V2.budget, limitUsd: 80 } };

const DYNAMIC_CLASS: Record<Kind, string> = {
  BudgetPolicy: "BudgetPolicy",
  ModelAccessPolicy: "ModelAccessPolicy",
  ModerationPolicy: "ModerationPolicy",
  WorkspaceWidePolicy: "WorkspaceWidePolicy",
};
const ALL: Kind[] = [...KINDS, "WorkspaceWidePolicy"];

/** One face's program text for `v`: the same args, by class (dynamic) or by type token (native). */
function programText(face: Face, v: Version): string {
  const all: Array<{ name: string; kind: Kind; args: Args; opts?: string }> = [
    { name: NAME.BudgetPolicy, kind: "BudgetPolicy", args: v.budget },
    { name: NAME.ModelAccessPolicy, kind: "ModelAccessPolicy", args: v.models },
    { name: NAME.ModerationPolicy, kind: "ModerationPolicy", args: v.moderation },
    { name: NAME.WorkspaceWidePolicy, kind: "WorkspaceWidePolicy", args: v.wide },
    ...(v.extra ?? []),
  ];
  const make = (r: (typeof all)[number]) =>
    face === "dynamic"
      ? `new ${DYNAMIC_CLASS[r.kind]}(${JSON.stringify(r.name)}, ${JSON.stringify(r.args)} as any${r.opts ? `, ${r.opts}` : ""})`
      : `new Native("guardrails:index:${r.kind}", ${JSON.stringify(r.name)}, ${JSON.stringify(r.args)}${r.opts ? `, ${r.opts}` : ""})`;
  const head =
    face === "dynamic"
      ? `import { ${ALL.map((k) => DYNAMIC_CLASS[k]).join(", ")} } from "pulumi-guardrails";`
      : `import * as pulumi from "@pulumi/pulumi";
// new pulumi.CustomResource(type, ...) as the generated SDK does (its class is abstract to the type checker).
class Native extends pulumi.CustomResource {}`;
  return `${head}
${all.map((r, i) => `const r${i} = ${make(r)};\nexport const ${r.name.replace(/-/g, "_")}Id = r${i}.id;`).join("\n")}
`;
}

interface Face$ {
  face: Face;
  p: Program;
  /** Policy ids by kind, after create. */
  ids: Partial<Record<Kind, string>>;
}
const faces: Face$[] = [];
/** Step 3's preview, per face (3b reads it). */
const updatePreview: Partial<Record<Face, string>> = {};

/**
 * `fn` on every face at once; once every face is done (no run outlives its test), a failure names
 * each face that failed and why.
 */
async function each<T>(fn: (f: Face$) => Promise<T>): Promise<T[]> {
  const settled = await Promise.allSettled(faces.map(fn));
  const failed = settled.flatMap((s, i) => (s.status === "rejected" ? [[faces[i]!.face, s.reason] as const] : []));
  if (failed.length === 1) throw failed[0]![1];
  if (failed.length > 1) {
    const why = failed.map(([face, err]) => `${face}: ${err instanceof Error ? err.message : String(err)}`);
    throw new Error(`every face failed:\n${why.join("\n\n")}`);
  }
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/** Each counted run's calls, per face, printed at the end. */
const ledger: string[] = [];

/** Runs `run` with the request log cleared before; answers its result and the log's counts and writes. */
async function logged<T>(
  f: Face$,
  step: string,
  run: () => Promise<T>,
): Promise<{ result: T; counts: Record<string, number>; writes: number }> {
  await f.p.clearLog();
  const result = await run();
  const { counts, writes } = await f.p.log();
  const ops = Object.entries(counts).sort();
  ledger.push(`${f.face.padEnd(8)} ${step.padEnd(18)} ${ops.map(([o, n]) => `${o} ${n}`).join(", ") || "no calls"}`);
  return { result, counts, writes };
}

/** The workspace-wide policy `id` as the service lists it, or undefined. */
async function wide(f: Face$, id = f.ids.WorkspaceWidePolicy!): Promise<Record<string, any> | undefined> {
  const res = await f.p.api("GET", "/guardrails/policies/account");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as Array<Record<string, any>>).find((p) => p.id === id);
}

/** A policy as the service holds it (the detail record), or undefined on 404. */
async function held(
  f: Face$,
  kind: (typeof KINDS)[number],
  id = f.ids[kind]!,
): Promise<Record<string, any> | undefined> {
  const res = await f.p.api("GET", `/guardrails/policies/${SEGMENT[kind]}/${id}?workspace_id=${DEFAULT_WS}`);
  if (res.status === 404) return undefined;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const sorted = (xs: string[]) => [...xs].sort();

/** The change lines of one resource's block in a `preview --diff`, white space folded. */
function marked(stdout: string, name: string): string[] {
  const block =
    stdout
      .split("\nResources:")[0]!
      .split(/\n(?=\s+[~+-]?\s*(?:guardrails:index:|pulumi-nodejs:dynamic|pulumi:pulumi:))/)
      .find((b) => b.includes(`::${name}]`)) ?? "";
  return block
    .split("\n")
    .filter((l) => /^\s+[~+-] \S/.test(l) && !l.includes("guardrails:index:") && !l.includes("pulumi-nodejs"))
    .map((l) => l.trim().replace(/\s+/g, " ").replace(/ :/, ":"));
}

describe("Guardrail Policies under the real CLI, dynamic and native faces", () => {
  beforeAll(async () => {
    const made = await Promise.all(FACES.map((face) => Program.create(`policies-${face}`)));
    made.forEach((p, i) => {
      const face = FACES[i]!;
      if (face === "native") p.env.PATH = `${join(REPO_ROOT, "src/native/bin")}:${p.env.PATH}`;
      faces.push({ face, p, ids: {} });
    });
  });
  afterAll(async () => {
    console.log(`policies: calls per step\n${[...ledger].sort().join("\n")}`);
    await Promise.all(faces.map((f) => f.p.close()));
  });

  it("1. create: one POST per policy, carrying assignments, the default flag and the opt-outs", async () => {
    await each(async (f) => {
      f.p.write(programText(f.face, V1));
      const { counts, writes } = await logged(f, "1 create", () => f.p.up());
      expect(writes, f.face).toBe(4);
      for (const k of ALL) expect(counts[`create${OP[k]}`], `${f.face} ${k}`).toBe(1);
      const out = await f.p.outputs();
      for (const k of ALL) f.ids[k] = out[`${NAME[k]}Id`];
      expect(await wide(f), f.face).toMatchObject({
        name: "E2E org budget",
        policy_type: "budget",
        config: { limit_usd: 500, reset_interval: "monthly" },
        workspace_ids: [DEFAULT_WS],
        is_default: false,
      });
      expect(await held(f, "BudgetPolicy"), f.face).toMatchObject({
        name: "E2E budget",
        config: { limit_usd: 50, reset_interval: "monthly" },
        member_ids: ["user_alice", "user_bob"],
        api_key_hashes: [HASH[0]],
        is_workspace_default: false,
      });
      expect(await held(f, "ModelAccessPolicy"), f.face).toMatchObject({
        config: { allowed_providers: ["provider-a"], allowed_data_regions: ["europe"] },
        is_workspace_default: true,
        opted_out_member_ids: ["user_carol"],
        opted_out_api_key_hashes: [HASH[1]],
      });
      expect(await held(f, "ModerationPolicy"), f.face).toMatchObject({
        config: { content_filter_builtins: [{ slug: "email", action: "redact" }] },
        member_ids: ["user_dave"],
        api_key_hashes: [],
      });
    });
  });

  it("2. a preview of the same program expects no changes and calls no write", async () => {
    await each(async (f) => {
      const { result, writes } = await logged(f, "2 no-op preview", () =>
        f.p.pulumi(["preview", "--expect-no-changes", "--diff"]),
      );
      expect(result.code, `${f.face}\n${result.output}`).toBe(0);
      expect(writes, f.face).toBe(0);
    });
  });

  it("3. an update in place: members joining and leaving by name, an opt-out, settings; a GET and a PUT each", async () => {
    await each(async (f) => {
      f.p.write(programText(f.face, V2));
      const preview = await f.p.preview();
      expect(preview.code, `${f.face}\n${preview.output}`).toBe(0);
      updatePreview[f.face] = preview.stdout;
      expect(marked(preview.stdout, "budget"), f.face).toContain("~ limitUsd: 50 => 75");
      expect(marked(preview.stdout, "wide").join("\n"), f.face).toContain("~ limitUsd: 500 => 400");
      expect(preview.stdout, f.face).toMatch(/~ 4 to update/);
      const { counts, writes } = await logged(f, "3 update", () => f.p.up());
      expect(writes, f.face).toBe(4);
      for (const k of KINDS) {
        expect(counts[`get${OP[k]}`], `${f.face} ${k}`).toBe(1);
        expect(counts[`update${OP[k]}`], `${f.face} ${k}`).toBe(1);
      }
      // The workspace-wide policy has no get by id: its update reads the list afresh (rule 28).
      expect(counts.listAccountPolicies, f.face).toBe(1);
      expect(counts.updateAccountPolicy, f.face).toBe(1);
      expect(await wide(f), f.face).toMatchObject({ config: { limit_usd: 400 } });
      expect(sorted((await wide(f))!.workspace_ids), f.face).toEqual(sorted([DEFAULT_WS, W2]));
      expect(await held(f, "BudgetPolicy"), f.face).toMatchObject({
        id: f.ids.BudgetPolicy,
        config: { limit_usd: 75 },
        api_key_hashes: [HASH[0]],
      });
      expect(sorted((await held(f, "BudgetPolicy"))!.member_ids), f.face).toEqual(["user_alice", "user_carol"]);
      const models = (await held(f, "ModelAccessPolicy"))!;
      expect(sorted(models.opted_out_member_ids), f.face).toEqual(["user_carol", "user_erin"]);
      expect(models.is_workspace_default, f.face).toBe(true);
      expect((await held(f, "ModerationPolicy"))!.config.content_filter_builtins, f.face).toHaveLength(2);
      const again = await f.p.pulumi(["preview", "--expect-no-changes"]);
      expect(again.code, `${f.face}\n${again.output}`).toBe(0);
    });
  });

  it("3b. that update's preview names each member joining and leaving and the opt-out added", async () => {
    await each(async (f) => {
      const stdout = updatePreview[f.face] ?? "";
      const budget = marked(stdout, "budget").join("\n");
      expect(budget, `${f.face}\n${budget}`).toMatch(/user_bob/);
      expect(budget, `${f.face}\n${budget}`).toMatch(/user_carol/);
      const models = marked(stdout, "models").join("\n");
      // Each face shows the id's map entry (`+ user_erin: true`): the dynamic face's state holds the
      // list as a map, the native face's inputs hold one beside it (src/native/policy-lists.ts).
      expect(models, `${f.face}\n${models}`).toMatch(/\+ .*"?user_erin"?/);
    });
  });

  // design-40.md "diff": keyed paths as the set resources show them. A list shown by index
  // (`~ [1]: "user_bob" => "user_carol"`) reads as one slot rewritten, not bob leaving and carol joining.
  it("3c. that preview shows no list index for a member: each id joins or leaves by name", async () => {
    await each(async (f) => {
      const stdout = updatePreview[f.face] ?? "";
      expect(stdout, `${f.face}\n${stdout}`).not.toMatch(/\[\d+\]: "user_/);
      const budget = marked(stdout, "budget").join("\n");
      expect(budget, `${f.face}\n${budget}`).toMatch(/- "?user_bob"?\s*: true/);
      expect(budget, `${f.face}\n${budget}`).toMatch(/\+ "?user_carol"?\s*: true/);
      // A workspace joining a workspace-wide policy by name too, on each face (the dynamic face's
      // state holds the coverage as a map, core/policies/id-maps.ts), never a list index rewritten.
      const wide = marked(stdout, "wide").join("\n");
      expect(wide, `${f.face}\n${wide}`).toMatch(new RegExp(`\\+ "?${W2}"?\\s*: true`));
      expect(wide, `${f.face}\n${wide}`).not.toMatch(/\[\d+\]: "/);
    });
  });

  it("4. a change made out of band is seen at refresh and repaired by up", async () => {
    await each(async (f) => {
      // By hand: the budget's limit and a member added (the policy's PUT), the default's opt-out of erin removed.
      const put = await f.p.api("PUT", `/guardrails/policies/budget/${f.ids.BudgetPolicy}`, {
        name: "E2E budget",
        workspace_id: DEFAULT_WS,
        config: { limit_usd: 999, reset_interval: "monthly" },
        member_ids: ["user_alice", "user_carol", "user_frank"],
        api_key_hashes: [HASH[0]],
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const put2 = await f.p.api("PUT", `/guardrails/policies/model-availability/${f.ids.ModelAccessPolicy}`, {
        name: "E2E models",
        workspace_id: DEFAULT_WS,
        config: { allowed_providers: ["provider-a"], allowed_data_regions: ["europe"] },
        opted_out_member_ids: ["user_carol"],
        opted_out_api_key_hashes: [HASH[1]],
      });
      expect(put2.status, JSON.stringify(put2.body)).toBe(200);
      // The workspace-wide policy: W2 dropped from its coverage.
      const put3 = await f.p.api("PUT", `/guardrails/policies/account/${f.ids.WorkspaceWidePolicy}`, {
        name: "E2E org budget",
        policy_type: "budget",
        config: { limit_usd: 400, reset_interval: "monthly" },
        workspace_ids: [DEFAULT_WS],
      });
      expect(put3.status, JSON.stringify(put3.body)).toBe(200);

      const refresh = await logged(f, "4 refresh", () => f.p.refresh("--diff"));
      expect(refresh.writes, f.face).toBe(0);
      for (const k of KINDS) expect(refresh.counts[`get${OP[k]}`], `${f.face} ${k}`).toBe(1);
      expect(refresh.counts.listAccountPolicies, f.face).toBe(1);
      const out = refresh.result.stdout;
      expect(out, f.face).toMatch(/limitUsd\s*: 75 => 999/);
      expect(out, f.face).toMatch(/user_frank/);
      expect(out, f.face).toMatch(/user_erin/);
      expect(out, f.face).toMatch(new RegExp(W2));
      expect(out, `${f.face}\n${out}`).toMatch(/~ 3 updated/);

      const preview = await f.p.preview();
      expect(marked(preview.stdout, "budget").join("\n"), f.face).toMatch(/user_frank/);
      expect(marked(preview.stdout, "models").join("\n"), f.face).toMatch(/user_erin/);
      expect(marked(preview.stdout, "wide").join("\n"), f.face).toMatch(new RegExp(W2));

      const up = await logged(f, "4 up", () => f.p.up());
      expect(up.counts.updateBudgetPolicy, f.face).toBe(1);
      expect(up.counts.updateModelAvailabilityPolicy, f.face).toBe(1);
      expect(up.counts.updateAccountPolicy, f.face).toBe(1);
      expect(up.writes, f.face).toBe(3);
      expect(sorted((await wide(f))!.workspace_ids), f.face).toEqual(sorted([DEFAULT_WS, W2]));
      const budget = (await held(f, "BudgetPolicy"))!;
      expect(budget.config.limit_usd, f.face).toBe(75);
      expect(sorted(budget.member_ids), f.face).toEqual(["user_alice", "user_carol"]);
      expect(sorted((await held(f, "ModelAccessPolicy"))!.opted_out_member_ids), f.face).toEqual([
        "user_carol",
        "user_erin",
      ]);
      const again = await f.p.pulumi(["preview", "--expect-no-changes", "--refresh"]);
      expect(again.code, `${f.face}\n${again.output}`).toBe(0);
    });
  });

  it("5. a change made after the preview fails the up with a clear error, and it is still there", async () => {
    await each(async (f) => {
      f.p.write(programText(f.face, V3));
      const preview = await f.p.preview();
      expect(marked(preview.stdout, "budget"), f.face).toEqual(["~ limitUsd: 75 => 80"]);
      // Someone assigns frank to the budget policy through the per-member change (the dashboard's path).
      const path = `/guardrails/policies/assignments/members/user_frank`;
      const state = await f.p.api("GET", `${path}?policy_type=budget&workspace_id=${DEFAULT_WS}`);
      expect(state.status, JSON.stringify(state.body)).toBe(200);
      const change = await f.p.api("PUT", path, {
        assigned: true,
        expected_assignment: state.body.data,
        policy_id: f.ids.BudgetPolicy,
        policy_type: "budget",
        workspace_id: DEFAULT_WS,
      });
      expect(change.status, JSON.stringify(change.body)).toBe(200);

      const up = await logged(f, "5 up (fails)", () => f.p.pulumi(["up", "--yes", "--skip-preview"]));
      expect(up.result.code, f.face).not.toBe(0);
      expect(up.result.output, f.face).toMatch(
        /budget policy "E2E budget": changed on the service since the last refresh: memberUserIds \(added "user_frank"\)\. Nothing was written/,
      );
      expect(up.result.output, f.face).toContain("Run `pulumi refresh` to see it");
      expect(up.writes, f.face).toBe(0);
      expect(up.counts.getBudgetPolicy, f.face).toBe(1);
      // Nothing lost: frank is still assigned, and the limit is still the one the service held.
      const budget = (await held(f, "BudgetPolicy"))!;
      expect(sorted(budget.member_ids), f.face).toEqual(["user_alice", "user_carol", "user_frank"]);
      expect(budget.config.limit_usd, f.face).toBe(75);

      // As the error says: refresh shows it, then up applies the program (frank leaves, the limit moves).
      const refresh = await f.p.refresh("--diff");
      expect(refresh.stdout, f.face).toMatch(/user_frank/);
      await f.p.up();
      const after = (await held(f, "BudgetPolicy"))!;
      expect(sorted(after.member_ids), f.face).toEqual(["user_alice", "user_carol"]);
      expect(after.config.limit_usd, f.face).toBe(80);
    });
  });

  it("6. import: native by `pulumi import` with no diff after; dynamic refuses the option, naming what works", async () => {
    await each(async (f) => {
      const made: Partial<Record<Kind, string>> = {};
      const bodies: Record<(typeof KINDS)[number], Args> = {
        BudgetPolicy: {
          name: "Imported budget",
          workspace_id: DEFAULT_WS,
          config: { limit_usd: 10, reset_interval: "weekly" },
          member_ids: ["user_erin"],
          api_key_hashes: [HASH[2]],
        },
        ModelAccessPolicy: {
          name: "Imported models",
          workspace_id: DEFAULT_WS,
          config: { ignored_providers: ["provider-z"] },
        },
        ModerationPolicy: {
          name: "Imported moderation",
          workspace_id: DEFAULT_WS,
          config: { content_filters: [{ pattern: "secret", action: "block" }] },
          member_ids: ["user_bob"],
          api_key_hashes: [],
        },
      };
      for (const k of KINDS) {
        const res = await f.p.api("POST", `/guardrails/policies/${SEGMENT[k]}`, bodies[k]);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        made[k] = res.body.data.id;
      }
      const ww = await f.p.api("POST", "/guardrails/policies/account", {
        name: "Imported org moderation",
        policy_type: "moderation",
        config: { content_filter_builtins: [{ slug: "ssn", action: "block" }] },
        workspace_ids: [W2],
      });
      expect(ww.status, JSON.stringify(ww.body)).toBe(201);
      made.WorkspaceWidePolicy = ww.body.data.id;
      if (f.face === "dynamic") {
        const extra = [
          {
            name: "imported-budget",
            kind: "BudgetPolicy" as Kind,
            args: { workspaceId: DEFAULT_WS, name: "Imported budget", limitUsd: 10, resetInterval: "weekly" },
            opts: `{ import: ${JSON.stringify(`${DEFAULT_WS}/${made.BudgetPolicy}`)} }`,
          },
        ];
        f.p.write(programText(f.face, { ...V3, extra }));
        const res = await logged(f, "6 import option", () => f.p.preview());
        expect(res.result.code, f.face).not.toBe(0);
        expect(res.result.output).toContain(
          'BudgetPolicy "imported-budget": the `import` resource option (and `pulumi import`) cannot work',
        );
        expect(res.result.output).toContain("Import it with the native provider");
        expect(res.writes).toBe(0);
        for (const k of KINDS)
          await f.p.api("DELETE", `/guardrails/policies/${SEGMENT[k]}/${made[k]}?workspace_id=${DEFAULT_WS}`);
        await f.p.api("DELETE", `/guardrails/policies/account/${made.WorkspaceWidePolicy}`);
        f.p.write(programText(f.face, V3));
        return;
      }
      f.p.write(programText(f.face, V3));
      const file = join(f.p.dir, "import.json");
      const resources = ALL.map((k) => ({
        type: `guardrails:index:${k}`,
        name: `imported-${NAME[k]}`,
        // A workspace policy is read within its workspace; a workspace-wide one by its id alone.
        id: k === "WorkspaceWidePolicy" ? made[k] : `${DEFAULT_WS}/${made[k]}`,
      }));
      writeFileSync(file, JSON.stringify({ resources }));
      const imp = await logged(f, "6 import", () =>
        f.p.pulumi(["import", "--file", file, "--yes", "--skip-preview", "--protect=false", "--generate-code=false"], {
          check: true,
        }),
      );
      expect(imp.writes).toBe(0);
      for (const k of KINDS) expect(imp.counts[`get${OP[k]}`], k).toBe(1);
      expect(imp.counts.listAccountPolicies).toBe(1);
      const state = (await f.p.exportState()).json.deployment.resources as Array<{
        urn: string;
        id: string;
        inputs: Args;
      }>;
      const inputs = (name: string) => {
        const r = state.find((x) => x.urn.endsWith(`::${name}`));
        const { __provider, ...rest } = r?.inputs ?? {};
        return rest;
      };
      expect(inputs("imported-budget")).toEqual({
        workspaceId: DEFAULT_WS,
        name: "Imported budget",
        limitUsd: 10,
        resetInterval: "weekly",
        memberUserIds: ["user_erin"],
        keyHashes: [HASH[2]],
        // An import manages every list and the flag as the service holds them.
        optedOutMemberUserIds: [],
        optedOutKeyHashes: [],
        workspaceDefault: false,
      });
      expect(inputs("imported-wide")).toMatchObject({
        name: "Imported org moderation",
        policyType: "moderation",
        contentFilterBuiltins: [{ slug: "ssn", action: "block" }],
        workspaceIds: [W2],
      });
      // What --generate-code writes from the recorded inputs, as the program says it: no change.
      const extra = ALL.map((k) => ({
        name: `imported-${NAME[k]}`,
        kind: k,
        args: inputs(`imported-${NAME[k]}`),
      }));
      f.p.write(programText(f.face, { ...V3, extra }));
      const noop = await logged(f, "6 no-op preview", () => f.p.pulumi(["preview", "--expect-no-changes", "--diff"]));
      expect(noop.result.code, noop.result.output).toBe(0);
      expect(noop.writes).toBe(0);
    });
  });

  it("7. destroy: one DELETE per policy; the service holds none of them", async () => {
    await each(async (f) => {
      const { counts, writes } = await logged(f, "7 destroy", () => f.p.destroy());
      // The native stack holds the imported four too.
      const n = f.face === "native" ? 2 : 1;
      for (const k of ALL) expect(counts[`delete${OP[k]}`], `${f.face} ${k}`).toBe(n);
      expect(writes, f.face).toBe(4 * n);
      for (const k of KINDS) {
        const list = await f.p.api("GET", `/guardrails/policies/${SEGMENT[k]}?workspace_id=${DEFAULT_WS}`);
        expect(list.body.data, `${f.face} ${k}`).toEqual([]);
      }
      expect((await f.p.api("GET", "/guardrails/policies/account")).body.data, f.face).toEqual([]);
    });
  });
});
