/**
 * Issue 41: the effective-access lookups (`getEffectiveAccess`, `getSubjectGuardrail`) on both
 * faces against the emulator over HTTP, on the layered org of test/helpers/access-layers.ts: the
 * dynamic face's functions as a program calls them (config from the environment), the native
 * face's invokes through the bundled plugin over gRPC (needs `npm run build`). Each answer is the
 * core's (access-answer.ts of core/data-sources/access.ts) and agrees with the emulator's own
 * enforcement route; the calls are counted; bad args are refused before any call, naming the
 * field; a member id or key hash is never quoted, and a secret one stays secret.
 */
import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EffectiveAccess } from "../../src/core/access";
import {
  getEffectiveAccess as coreAccess,
  getSubjectGuardrail as coreGuardrail,
} from "../../src/core/data-sources/access";
import { effectiveAccessResult, subjectGuardrailResult } from "../../src/core/data-sources/access-answer";
import { SECRET_SIG, SIG_KEY } from "../../src/core/markers";
import { resetConfiguration } from "../../src/core/settings/config";
import {
  getEffectiveAccess,
  getEffectiveAccessOutput,
  getSubjectGuardrail,
  getSubjectGuardrailOutput,
} from "../../src/index";
import { comparable, connectionOf, enforced, id, K0, K1, setUpLayers } from "../helpers/access-layers";
import { DEFAULT_WS, TEST_KEY, type TestEmulator, withEmulator } from "../helpers/emulator";
import { call, configure, invoke, type RunningPlugin, startPlugin } from "../helpers/native-plugin";

let emu: TestEmulator;
let plugin: RunningPlugin;
const savedEnv = { key: process.env.GUARDRAILS_API_KEY, url: process.env.GUARDRAILS_BASE_URL };

beforeAll(async () => {
  emu = await withEmulator();
  await setUpLayers(emu);
  process.env.GUARDRAILS_API_KEY = TEST_KEY;
  process.env.GUARDRAILS_BASE_URL = emu.url;
  resetConfiguration();
  plugin = await startPlugin();
  await configure(plugin.client, { apiKey: TEST_KEY, baseUrl: emu.url });
  // The provider proves its key once, before its first call (settings/credentials-check.ts): not a lookup's call.
  await invoke(plugin.client, "getWorkspaces", {});
}, 60_000);
afterAll(async () => {
  plugin?.stop();
  await emu.close();
  for (const [k, v] of [
    ["GUARDRAILS_API_KEY", savedEnv.key],
    ["GUARDRAILS_BASE_URL", savedEnv.url],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

type Lookup = "getEffectiveAccess" | "getSubjectGuardrail";
const DYNAMIC = { getEffectiveAccess, getSubjectGuardrail } as Record<Lookup, (a: unknown) => Promise<unknown>>;
/** Each face's way in: the dynamic face's function, the native face's invoke over gRPC. */
const FACES: Record<"dynamic" | "native", (name: Lookup, args: Record<string, unknown>) => Promise<any>> = {
  dynamic: (name, args) => DYNAMIC[name](args),
  native: (name, args) => invoke(plugin.client, name, args),
};

/** The answer (or failure) of one lookup, and the requests that reached the service for it. */
async function counted(run: () => Promise<any>) {
  await emu.clearLog();
  let answer: any;
  let error: Error | undefined;
  try {
    answer = await run();
  } catch (err) {
    error = err as Error;
  }
  const log = await emu.log();
  return { answer, error, calls: log.total, counts: log.counts };
}

/**
 * Waits until no request reaches the emulator for a while: a lookup that failed leaves its other
 * reads (retrying the same fault) running, and they must not land in the next test's count.
 */
async function settled(): Promise<void> {
  let before = -1;
  for (let total = (await emu.log()).total; total !== before; total = (await emu.log()).total) {
    before = total;
    await new Promise((r) => setTimeout(r, 300));
  }
}

const SUBJECTS: Array<[Record<string, string>, string]> = [
  [{ memberId: "user_alice" }, "member=user_alice"],
  [{ memberId: "user_bob" }, "member=user_bob"],
  [{ memberId: "user_carol" }, "member=user_carol"],
  [{ keyHash: K0, ownerMemberId: "user_alice" }, `key=${K0}`],
  [{ keyHash: K1 }, `key=${K1}`],
];

describe.each(Object.keys(FACES) as (keyof typeof FACES)[])("the %s face", (face) => {
  const run = FACES[face];

  /** The face as a new program (dynamic) or a new provider instance (native) meets it: no listing read yet. */
  async function fresh(): Promise<{ run: typeof run; stop: () => void }> {
    if (face === "dynamic") {
      resetConfiguration();
      return { run, stop: () => {} };
    }
    const p = await startPlugin();
    await configure(p.client, { apiKey: TEST_KEY, baseUrl: emu.url });
    await invoke(p.client, "getWorkspaces", {}); // its credentials check
    // The check's own request may still be on its way to the log: let it land before counting.
    await settled();
    return { run: (name, args) => invoke(p.client, name, args), stop: () => p.stop() };
  }

  it("calls: each org-wide listing read once per lookup: 11 for a member, 15 for a key with its owner", async () => {
    const a = await fresh();
    try {
      const member = await counted(() =>
        a.run("getEffectiveAccess", { memberId: "user_bob", workspaceId: DEFAULT_WS }),
      );
      expect(member.error).toBeUndefined();
      expect(member.calls, JSON.stringify(member.counts)).toBe(11);
      expect(member.counts).toMatchObject({ listAllMemberAssignments: 1 });
      expect(member.counts.listAllKeyAssignments ?? 0).toBe(0);
    } finally {
      a.stop();
    }
    const b = await fresh();
    try {
      const key = await counted(() =>
        b.run("getSubjectGuardrail", { keyHash: K0, ownerMemberId: "user_alice", workspaceId: DEFAULT_WS }),
      );
      expect(key.calls, JSON.stringify(key.counts)).toBe(15);
      expect(key.counts).toMatchObject({ listAllMemberAssignments: 1, listAllKeyAssignments: 1 });
      // The provider instance keeps the listings (client/org-assignments.ts): the next lookup reads neither.
      const again = await counted(() => b.run("getEffectiveAccess", { memberId: "user_bob", workspaceId: DEFAULT_WS }));
      expect(again.calls).toBe(10); // a member's 11, less the member listing
      expect(again.counts.listAllMemberAssignments ?? 0).toBe(0);
    } finally {
      b.stop();
    }
  }, 30_000);

  it.each(SUBJECTS)("getEffectiveAccess %o: the core's answer, and what the emulator enforces", async (args, q) => {
    const found = await run("getEffectiveAccess", { ...args, workspaceId: DEFAULT_WS });
    const core = await coreAccess(connectionOf(emu.client()), { ...args, workspaceId: DEFAULT_WS });
    expect(found).toEqual(JSON.parse(JSON.stringify(effectiveAccessResult(core))));
    const asAccess = { ...found.access, layers: found.layers } as EffectiveAccess;
    expect(comparable(asAccess)).toEqual(comparable(await enforced(emu, q)));
  });

  it.each(SUBJECTS)("getSubjectGuardrail %o: the core's answer", async (args) => {
    const found = await run("getSubjectGuardrail", { ...args, workspaceId: DEFAULT_WS });
    const core = await coreGuardrail(connectionOf(emu.client()), { ...args, workspaceId: DEFAULT_WS });
    expect(found).toEqual(JSON.parse(JSON.stringify(subjectGuardrailResult(core))));
  });

  it("answers in the program's words: layers with kind, id, name, policyType, via; lists that say restricted", async () => {
    const found = await run("getEffectiveAccess", { memberId: "user_alice", workspaceId: DEFAULT_WS });
    expect(found).toMatchObject({ workspaceId: DEFAULT_WS, memberId: "user_alice", ownerKnown: true });
    expect(found.layers).toEqual([
      { kind: "member-guardrail", id: id.eng, name: "Eng" },
      { kind: "workspace-default-policy", id: id.weekly, name: "everyone weekly", policyType: "budget", via: "member" },
      { kind: "workspace-wide-policy", id: id.wide, name: "no vendor-x", policyType: "modelAccess" },
    ]);
    expect(found.access.allowedProviders).toEqual({
      restricted: true,
      allowed: ["vendor-a"],
      restrictedBy: [{ layer: found.layers[0], ids: ["vendor-a"] }],
    });
    expect(found.access.allowedModels).toEqual({ restricted: false, allowed: null, restrictedBy: [] });
    expect(found.access.ignoredProviders.entries).toEqual([{ id: "vendor-x", from: [found.layers[2]] }]);
    expect(found.access.budgets).toMatchObject([{ limitUsd: 20, resetInterval: "weekly", from: found.layers[1] }]);
    expect(found.access).not.toHaveProperty("subject");

    const key = await run("getSubjectGuardrail", { keyHash: K1, workspaceId: DEFAULT_WS });
    expect(key).toMatchObject({ keyHash: K1, ownerKnown: false });
    expect(key.guardrails.map((g: any) => [g.kind, g.id])).toEqual([["workspace-default-guardrail", id.dflt]]);
  });

  it("bad args are refused before any call, naming the field, never quoting a member id or key hash", async () => {
    const cases: Array<[Lookup, Record<string, unknown>, RegExp]> = [
      [
        "getEffectiveAccess",
        { workspaceId: DEFAULT_WS },
        /memberId(; \S+ in Python, \S+ in Go)?: give memberId \(a member's user id\) or keyHash/,
      ],
      [
        "getSubjectGuardrail",
        { memberId: "user_alice", keyHash: K0 },
        /keyHash(; \S+ in Python, \S+ in Go)?: give memberId or keyHash, not both/,
      ],
      [
        "getEffectiveAccess",
        { memberId: "user_alice", ownerMemberId: "user_bob" },
        /ownerMemberId(; \S+ in Python, \S+ in Go)?: names a key's owner; give it with keyHash, not memberId/,
      ],
      [
        "getEffectiveAccess",
        { memberId: "user_alice", workspaceId: "no/such" },
        /workspaceId(; \S+ in Python, \S+ in Go)?: must be a workspace id/,
      ],
      [
        "getSubjectGuardrail",
        { keyHash: ` ${K0} `.repeat(200) },
        /keyHash(; \S+ in Python, \S+ in Go)?: must be at most 500 characters/,
      ],
      ["getSubjectGuardrail", { memberId: ["user_alice"] }, /memberId(; \S+ in Python, \S+ in Go)?: must be a string$/],
      ["getEffectiveAccess", { memberId: "user_alice", member: "user_alice" }, /member/],
    ];
    for (const [name, args, message] of cases) {
      const r = await counted(() => run(name, args));
      expect(r.error?.message, `${name} ${JSON.stringify(args).slice(0, 80)}`).toMatch(message);
      expect(r.error?.message).not.toContain("user_alice");
      expect(r.error?.message).not.toContain(K0);
      expect(r.calls).toBe(0);
    }
  });

  it("a failed call never quotes the member id its URL holds", async () => {
    await emu.setFaults({ script: [{ operation: "getMemberPolicyAssignment", fault: 500, times: 30 }] });
    try {
      const r = await counted(() => run("getEffectiveAccess", { memberId: "user_alice", workspaceId: DEFAULT_WS }));
      expect(r.error).toBeDefined();
      expect(inspect(r.error)).not.toContain("user_alice");
    } finally {
      await emu.setFaults({ script: [] });
      await settled();
    }
    const gone = await counted(() =>
      run("getSubjectGuardrail", { memberId: "user_nobody_x", workspaceId: DEFAULT_WS }),
    );
    expect(gone.error?.message).toContain("the service knows no such memberId");
    expect(inspect(gone.error)).not.toContain("user_nobody_x");
  });
});

describe("a secret member id or key hash stays secret", () => {
  const secret = (value: string) => ({ [SIG_KEY]: SECRET_SIG, value });
  it("native face: the secret args come back secret, and only they", async () => {
    const req = new provproto.InvokeRequest().setTok("guardrails:index:getEffectiveAccess").setArgs(
      Struct.fromJavaScript({
        keyHash: secret(K0),
        ownerMemberId: secret("user_alice"),
        workspaceId: DEFAULT_WS,
      } as never),
    );
    const resp = await call<provproto.InvokeRequest, provproto.InvokeResponse>(plugin.client, "invoke", req);
    const answer = resp.getReturn()!.toJavaScript() as Record<string, any>;
    expect(answer.keyHash).toEqual(secret(K0));
    expect(answer.ownerMemberId).toEqual(secret("user_alice"));
    expect(answer.workspaceId).toBe(DEFAULT_WS);
    expect(answer.layers.map((l: any) => l.id)).toEqual([id.eng, id.keys, id.weekly, id.wide]);
    expect(JSON.stringify({ ...answer, keyHash: 0, ownerMemberId: 0 })).not.toMatch(/user_alice|secretsig/i);
  });

  it("dynamic face: the Output forms answer a secret output for a secret input", async () => {
    const out = getEffectiveAccessOutput({ memberId: pulumi.secret("user_alice"), workspaceId: DEFAULT_WS });
    expect(await (out as any).isSecret).toBe(true);
    expect(await new Promise((resolve) => out.apply(resolve))).toMatchObject({ memberId: "user_alice" });
    const on = getSubjectGuardrailOutput({ keyHash: pulumi.secret(K0), workspaceId: DEFAULT_WS });
    expect(await (on as any).isSecret).toBe(true);
    expect(await new Promise((resolve) => on.apply(resolve))).toMatchObject({ keyHash: K0 });
  });
});
