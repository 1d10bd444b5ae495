/**
 * Attacks on the surfaces added last to the Guardrail Policies (issue 40), over the emulator
 * (real HTTP): an import whose workspace is sealed never shows it in a failure, an import naming
 * args secret records every copy secret, the dynamic WorkspaceWidePolicy's coverage maps from a
 * program of the wrong shape, and the WorkspaceWidePolicy create journal's planted entries.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { newSealKey, SEAL_ENV } from "../../src/core/import-seal";
import { isSecretEnvelope } from "../../src/core/markers";
import { policyImportId, workspaceWideImportId } from "../../src/core/policies/import-id";
import { policyLifecycle } from "../../src/core/policies/lifecycle";
import { createBody, workspaceWideCreateKey } from "../../src/core/policies/workspace-wide-create";
import { parseInputs } from "../../src/core/policies/workspace-wide-inputs";
import { workspaceWideLifecycle } from "../../src/core/policies/workspace-wide-lifecycle";
import { kindOf } from "../../src/core/policies/workspace-wide-model";
import { ProviderConfig } from "../../src/core/settings/config";
import { workspaceWidePolicy } from "../../src/dynamic/internal";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator, W2 } from "../helpers/emulator";
import { killedEntry } from "../helpers/journal";
import { http } from "../helpers/spawn-emulator";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "2" }, { resetFaults: true });
const api = () => http(`${emu.url}/api/v1`, TEST_KEY);
const conn = () => {
  const c = new ProviderConfig();
  c.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
  return c;
};
const posts = async () => (await emu.log()).entries.filter((e) => e.method === "POST" && e.path.includes("/account"));
const GONE = "9a1b2c3d-0000-4000-8000-00000000dead";

let dir = "";
let was: string | undefined;
beforeEach(() => {
  was = process.env.GUARDRAILS_JOURNAL_DIR;
  dir = join(mkdtempSync(join(tmpdir(), "attack-late-")), "journal");
  process.env.GUARDRAILS_JOURNAL_DIR = dir;
});
afterEach(() => {
  delete process.env[SEAL_ENV];
  if (was === undefined) delete process.env.GUARDRAILS_JOURNAL_DIR;
  else process.env.GUARDRAILS_JOURNAL_DIR = was;
});

async function failureOf(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a failure");
}

/** Every value at any depth that is not in a secret envelope, as text. */
function plainTexts(v: unknown, out: string[] = []): string[] {
  if (isSecretEnvelope(v)) return out;
  if (typeof v === "string") out.push(v);
  else if (v && typeof v === "object") for (const x of Object.values(v)) plainTexts(x, out);
  return out;
}

describe("E. an import with a sealed workspace or secret names, over the emulator", () => {
  it("E1 a sealed workspace never reaches the failure of an import of a policy it does not hold", async () => {
    const key = newSealKey();
    process.env[SEAL_ENV] = key;
    const id = policyImportId(W2, GONE, ["workspaceId"], key);
    const e = await failureOf(policyLifecycle("BudgetPolicy", conn()).read(id, {}));
    expect(e.message).toContain(GONE);
    expect(e.message.toLowerCase()).not.toContain(W2.toLowerCase());
  });

  it("E2 an import naming workspaceId and name secret records every copy secret", async () => {
    const made = await policyLifecycle("BudgetPolicy", conn()).create({
      workspaceId: DEFAULT_WS,
      name: "Late secret import",
      limitUsd: 7,
      resetInterval: "daily",
    });
    const key = newSealKey();
    process.env[SEAL_ENV] = key;
    const r = await policyLifecycle("BudgetPolicy", conn()).read(
      policyImportId(DEFAULT_WS, made.id, ["name", "workspaceId"], key),
      {},
    );
    const plain = [...plainTexts(r!.properties), ...plainTexts(r!.inputs)];
    expect(plain).not.toContain(DEFAULT_WS);
    expect(plain).not.toContain("Late secret import");
  });

  it("E3 a workspace-wide import naming its coverage secret records the coverage secret on the dynamic face", async () => {
    const made = await workspaceWideLifecycle(conn()).create({
      name: "Late wsw import",
      policyType: "budget",
      limitUsd: 9,
      resetInterval: "daily",
      workspaceIds: [W2],
    });
    const r = await (
      workspaceWidePolicy as unknown as { read(id: string, p: object): Promise<{ props: object; inputs?: object }> }
    ).read(workspaceWideImportId(made.id, ["workspaceIds"]), {});
    expect([...plainTexts(r.props), ...plainTexts(r.inputs)]).not.toContain(W2);
    // Outside a secret envelope, W2 is neither a value nor a map's key (the dynamic face's `{id: true}`).
    const keys = (v: unknown): string[] =>
      isSecretEnvelope(v) || !v || typeof v !== "object" ? [] : Object.entries(v).flatMap(([k, x]) => [k, ...keys(x)]);
    expect([...keys(r.props), ...keys(r.inputs)]).not.toContain(W2);
  });
});

describe("F. the dynamic WorkspaceWidePolicy's coverage from a program of the wrong shape", () => {
  const check = (workspaceIds: unknown) =>
    (
      workspaceWidePolicy as unknown as {
        check(o: object, n: object): Promise<{ failures?: { property: string; reason: string }[] }>;
      }
    ).check({}, { name: "Shape", policyType: "budget", limitUsd: 1, resetInterval: "daily", workspaceIds });
  it("F1 a string, numbers, nulls in the list are refused naming workspaceIds", async () => {
    for (const bad of ["oops", [5], [null], [W2, {}]]) {
      const r = await check(bad);
      expect(r.failures?.map((f) => f.property).join(" ")).toMatch(/workspaceIds/);
    }
  });
  it("F2 a map whose values are not true (a program's object) is refused, never read as fewer workspaces", async () => {
    const r = await check({ [W2]: false, [DEFAULT_WS]: "yes" });
    expect(r.failures?.map((f) => f.property).join(" ")).toMatch(/workspaceIds/);
  });
});

describe("G. the WorkspaceWidePolicy create journal's planted entries", () => {
  const args = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    policyType: "budget",
    limitUsd: 300,
    resetInterval: "monthly",
    allWorkspaces: true,
    ...extra,
  });
  const plant = (resource: string, name: string, extra: Record<string, unknown>) => {
    const body = createBody(parseInputs(args(name)));
    const key = workspaceWideCreateKey(resource, emu.url, kindOf("budget"), body);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, `${key.slice(0, 16)}-1-1.json`), JSON.stringify(killedEntry(resource, key, extra)));
  };
  const resource = (n: string) => `urn:pulumi:dev::proj::guardrails:index:WorkspaceWidePolicy::${n}`;

  it("G1 an entry naming a workspace policy's id (another kind of resource) is not adopted: one POST", async () => {
    const wp = await policyLifecycle("BudgetPolicy", conn()).create({
      workspaceId: DEFAULT_WS,
      name: "Journal G1",
      limitUsd: 300,
      resetInterval: "monthly",
    });
    plant(resource("g1"), "Journal G1", { id: wp.id });
    await emu.clearLog();
    const r = await workspaceWideLifecycle(conn()).create({ ...args("Journal G1"), __resource: resource("g1") });
    expect(r.id).not.toBe(wp.id);
    expect(await posts()).toHaveLength(1);
  });

  it("G2 an entry whose policy was deleted since: one POST, a new policy", async () => {
    const lc = workspaceWideLifecycle(conn());
    const old = await lc.create(args("Journal G2"));
    await lc.delete(old.id, old.properties);
    plant(resource("g2"), "Journal G2", { id: old.id });
    await emu.clearLog();
    const r = await lc.create({ ...args("Journal G2"), __resource: resource("g2") });
    expect(r.id).not.toBe(old.id);
    expect(await posts()).toHaveLength(1);
  });

  it("G3 an entry whose policy was given an opt-out since (someone's change) is not adopted", async () => {
    const lc = workspaceWideLifecycle(conn());
    const old = await lc.create(args("Journal G3"));
    const body = createBody(parseInputs(args("Journal G3")));
    await api()("PUT", `/guardrails/policies/account/${old.id}`, {
      ...body,
      opted_out_workspace_ids: [W2],
      policy_type: "budget",
    });
    plant(resource("g3"), "Journal G3", { id: old.id });
    await emu.clearLog();
    const r = await lc.create({ ...args("Journal G3"), __resource: resource("g3") });
    expect(r.id).not.toBe(old.id);
    expect(await posts()).toHaveLength(1);
  });

  it("G4 garbage JSON and an entry of another stack's resource are ignored: one POST", async () => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const body = createBody(parseInputs(args("Journal G4")));
    const key = workspaceWideCreateKey(resource("g4"), emu.url, kindOf("budget"), body);
    writeFileSync(join(dir, `${key.slice(0, 16)}-1-1.json`), "{not json");
    const lc = workspaceWideLifecycle(conn());
    const other = await lc.create(args("Journal G4"));
    plant(resource("other-stack"), "Journal G4", { id: other.id });
    await emu.clearLog();
    const r = await lc.create({ ...args("Journal G4"), __resource: resource("g4") });
    expect(r.id).not.toBe(other.id);
    expect(await posts()).toHaveLength(1);
  });
});
