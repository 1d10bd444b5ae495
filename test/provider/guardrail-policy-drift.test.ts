/**
 * The drift a guardrail hides (issue 40): once its moderation policy is edited, or its budget
 * policy deleted, through the policy API (plain HTTP to the emulator), a refresh on either face
 * records `unsyncedPolicies` and warns, and a preview of that state warns the same without
 * reporting a change. An untouched guardrail: no warning, and exactly three list calls per
 * workspace per provider instance, shared by every Guardrail it refreshes.
 */
import type * as grpc from "@grpc/grpc-js";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetSaid } from "../../src/core/settings/said-once";
import { guardrail } from "../../src/dynamic/internal";
import { providerService } from "../../src/native/server";
import { configureProvider, DEFAULT_WS, TEST_KEY, W2, withEmulator, type TestEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

let emu: TestEmulator;
let api: ReturnType<typeof http>;
beforeAll(async () => {
  emu = await withEmulator();
  api = http(`${emu.url}/api/v1`, TEST_KEY);
});
afterAll(() => emu.close());

type Props = Record<string, any>;
/** One face as the engine drives it; `fresh` is a new provider process (a new connection). */
interface Face {
  fresh(): Promise<void>;
  create(props: Props): Promise<{ id: string; outs: Props }>;
  read(id: string, outs: Props): Promise<Props>;
  /** Whether the diff reports a change. */
  diff(id: string, olds: Props, news: Props): Promise<boolean>;
}

const dynamicFace: Face = {
  fresh: async () => configureProvider(emu.url),
  create: async (props) => {
    const r = await guardrail.create({ __provider: "serialized", ...props });
    return { id: r.id, outs: r.outs };
  },
  read: async (id, outs) => (await guardrail.read(id, outs)).props as Props,
  diff: async (id, olds, news) => Boolean((await guardrail.diff(id, olds, news)).changes),
};

function call<Req, Resp>(handler: unknown, request: Req): Promise<Resp> {
  return new Promise((resolve, reject) =>
    (handler as grpc.handleUnaryCall<Req, Resp>)({ request } as grpc.ServerUnaryCall<Req, Resp>, (err, resp) =>
      err ? reject(err) : resolve(resp as Resp),
    ),
  );
}
const URN = "urn:pulumi:s::p::guardrails:index:Guardrail::eng";
const struct = (p: Props) => Struct.fromJavaScript(p as never);
function nativeFace(): Face {
  let s = providerService("0.0.0");
  return {
    fresh: async () => {
      forgetSaid(); // a new provider process has said nothing yet
      s = providerService("0.0.0");
      await call(s.configure, new provproto.ConfigureRequest().setArgs(struct({ apiKey: TEST_KEY, baseUrl: emu.url })));
    },
    create: async (props) => {
      const r = await call<provproto.CreateRequest, provproto.CreateResponse>(
        s.create,
        new provproto.CreateRequest().setUrn(URN).setProperties(struct(props)),
      );
      return { id: r.getId(), outs: r.getProperties()!.toJavaScript() as Props };
    },
    read: async (id, outs) => {
      const r = await call<provproto.ReadRequest, provproto.ReadResponse>(
        s.read,
        new provproto.ReadRequest().setId(id).setUrn(URN).setProperties(struct(outs)),
      );
      return r.getProperties()!.toJavaScript() as Props;
    },
    diff: async (id, olds, news) => {
      const r = await call<provproto.DiffRequest, provproto.DiffResponse>(
        s.diff,
        new provproto.DiffRequest().setId(id).setUrn(URN).setOlds(struct(olds)).setNews(struct(news)),
      );
      return r.getChanges() === provproto.DiffResponse.DiffChanges.DIFF_SOME;
    },
  };
}

const P = "/guardrails/policies";
/** The policy of `seg` mapped from guardrail `gid`, read as anyone would: a plain list call. */
async function policyOf(seg: string, gid: string): Promise<Props> {
  const rows = (await api("GET", `${P}/${seg}?workspace_id=${DEFAULT_WS}`)).body.data as Props[];
  const p = rows.find((r) => r.legacy_guardrail_ids?.includes(gid));
  if (!p) throw new Error(`no ${seg} policy maps guardrail ${gid}`);
  return p;
}

const ENG = {
  name: "Eng",
  workspaceId: DEFAULT_WS,
  limitUsd: 50,
  resetInterval: "monthly",
  contentFilterBuiltins: [{ slug: "email", action: "redact" }],
};
const LISTS = ["listBudgetPolicies", "listModelAvailabilityPolicies", "listModerationPolicies"];
const listCalls = async () => {
  const counts = (await emu.log()).counts;
  return LISTS.map((op) => counts[op] ?? 0);
};

let warnings: string[];
beforeEach(async () => {
  await http(emu.url)("POST", "/__emulator/reset");
  warnings = [];
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void warnings.push(a.join(" ")));
  return () => vi.restoreAllMocks();
});
const driftWarnings = () => warnings.filter((w) => w.includes("Guardrail Policies"));

describe.each([
  ["dynamic", dynamicFace],
  ["native", nativeFace()],
])("the %s face", (_name, face) => {
  it("an untouched guardrail: no warning, no output, and three list calls per workspace per provider, shared", async () => {
    await face.fresh();
    const a = await face.create(ENG);
    const b = await face.create({ ...ENG, name: "Research" });
    const c = await face.create({ ...ENG, name: "Elsewhere", workspaceId: W2 });
    await emu.clearLog();
    const [ra, rb] = await Promise.all([face.read(a.id, a.outs), face.read(b.id, b.outs)]);
    expect(await listCalls()).toEqual([1, 1, 1]);
    await face.read(a.id, ra);
    expect(await listCalls()).toEqual([1, 1, 1]); // the same provider process does not list again
    await face.read(c.id, c.outs);
    expect(await listCalls()).toEqual([2, 2, 2]); // another workspace: its own three
    expect((await emu.log()).counts.getGuardrail).toBe(4);
    await face.fresh();
    await face.read(a.id, ra);
    expect(await listCalls()).toEqual([3, 3, 3]); // the next process reads again
    expect(ra.unsyncedPolicies).toBeUndefined();
    expect(rb.unsyncedPolicies).toBeUndefined();
    expect(await face.diff(a.id, ra, ENG)).toBe(false);
    expect(driftWarnings()).toEqual([]);
  });

  it("a moderation policy edited through the policy API: refresh records it and warns, preview warns too", async () => {
    await face.fresh();
    const { id, outs } = await face.create(ENG);
    const mod = await policyOf("moderation", id);
    const put = await api("PUT", `${P}/moderation/${mod.id}`, {
      name: "edited in the dashboard",
      workspace_id: DEFAULT_WS,
      config: { content_filter_builtins: [{ slug: "ssn", action: "block" }], content_filters: null },
    });
    expect(put.status).toBe(200);
    await face.fresh();
    const read = await face.read(id, outs);
    expect(read.unsyncedPolicies).toEqual([
      {
        kind: "moderation",
        policyId: mod.id,
        deleted: false,
        enforces: { contentFilterBuiltins: [{ slug: "ssn", action: "block", label: "[SSN]" }] },
      },
    ]);
    expect(driftWarnings().map((w) => w.replace(mod.id, "<policy>"))).toMatchInlineSnapshot(`
      [
        "guardrail "Eng": its moderation policy <policy> was edited in Guardrail Policies and no longer follows this guardrail; the service now enforces: contentFilterBuiltins=[{"action":"block","label":"[SSN]","slug":"ssn"}]; \`pulumi up\` cannot change it through this Guardrail: manage it as a ModerationPolicy and remove its settings from the Guardrail (see "When its policies were edited apart" in docs/resources/guardrail.md)",
      ]
    `);
    // The budget kind still follows the guardrail.
    expect((await policyOf("budget", id)).is_legacy_mapped).toBe(true);

    // The diff the CLI runs after that read, in the same process: said once per process.
    warnings.length = 0;
    expect(await face.diff(id, read, ENG)).toBe(false);
    expect(driftWarnings()).toEqual([]);
    // A preview (the next process): no change, since an up cannot repair it, but never silent.
    await face.fresh();
    await emu.clearLog();
    expect(await face.diff(id, read, ENG)).toBe(false);
    expect(driftWarnings()).toHaveLength(1);
    expect(driftWarnings()[0]).toContain(`its moderation policy ${mod.id} was edited`);
    // From the state: no call (but the new process's one credentials check, a list of one row).
    const calls = (await emu.log()).entries.map((e) => `${e.operation}${e.query}`);
    expect(calls.filter((c) => !c.startsWith("listGuardrails?") || !c.endsWith("limit=1"))).toEqual([]);

    // The way out: the program stops setting moderation on the Guardrail (and manages the policy itself).
    await face.fresh();
    warnings.length = 0;
    const { contentFilterBuiltins: _, ...withoutModeration } = ENG;
    expect(await face.diff(id, read, withoutModeration)).toBe(true);
    expect(driftWarnings()).toEqual([]);
  });

  it("one kind set, its policy deleted, no other policy in the workspace: refresh and preview warn, naming the id last seen", async () => {
    const MOD_ONLY = {
      name: "Mod only",
      workspaceId: W2,
      contentFilterBuiltins: [{ slug: "email", action: "redact" }],
    };
    await face.fresh();
    const { id, outs } = await face.create(MOD_ONLY);
    const rows = (await api("GET", `${P}/moderation?workspace_id=${W2}`)).body.data as Props[];
    const mod = rows.find((r) => r.legacy_guardrail_ids?.includes(id))!;
    // The refresh records the policy the guardrail maps to; nothing is drift yet.
    const first = await face.read(id, outs);
    expect(first.mappedPolicyIds).toEqual({ moderation: mod.id });
    expect(first.unsyncedPolicies).toBeUndefined();
    expect((await api("DELETE", `${P}/moderation/${mod.id}?workspace_id=${W2}`)).status).toBe(200);
    // Every list of the workspace is now empty: nothing says the service shows the mapping at all,
    // so no "deleted" is inferred; but the state saw the mapping, and it is no longer listed.
    for (const seg of ["budget", "model-availability", "moderation"])
      expect((await api("GET", `${P}/${seg}?workspace_id=${W2}`)).body.data).toEqual([]);
    await face.fresh();
    warnings.length = 0;
    const read = await face.read(id, first);
    expect(read.unsyncedPolicies).toEqual([
      { kind: "moderation", policyId: mod.id, deleted: false, unlisted: true, enforces: null },
    ]);
    expect(driftWarnings().map((w) => w.replace(mod.id, "<policy>"))).toMatchInlineSnapshot(`
      [
        "guardrail "Mod only": its moderation policy <policy> is no longer listed in Guardrail Policies (the last refresh listed it as this guardrail's): its enforcement may have changed, and the service does not say whether it was deleted; \`pulumi up\` cannot check or restore it through this Guardrail: look the policy up in Guardrail Policies, and manage these settings as a ModerationPolicy or remove them from the Guardrail (see "When its policies were edited apart" in docs/resources/guardrail.md)",
      ]
    `);
    // A preview in the next process warns the same, from the state, and reports no change.
    await face.fresh();
    warnings.length = 0;
    expect(await face.diff(id, read, MOD_ONLY)).toBe(false);
    expect(driftWarnings()).toHaveLength(1);
    expect(driftWarnings()[0]).toContain(`its moderation policy ${mod.id} is no longer listed`);
  });

  it("state written before mappedPolicyIds existed reads and diffs clean, and records it", async () => {
    await face.fresh();
    const { id, outs } = await face.create(ENG);
    const { mappedPolicyIds: _, ...older } = await face.read(id, outs);
    await face.fresh();
    expect(await face.diff(id, older, ENG)).toBe(false);
    const read = await face.read(id, older);
    expect(Object.keys(read.mappedPolicyIds ?? {}).sort()).toEqual(["budget", "moderation"]);
    expect(read.unsyncedPolicies).toBeUndefined();
    expect(driftWarnings()).toEqual([]);
  });

  it("a budget policy deleted through the policy API is drift: the service no longer enforces it", async () => {
    await face.fresh();
    const { id, outs } = await face.create(ENG);
    const budget = await policyOf("budget", id);
    expect((await api("DELETE", `${P}/budget/${budget.id}?workspace_id=${DEFAULT_WS}`)).status).toBe(200);
    await face.fresh();
    const read = await face.read(id, outs);
    expect(read.unsyncedPolicies).toEqual([{ kind: "budget", policyId: null, deleted: true, enforces: null }]);
    expect(driftWarnings()).toMatchInlineSnapshot(`
      [
        "guardrail "Eng": its budget policy was deleted in Guardrail Policies, so the service no longer enforces this guardrail's budget settings (limitUsd, resetInterval, includeByokInBudgets); \`pulumi up\` cannot restore them through this Guardrail: manage them as a BudgetPolicy, or remove them from the Guardrail (see "When its policies were edited apart" in docs/resources/guardrail.md)",
      ]
    `);
  });
});
