/**
 * Issue 41: `guardrails-access --stack-state`, the built bin reading a stack export. The layers
 * are written through the dynamic face's `internal` providers against the emulator (a workspace
 * default, a member guardrail and its set, a member budget policy, a workspace-wide policy), so
 * the state holds their real outputs and the service holds the same layers: the answers from the
 * state must be the service's, every verdict uncertain (exit 4), and what the stack does not
 * manage (here: a secret id list of a plain export, a missing workspace default) said.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type ExplainAnswer, stateSource, type WhoAnswer, whoCanReach } from "../../src/access";
import { getEffectiveAccess } from "../../src/core/data-sources/access";
import { SECRET_SIG, SIG_KEY } from "../../src/core/markers";
import {
  budgetPolicy,
  guardrail,
  memberAssignment,
  workspaceDefaultGuardrail,
  workspaceWidePolicy,
} from "../../src/dynamic/internal";
import { comparable, connectionOf, enforced } from "../helpers/access-layers";
import { configureProvider, DEFAULT_WS, tempFolder, useProviderEmulator } from "../helpers/emulator";
import { ACCESS_BIN, exportBin } from "../helpers/export-bin";
import { FILTERS } from "../helpers/wire-fields";

const emu = useProviderEmulator();
const dir = tempFolder("guardrails-access-state-");
const DYN = "pulumi-nodejs:dynamic/guardrails:";
type Bag = Record<string, unknown>;
const resources: Array<{ type: string; name: string; id: string; outs: Bag }> = [];
const stateFile = (name: string, rs = resources, change: (r: Bag) => Bag = (r) => r) => {
  const path = join(dir, name);
  const doc = {
    version: 3,
    deployment: {
      resources: rs.map((r) =>
        change({
          urn: `urn:pulumi:dev::p::${DYN}${r.type}::${r.name}`,
          custom: true,
          type: `${DYN}${r.type}`,
          id: r.id,
          outputs: r.outs,
        }),
      ),
    },
  };
  writeFileSync(path, JSON.stringify(doc));
  return path;
};

beforeAll(async () => {
  configureProvider(emu.url);
  const p = { __provider: "p" };
  const add = async (type: string, name: string, made: Promise<{ id: string; outs?: Bag }>) => {
    const m = await made;
    resources.push({ type, name, id: m.id, outs: m.outs! });
    return m;
  };
  await add(
    "WorkspaceDefaultGuardrail",
    "dflt",
    workspaceDefaultGuardrail.create({ ...p, workspaceId: DEFAULT_WS, allowedProviders: ["vendor-a", "vendor-b"] }),
  );
  const eng = await add(
    "Guardrail",
    "eng",
    guardrail.create({ ...p, name: "Eng", workspaceId: DEFAULT_WS, allowedProviders: ["vendor-a"] }),
  );
  await add(
    "GuardrailMemberAssignment",
    "eng-members",
    memberAssignment.create({ ...p, guardrailId: eng.id, members: { user_alice: true }, exclusive: false }),
  );
  await add(
    "BudgetPolicy",
    "bob",
    budgetPolicy.create({
      ...p,
      workspaceId: DEFAULT_WS,
      name: "bob monthly",
      limitUsd: 50,
      resetInterval: "monthly",
      memberUserIds: { user_bob: true },
      keyHashes: {},
      __secretArgs: [],
    }),
  );
  await add(
    "WorkspaceWidePolicy",
    "wide",
    workspaceWidePolicy.create({
      ...p,
      name: "no vendor-x",
      policyType: "modelAccess",
      ignoredProviders: ["vendor-x"],
      allWorkspaces: true,
      __secretArgs: [],
    }),
  );
});

const run = (args: string[]) => exportBin(emu, ACCESS_BIN)(args, dir);

describe("--stack-state", () => {
  it.each(["user_alice", "user_bob", "user_carol"])(
    "explain %s: the service's effective access, what the emulator enforces, never certain",
    async (member) => {
      const r = await run([
        "explain",
        "--member",
        member,
        "--provider",
        "vendor-b",
        "--stack-state",
        stateFile("s.json"),
        "--json",
      ]);
      expect(r.stderr).toBe("");
      const a = JSON.parse(r.stdout) as ExplainAnswer;
      const found = await getEffectiveAccess(connectionOf(emu.client()), { memberId: member, workspaceId: DEFAULT_WS });
      expect(a.source).toBe("state");
      expect(a.access).toEqual(found.access);
      expect(comparable(a.access)).toEqual(comparable(await enforced(emu, `member=${member}`)));
      expect(r.code).toBe(4);
      expect(a.verdict).toMatchObject({ allowed: member !== "user_alice", certain: false });
      expect(a.notes.join(" ")).toContain("only the layers the stack manages are known");
    },
  );

  it("who from the state answers as who from the service, each row uncertain", async () => {
    const fromState = await run(["who", "--provider", "vendor-b", "--stack-state", stateFile("s.json"), "--json"]);
    const fromService = await run(["who", "--provider", "vendor-b", "--workspace", DEFAULT_WS, "--json"]);
    const rows = (out: string) =>
      (JSON.parse(out) as WhoAnswer).members.map((m) => [
        m.id,
        m.allowed,
        m.deciding.map((d) => d.layers.map((l) => l.id)),
      ]);
    expect(rows(fromState.stdout)).toEqual(rows(fromService.stdout));
    expect((JSON.parse(fromState.stdout) as WhoAnswer).members.every((m) => !m.certain)).toBe(true);
  });

  it("what the state cannot show is said: a sealed id list, a workspace default the stack does not manage", async () => {
    const sealed = stateFile("sealed.json", resources, (r) =>
      String(r.type).endsWith("GuardrailMemberAssignment")
        ? { ...r, outputs: { ...(r.outputs as Bag), members: { [SIG_KEY]: SECRET_SIG, ciphertext: "AAAA" } } }
        : r,
    );
    const a = JSON.parse(
      (await run(["explain", "--member", "user_alice", "--stack-state", sealed, "--json"])).stdout,
    ) as ExplainAnswer;
    expect(a.notes.join("\n")).toContain("not known: members of eng-members is a secret this export does not show");
    expect(a.access.allowedProviders.allowed).toEqual(["vendor-a", "vendor-b"]);
    const noDefault = stateFile(
      "no-default.json",
      resources.filter((r) => r.type !== "WorkspaceDefaultGuardrail"),
    );
    const b = JSON.parse(
      (await run(["explain", "--member", "user_carol", "--stack-state", noDefault, "--json"])).stdout,
    ) as ExplainAnswer;
    expect(b.notes.join("\n")).toContain("not known: the workspace default guardrail of");
  });

  it("secrets stay secret: an opened id list counts but is never shown; a secret setting is not read", async () => {
    const plaintext = (v: unknown) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(v) });
    const opened = stateFile("opened.json", resources, (r) => {
      const outs = r.outputs as Bag;
      if (String(r.type).endsWith("GuardrailMemberAssignment"))
        return { ...r, outputs: { ...outs, members: plaintext(outs.members) } };
      if (String(r.type).endsWith(":Guardrail"))
        return { ...r, outputs: { ...outs, name: "Eng", allowedProviders: plaintext(outs.allowedProviders) } };
      return r;
    });
    const who = await run(["who", "--provider", "vendor-c", "--all", "--stack-state", opened, "--json"]);
    const a = JSON.parse(who.stdout) as WhoAnswer;
    expect(who.stdout).not.toContain("user_alice");
    // Counted, shown as [secret], and after the others: its place among them would say something of it.
    expect(a.members.map((m) => m.id)).toEqual(["user_bob", "[secret]", null]);
    expect(a.notes.join("\n")).toContain(
      "not known: allowedProviders of eng: the program holds it secret, so it is not read",
    );
    const human = await run(["who", "--provider", "vendor-c", "--all", "--stack-state", opened]);
    expect(human.stdout).toContain("[secret]");
    expect(human.stdout).not.toContain("user_alice");
  });

  it("--current-stack runs pulumi stack export, never with --show-secrets", async () => {
    const bin = join(dir, "bin");
    mkdirSync(bin, { recursive: true });
    const calls = join(dir, "calls.txt");
    const sealed = stateFile("sealed2.json", resources, (r) =>
      String(r.type).endsWith("GuardrailMemberAssignment")
        ? { ...r, outputs: { ...(r.outputs as Bag), members: { [SIG_KEY]: SECRET_SIG, ciphertext: "AAAA" } } }
        : r,
    );
    // A stand-in pulumi: the export holds the member set's ids encrypted.
    writeFileSync(join(bin, "pulumi"), `#!/bin/sh\necho "$@" >> ${calls}\ncat ${sealed}\n`);
    chmodSync(join(bin, "pulumi"), 0o755);
    const r = await exportBin(emu, ACCESS_BIN)(
      ["explain", "--member", "user_alice", "--provider", "vendor-b", "--current-stack", "--stack", "dev", "--json"],
      dir,
      { PATH: `${bin}:${process.env.PATH}` },
    );
    expect(r.stderr).toBe("");
    const a = JSON.parse(r.stdout) as ExplainAnswer;
    // Alice's set is sealed: her guardrail is not known, so she reads as under the default, allowed, uncertain.
    expect([r.code, a.verdict]).toMatchObject([4, { allowed: true, certain: false }]);
    expect(a.notes.join("\n")).toContain("not known: members of eng-members is a secret this export does not show");
    expect(readFileSync(calls, "utf8")).toBe("stack export --stack dev\n");
  });

  it("a state that is not JSON, or a file that is not there, is exit 3 naming it", async () => {
    writeFileSync(join(dir, "bad.json"), "not json");
    const bad = await run(["explain", "--member", "user_alice", "--stack-state", join(dir, "bad.json")]);
    expect([bad.code, bad.stderr]).toEqual([3, expect.stringContaining("bad.json")]);
    const none = await run(["explain", "--member", "user_alice", "--stack-state", join(dir, "none.json")]);
    expect([none.code, none.stderr]).toEqual([3, expect.stringContaining("cannot read it (ENOENT)")]);
  });

  it("every setting a Guardrail records is read: none is said to be of a shape not read", async () => {
    const full = { ...FILTERS, allowedModels: ["vendor-a/model-x"], limitUsd: 5, resetInterval: "daily" };
    const made = await guardrail.create({ __provider: "p", name: "Full", workspaceId: DEFAULT_WS, ...full });
    const g = { type: "Guardrail", name: "full", id: made.id, outs: made.outs as Bag };
    const doc = JSON.parse(readFileSync(stateFile("full.json", [...resources, g]), "utf8"));
    const answer = await whoCanReach(stateSource(doc), { model: "vendor-a/model-x" }, DEFAULT_WS);
    expect(answer.notes.join("\n")).not.toMatch(/not a value/);
  });
});
