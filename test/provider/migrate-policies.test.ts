/**
 * `guardrails-migrate-to-native` on the Guardrail Policies (issue 40): a state document as the
 * dynamic face writes it for a BudgetPolicy, a ModerationPolicy with secret args and a
 * WorkspaceWidePolicy (the `internal` methods over the emulator, inputs as the classes register
 * them: id lists as maps), planned by `planMigration`, then imported by the native face's Read
 * under the planned id (the gRPC method as `pulumi import` calls it), then the same program
 * checked and diffed on the native face: no change. A secret arg is recorded as a secret, every
 * copy, and the import id holds no secret value.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterEach, describe, expect, it } from "vitest";
import { newSealKey, SEAL_ENV } from "../../src/core/import-seal";
import { asSecret, isSecretEnvelope, SECRET_SIG, SIG_KEY } from "../../src/core/markers";
import { ProviderConfig } from "../../src/core/settings/config";
import { budgetPolicy, moderationPolicy, workspaceWidePolicy } from "../../src/dynamic/internal";
import { planMigration } from "../../src/export/from-state";
import { check, diff, kindsOver, read } from "../../src/native/resources";
import { fromStruct, toStruct } from "../../src/native/wire";
import { DEFAULT_WS, TEST_KEY, useProviderEmulator, W2 } from "../helpers/emulator";

const emu = useProviderEmulator();
type Bag = Record<string, unknown>;

function kinds() {
  const conn = new ProviderConfig();
  conn.configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": emu.url })[k]);
  return kindsOver(conn);
}
const DYN = "pulumi-nodejs:dynamic/guardrails:";
const dynUrn = (type: string, name: string) => `urn:pulumi:dev::p::${DYN}${type}::${name}`;
const nativeUrn = (type: string, name: string) => `urn:pulumi:dev::p::guardrails:index:${type}::${name}`;

/** An engine-held secret as `pulumi stack export` prints it: ciphertext, or with `--show-secrets` the plaintext. */
const cipher = () => ({ [SIG_KEY]: SECRET_SIG, ciphertext: "AAAAc2VjcmV0" });
const plain = (v: unknown) => ({ [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(v) });
/** A bag with every secret envelope the provider answered as an export shows it. */
function exported(v: unknown, show: boolean): unknown {
  if (isSecretEnvelope(v)) return show ? plain((v as { value: unknown }).value) : cipher();
  if (Array.isArray(v)) return v.map((x) => exported(x, show));
  if (!v || typeof v !== "object") return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, exported(x, show)]));
}

/** A one-resource stack export of a dynamic resource: the inputs the class registered (secret args sealed by the engine), the outputs the provider answered. */
function stateOf(type: string, name: string, id: string, inputs: Bag, outputs: Bag, show = false) {
  const secret = new Set((inputs.__secretArgs as string[] | undefined) ?? []);
  const ins = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, secret.has(k) ? asSecret(v) : v]));
  return {
    version: 3,
    deployment: {
      resources: [
        {
          urn: dynUrn(type, name),
          custom: true,
          type: `${DYN}${type}`,
          id,
          inputs: exported(ins, show),
          outputs: exported(outputs, show),
        },
      ],
    },
  };
}

/** The native face's Check of the program's args (secret roots in the engine's envelope); failures thrown. */
async function checked(k: ReturnType<typeof kinds>, u: string, news: Bag, olds: Bag): Promise<Struct> {
  const req = new provproto.CheckRequest().setUrn(u).setNews(toStruct(news)).setOlds(toStruct(olds));
  const r = await check(k, req);
  const failures = r.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`);
  if (failures.length > 0) throw new Error(failures.join("; "));
  return r.getInputs()!;
}

/** `pulumi import` of `id`, then the program's preview: the changes the native face finds. */
async function importedThenDiffed(type: string, name: string, id: string, program: Bag) {
  const k = kinds();
  const u = nativeUrn(type, name);
  const r = await read(k, new provproto.ReadRequest().setUrn(u).setId(id));
  const inputs = r.getInputs()!;
  const news = await checked(k, u, program, fromStruct(inputs).props);
  const d = await diff(
    k,
    new provproto.DiffRequest()
      .setUrn(u)
      .setId(r.getId())
      .setOlds(r.getProperties()!)
      .setOldInputs(inputs)
      .setNews(news),
  );
  const paths: string[] = [];
  d.getDetaileddiffMap().forEach((_pd, path) => {
    paths.push(path);
  });
  return {
    id: r.getId(),
    props: r.getProperties()!.toJavaScript() as Bag,
    inputs: inputs.toJavaScript() as Bag,
    changes: d.getChanges() === provproto.DiffResponse.DiffChanges.DIFF_SOME ? paths.sort() : [],
  };
}

const engineSecret = (v: unknown) => ({ [SIG_KEY]: SECRET_SIG, value: v });
const isEngineSecret = (v: unknown) => isSecretEnvelope(v);

afterEach(() => {
  delete process.env[SEAL_ENV];
});

describe("a dynamic-face stack with Guardrail Policies moved to the native face", () => {
  it("a BudgetPolicy imports under the planned id and the program previews with no change", async () => {
    const args = {
      workspaceId: DEFAULT_WS,
      name: "Migrated budget",
      limitUsd: 50,
      resetInterval: "monthly",
      memberUserIds: ["user_bob", "user_alice"],
      keyHashes: ["a1b2c3d4e5f60718"],
      workspaceDefault: true,
      optedOutMemberUserIds: ["user_carol"],
    };
    // The class registers each id list as a map (core/policies/id-maps.ts).
    const toMap = (ids: string[]) => Object.fromEntries([...ids].sort().map((i) => [i, true]));
    const registered = {
      ...args,
      memberUserIds: toMap(args.memberUserIds),
      keyHashes: toMap(args.keyHashes),
      optedOutMemberUserIds: toMap(args.optedOutMemberUserIds),
      __resource: "p/dev/budget",
      __secretArgs: [],
    };
    const made = await budgetPolicy.create(registered);
    expect(made.outs.memberUserIds).toEqual({ user_alice: true, user_bob: true });
    const plan = planMigration(stateOf("BudgetPolicy", "budget", made.id, registered, made.outs));
    expect(plan.moves.map((m) => [m.nativeType, m.importId])).toEqual([
      ["guardrails:index:BudgetPolicy", `${DEFAULT_WS}/${made.id}`],
    ]);
    const r = await importedThenDiffed("BudgetPolicy", "budget", plan.moves[0]!.importId, args);
    expect(r.id).toBe(made.id);
    expect(r.changes).toEqual([]);
    // The import reads the service, never the dynamic face's maps: lists as lists, no map under a list's name.
    expect(r.inputs.memberUserIds).toEqual(["user_alice", "user_bob"]);
    expect(r.props.memberUserIds).toEqual(["user_alice", "user_bob"]);
  });

  it("a ModerationPolicy with secret args: names carried, the workspace sealed, every copy a secret, no change", async () => {
    const args = {
      workspaceId: DEFAULT_WS,
      name: "MIGSECRET-POLICY-NAME",
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
      memberUserIds: ["user_dave"],
    };
    const secret = ["memberUserIds", "name", "workspaceId"];
    const registered = { ...args, memberUserIds: { user_dave: true }, __resource: "p/dev/mod", __secretArgs: secret };
    const made = await moderationPolicy.create(registered);
    const key = newSealKey();
    const plan = planMigration(stateOf("ModerationPolicy", "mod", made.id, registered, made.outs), {
      state: stateOf("ModerationPolicy", "mod", made.id, registered, made.outs, true),
      sealKey: key,
    });
    const id = plan.moves[0]!.importId;
    for (const v of [DEFAULT_WS, "MIGSECRET", "user_dave"]) expect(id).not.toContain(v);
    expect(JSON.parse(id.slice(id.indexOf("?") + 1)).secret).toEqual(secret);
    // Without the ciphertext opened, the workspace cannot be carried: a clear refusal, no value.
    expect(() => planMigration(stateOf("ModerationPolicy", "mod", made.id, registered, made.outs))).toThrow(
      /ModerationPolicy::mod": its workspaceId is secret, and the import id must name the workspace; run guardrails-migrate-to-native/,
    );

    process.env[SEAL_ENV] = key;
    const program = {
      ...args,
      name: engineSecret(args.name),
      workspaceId: engineSecret(args.workspaceId),
      memberUserIds: engineSecret(args.memberUserIds),
    };
    const r = await importedThenDiffed("ModerationPolicy", "mod", id, program);
    expect(r.id).toBe(made.id);
    expect(r.changes).toEqual([]);
    for (const arg of secret) {
      expect(isEngineSecret(r.inputs[arg]), `inputs.${arg}`).toBe(true);
      expect(isEngineSecret(r.props[arg]), `outputs.${arg}`).toBe(true);
      expect(isEngineSecret((r.props.args as Bag)[arg]), `outputs.args.${arg}`).toBe(true);
    }
    expect(isEngineSecret(r.props.members)).toBe(true);
  });

  it("a WorkspaceWidePolicy imports by its id alone, with its secret names, and previews with no change", async () => {
    const args = {
      name: "Migrated org budget",
      policyType: "budget",
      limitUsd: 500,
      resetInterval: "monthly",
      workspaceIds: [W2, DEFAULT_WS],
    };
    const registered = { ...args, __secretArgs: ["limitUsd"] };
    const made = await workspaceWidePolicy.create(registered);
    const key = newSealKey();
    const plan = planMigration(stateOf("WorkspaceWidePolicy", "wide", made.id, registered, made.outs), {
      state: stateOf("WorkspaceWidePolicy", "wide", made.id, registered, made.outs, true),
      sealKey: key,
    });
    expect(plan.moves[0]!.importId).toBe(`${made.id}?{"secret":["limitUsd"]}`);
    process.env[SEAL_ENV] = key;
    const r = await importedThenDiffed("WorkspaceWidePolicy", "wide", plan.moves[0]!.importId, {
      ...args,
      limitUsd: engineSecret(500),
    });
    expect(r.id).toBe(made.id);
    expect(r.changes).toEqual([]);
    expect(isEngineSecret(r.props.limitUsd)).toBe(true);
    expect(isEngineSecret(r.inputs.limitUsd)).toBe(true);
  });
});
