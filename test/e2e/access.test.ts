/**
 * Issue 41 under the real CLI: a stack with a workspace default, member and key guardrails and
 * Guardrail Policies (a direct one, a workspace default with an opt-out, a workspace-wide one),
 * brought up on the dynamic face; then the program's lookups (`getEffectiveAccess`,
 * `getSubjectGuardrail`, as stack outputs), `guardrails-access explain` and `who` against the
 * service and against the stack's exported state, and the emulator's own enforcement answer
 * (`GET /__emulator/enforcement`) all say the same of every member and key.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_DEFAULT_WORKSPACE as WS, DEMO_KEY_HASHES } from "../../emulator";
import { comparable, enforced } from "../helpers/access-layers";
import { ACCESS_BIN, type BinRun, exportBin } from "../helpers/export-bin";
import { http } from "../helpers/spawn-emulator";
import { useProgram } from "./harness";

const [K0, K1] = DEMO_KEY_HASHES as [string, string];
const MEMBERS = ["user_alice", "user_bob", "user_carol", "user_dave"] as const;

/** The layers; with `lookups`, the same program with the lookups as outputs. */
const program = (lookups: boolean) => `
import * as g from "pulumi-guardrails";
const ws = "${WS}";
new g.WorkspaceDefaultGuardrail("default", { workspaceId: ws, allowedProviders: ["vendor-a", "vendor-b", "vendor-c"] });
const eng = new g.Guardrail("eng", { name: "Eng", allowedProviders: ["vendor-a"] });
new g.GuardrailMemberAssignment("eng-members", { guardrailId: eng.id, memberUserIds: ["user_alice"] });
const keys = new g.Guardrail("keys", { name: "Keys", allowedDataRegions: ["europe"] });
new g.GuardrailKeyAssignment("keys-keys", { guardrailId: keys.id, keyHashes: ["${K0}"] });
// Carol: no vendor-b, by a policy of her own.
new g.ModelAccessPolicy("carol", { workspaceId: ws, name: "Carol no vendor-b", memberUserIds: ["user_carol"], ignoredProviders: ["vendor-b"] });
// Everyone but Dave: the workspace default of the kind leaves out vendor-c.
new g.ModelAccessPolicy("default-models", { workspaceId: ws, name: "No vendor-c", workspaceDefault: true, optedOutMemberUserIds: ["user_dave"], ignoredProviders: ["vendor-c"] });
new g.BudgetPolicy("bob", { workspaceId: ws, name: "Bob monthly", memberUserIds: ["user_bob"], limitUsd: 50, resetInterval: "monthly" });
new g.WorkspaceWidePolicy("wide", { name: "No vendor-x", policyType: "modelAccess", allWorkspaces: true, ignoredProviders: ["vendor-x"] });
export const ids = { eng: eng.id, keys: keys.id };
${
  lookups
    ? `
const members = ${JSON.stringify(MEMBERS)};
export const access = Promise.all(members.map((memberId) => g.getEffectiveAccess({ memberId, workspaceId: ws })));
export const keyAccess = g.getEffectiveAccess({ keyHash: "${K0}", ownerMemberId: "user_alice", workspaceId: ws });
export const on = Promise.all(members.map((memberId) => g.getSubjectGuardrail({ memberId, workspaceId: ws })));
`
    : ""
}`;

type Layer = { kind: string; id: string; name: string | null };
type Found = { memberId?: string; keyHash?: string; layers: Layer[]; access: any };
type Row = { id: string | null; allowed: boolean; certain: boolean };

/** Whether the emulator's enforcement of `q` lets `provider` through. */
async function enforcedAllows(url: string, q: string, provider: string): Promise<boolean> {
  const m = (await enforced({ url } as never, q)).model_availability as {
    allowed_providers?: string[] | null;
    ignored_providers?: string[] | null;
  };
  return (
    (m.allowed_providers == null || m.allowed_providers.includes(provider)) &&
    !(m.ignored_providers ?? []).includes(provider)
  );
}

describe("effective access under the CLI: lookups, explain, who and the emulator agree (issue 41)", () => {
  const p = useProgram("access", { destroy: true });
  const json = (r: BinRun) => {
    expect(r.stderr, r.stdout).not.toMatch(/TypeError|ReferenceError/);
    return JSON.parse(r.stdout);
  };
  const access = (args: string[]) => exportBin(p.emulator, ACCESS_BIN)(args, p.dir, { GUARDRAILS_API_KEY: p.apiKey });
  let out: Record<string, any> = {};

  it("a layered stack comes up, and its lookups answer what the emulator enforces", async () => {
    const owner = await http(p.emulator.url)("POST", "/__emulator/key-info", {
      key_hashes: [K0],
      member_user_id: "user_alice",
    });
    expect(owner.status).toBe(200);
    p.write(program(false));
    await p.up();
    p.write(program(true));
    await p.up();
    out = await p.outputs();
    const found = out.access as Found[];
    expect(found.map((f) => f.memberId)).toEqual([...MEMBERS]);
    for (const f of found) {
      const e = await enforced({ url: p.emulator.url } as never, `member=${f.memberId}`);
      expect(comparable({ ...f.access, layers: f.layers }), f.memberId).toEqual(comparable(e));
    }
    const key = out.keyAccess as Found;
    expect(key.layers.map((l) => l.id)).toEqual(expect.arrayContaining([out.ids.eng, out.ids.keys]));
    expect(comparable({ ...key.access, layers: key.layers })).toEqual(
      comparable(await enforced({ url: p.emulator.url } as never, `key=${K0}`)),
    );
    // Which guardrail each member is on: Alice on Eng, the others on the workspace default.
    const on = out.on as Array<{ memberId: string; guardrails: Layer[]; policies: Layer[] }>;
    expect(on[0]!.guardrails.map((l) => l.id)).toEqual([out.ids.eng]);
    for (const m of on.slice(1))
      expect(
        m.guardrails.map((l) => l.kind),
        m.memberId,
      ).toEqual(["workspace-default-guardrail"]);
    expect(on[2]!.policies.map((l) => l.name)).toContain("Carol no vendor-b");
  });

  it("explain answers each member's and the key's verdict as the lookups and the emulator do, naming the same layers", async () => {
    for (const provider of ["vendor-a", "vendor-b", "vendor-c", "vendor-x"]) {
      for (const f of out.access as Found[]) {
        const r = await access([
          "explain",
          "--member",
          f.memberId!,
          "--provider",
          provider,
          "--workspace",
          WS,
          "--json",
        ]);
        const a = json(r);
        const allowed = await enforcedAllows(p.emulator.url, `member=${f.memberId}`, provider);
        expect(a.verdict, `${f.memberId} ${provider}`).toMatchObject({ allowed, certain: true });
        expect(r.code, `${f.memberId} ${provider}`).toBe(allowed ? 0 : 1);
        expect(a.layers.map((l: Layer) => l.id).sort()).toEqual(f.layers.map((l) => l.id).sort());
      }
      const k = json(
        await access([
          "explain",
          "--key",
          K0,
          "--owner",
          "user_alice",
          "--provider",
          provider,
          "--workspace",
          WS,
          "--json",
        ]),
      );
      expect(k.verdict.allowed, `key ${provider}`).toBe(await enforcedAllows(p.emulator.url, `key=${K0}`, provider));
      expect(k.layers.map((l: Layer) => l.id).sort()).toEqual((out.keyAccess as Found).layers.map((l) => l.id).sort());
    }
    // The human output names the deciding layer: Alice is held to vendor-a by Eng.
    const human = await access(["explain", "--member", "user_alice", "--provider", "vendor-b", "--workspace", WS]);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/DENIED[\s\S]*member-guardrail "Eng"/);
  });

  it("who, from the service and from the stack's state, lists each member as explain answers", async () => {
    const exported = await p.exportState();
    const stateFile = join(p.dir, "state.json");
    writeFileSync(stateFile, exported.text);
    for (const provider of ["vendor-b", "vendor-c"]) {
      const live = json(await access(["who", "--provider", provider, "--workspace", WS, "--json"]));
      const fromState = json(
        await access(["who", "--provider", provider, "--workspace", WS, "--stack-state", stateFile, "--json"]),
      );
      expect(live.source).toBe("service");
      expect(fromState.source).toBe("state");
      for (const m of MEMBERS) {
        const allowed = await enforcedAllows(p.emulator.url, `member=${m}`, provider);
        const row = (a: { members: Row[] }) => a.members.find((r) => r.id === m);
        // Dave and Bob are named by no assignment of theirs in the state but Bob's budget and
        // Dave's opt-out: every member the stack's layers name is listed.
        expect(row(live), `service ${m} ${provider}`).toMatchObject({ allowed, certain: true });
        expect(row(fromState), `state ${m} ${provider}`).toMatchObject({ allowed, certain: false });
      }
      // A key whose owner the service does not say: never listed as surely allowed.
      for (const k of live.keys as Row[]) if (k.allowed) expect(k.certain, String(k.id)).toBe(false);
      expect((live.keys as Row[]).map((k) => k.id)).toContain(K0);
      expect((live.keys as Row[]).some((k) => k.id === K1)).toBe(false);
    }
  });
});
