/**
 * The differential test's cases (test/emulator/effective-access-differential.test.ts): random
 * layers written through the emulator's API, read back as a lookup would read them, and turned
 * into the core's facts. Wire names here; the core's names come from the field table.
 */
import fc from "fast-check";
import type {
  AccessFacts,
  GuardrailFacts,
  LayerSettings,
  PolicyFacts,
  Subject,
  WorkspaceWideFacts,
} from "../../src/core/access";
import { FIELD_NAMES, spec } from "../../src/core/fields/fields";
import { type PolicyKind, policyKindOf, POLICY_KINDS, POLICY_WIRE } from "../../src/core/fields/policy-kinds";
import type { HttpCall } from "./spawn-emulator";

const M1 = "user_alice";
const M2 = "user_bob";
const K1 = "a1b2c3d4e5f60718";
const K2 = "b2c3d4e5f6071829";
const MODELS = [
  "vendor-a/model-x",
  "vendor-a/model-x-20260115",
  "vendor-b/model-m",
  "vendor-c/model-q-20251111",
  "other-lab/open-model-8b",
];
const PROVIDERS = ["vendor-a", "vendor-b", "vendor-c", "other-lab"];
const REGIONS = ["global", "europe", "us"];

type Wire = Record<string, unknown>;
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const some = (xs: string[]) => fc.uniqueArray(fc.constantFrom(...xs), { minLength: 1, maxLength: xs.length });
const strip = (w: Record<string, unknown>): Wire =>
  Object.fromEntries(Object.entries(w).filter(([, v]) => v !== undefined));

const budget = fc.option(
  fc.record({
    limit_usd: fc.integer({ min: 1, max: 90 }),
    reset_interval: fc.constantFrom("daily", "weekly"),
    include_byok_in_budgets: fc.boolean(),
  }),
  { nil: {} },
);
const modelAvailability = fc
  .record({
    allowed_models: opt(some(MODELS)),
    ignored_models: opt(some(MODELS)),
    allowed_providers: opt(some(PROVIDERS)),
    ignored_providers: opt(some(PROVIDERS)),
    enforce_zdr_vendor_a: opt(fc.boolean()),
    enforce_zdr_other: opt(fc.boolean()),
    enforce_zdr: opt(fc.boolean()),
    enable_free_model_training: opt(fc.boolean()),
    enable_paid_model_training: opt(fc.boolean()),
    allowed_data_regions: opt(some(REGIONS)),
  })
  .map(strip);
const builtin = fc
  .record({
    slug: fc.constantFrom("email", "ssn", "regex-prompt-injection"),
    action: fc.constantFrom("flag", "redact", "block"),
    scan_scope: fc.constantFrom("user_only", "all_messages", undefined),
  })
  .map((b) => strip({ ...b, scan_scope: b.slug === "regex-prompt-injection" ? b.scan_scope : undefined }));
const moderation = fc
  .record({
    content_filter_builtins: opt(fc.uniqueArray(builtin, { selector: (b) => b.slug, minLength: 1, maxLength: 3 })),
    content_filters: opt(
      fc.uniqueArray(
        fc.record({ pattern: fc.constantFrom("a+", "b+", "c+"), action: fc.constantFrom("flag", "redact", "block") }),
        {
          selector: (f) => f.pattern,
          minLength: 1,
          maxLength: 3,
        },
      ),
    ),
  })
  .map(strip);
const configOf = (kind: PolicyKind) =>
  kind === "budget" ? budget : kind === "moderation" ? moderation : modelAvailability;
const guardrailSettings = fc.tuple(budget, modelAvailability, moderation).map(([a, b, c]) => ({ ...a, ...b, ...c }));

const policyArb = fc.constantFrom(...POLICY_KINDS).chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    config: configOf(kind),
    member_ids: fc.subarray([M1, M2]),
    api_key_hashes: fc.subarray([K1, K2]),
    is_workspace_default: fc.boolean(),
    opted_out_member_ids: fc.subarray([M1, M2]),
    opted_out_api_key_hashes: fc.subarray([K1, K2]),
  }),
);
const accountArb = fc.constantFrom(...POLICY_KINDS).chain((kind) =>
  fc.record({
    kind: fc.constant(kind),
    config: configOf(kind),
    here: fc.boolean(),
    is_default: fc.boolean(),
    opted_out: fc.boolean(),
  }),
);

/** One case: what to write. */
export const caseArb = fc.record({
  dflt: opt(guardrailSettings),
  gm: opt(fc.record({ settings: guardrailSettings, members: fc.subarray([M1, M2]) })),
  gk: opt(fc.record({ settings: guardrailSettings, keys: fc.subarray([K1, K2]) })),
  policies: fc.array(policyArb, { maxLength: 4 }),
  account: fc.array(accountArb, { maxLength: 2 }),
});
export type DiffCase = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** What was written and read back. */
export interface World {
  workspaceId: string;
  subjects: Subject[];
  guardrails: Map<string, GuardrailFacts>;
  /** Who holds which guardrail (the ones this case assigned). */
  memberOf: Map<string, string>;
  keyOf: Map<string, string>;
  defaultId: string;
  policies: PolicyFacts[];
  account: WorkspaceWideFacts[];
}

/** A wire record's settings by the program's names (filters' `scan_scope` as `scanScope`). */
export function settingsOf(w: Wire): LayerSettings {
  const out: Record<string, unknown> = {};
  for (const k of FIELD_NAMES) {
    const v = w[spec(k).wire];
    if (v === undefined) continue;
    out[k] =
      k === "contentFilterBuiltins" && Array.isArray(v)
        ? v.map((b: Wire) => ({ slug: b.slug, action: b.action, ...(b.scan_scope ? { scanScope: b.scan_scope } : {}) }))
        : v;
  }
  return out as LayerSettings;
}

async function ok(api: HttpCall, method: string, path: string, body?: unknown) {
  const r = await api(method, path, body);
  if (r.status >= 300)
    throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)} for ${JSON.stringify(body)}`);
  return r.body;
}

async function readBack(api: HttpCall, ws: string): Promise<Pick<World, "policies" | "account">> {
  const policies: PolicyFacts[] = [];
  for (const kind of POLICY_KINDS) {
    const seg = POLICY_WIRE[kind].segment;
    const list = (await ok(api, "GET", `/api/v1/guardrails/policies/${seg}?workspace_id=${ws}`)).data as Wire[];
    for (const row of list) {
      const d = (await ok(api, "GET", `/api/v1/guardrails/policies/${seg}/${row.id}?workspace_id=${ws}`)).data as Wire;
      policies.push({
        id: d.id as string,
        name: d.name as string,
        kind,
        settings: settingsOf(d.config as Wire),
        memberIds: d.member_ids as string[],
        keyHashes: d.api_key_hashes as string[],
        isWorkspaceDefault: d.is_workspace_default === true,
        optedOutMemberIds: (d.opted_out_member_ids as string[]) ?? [],
        optedOutKeyHashes: d.opted_out_api_key_hashes as string[],
        isLegacyMapped: d.is_legacy_mapped === true,
        legacyGuardrailIds: (d.legacy_guardrail_ids as string[]) ?? [],
      });
    }
  }
  const account = ((await ok(api, "GET", "/api/v1/guardrails/policies/account")).data as Wire[]).map((a) => ({
    id: a.id as string,
    name: a.name as string,
    kind: policyKindOf(a.policy_type as string) as PolicyKind,
    settings: settingsOf(a.config as Wire),
    workspaceIds: a.workspace_ids as string[],
    optedOutWorkspaceIds: a.opted_out_workspace_ids as string[],
    isDefault: a.is_default === true,
  }));
  return { policies, account };
}

async function guardrailFacts(api: HttpCall, id: string): Promise<GuardrailFacts | undefined> {
  const r = await api("GET", `/api/v1/guardrails/${id}`);
  if (r.status === 404) return undefined;
  const g = r.body.data as Wire;
  return { id, name: g.name as string, settings: settingsOf(g) };
}

/** Resets the emulator and writes `c`; answers what a lookup would read back. */
export async function setUp(api: HttpCall, c: DiffCase): Promise<World> {
  await ok(api, "POST", "/__emulator/reset");
  const ws = ((await ok(api, "GET", "/api/v1/workspaces")).data as Wire[])[0] as Wire;
  const workspaceId = ws.id as string;
  const defaultId = ws.default_guardrail_id as string;
  await ok(api, "POST", "/__emulator/key-info", { key_hashes: [K1], member_user_id: M1 });
  if (c.dflt) await ok(api, "PATCH", `/api/v1/guardrails/${defaultId}`, c.dflt);
  const memberOf = new Map<string, string>();
  const keyOf = new Map<string, string>();
  for (const [name, g] of [
    ["gm", c.gm],
    ["gk", c.gk],
  ] as const) {
    if (!g) continue;
    const id = (
      (await ok(api, "POST", "/api/v1/guardrails", { name, workspace_id: workspaceId, ...g.settings })).data as Wire
    ).id as string;
    if ("members" in g && g.members.length) {
      await ok(api, "POST", `/api/v1/guardrails/${id}/assignments/members`, { member_user_ids: g.members });
      for (const m of g.members) memberOf.set(m, id);
    }
    if ("keys" in g && g.keys.length) {
      await ok(api, "POST", `/api/v1/guardrails/${id}/assignments/keys`, { key_hashes: g.keys });
      for (const k of g.keys) keyOf.set(k, id);
    }
  }
  for (const [i, p] of c.policies.entries()) {
    const { kind, ...body } = p;
    await ok(api, "POST", `/api/v1/guardrails/policies/${POLICY_WIRE[kind].segment}`, {
      name: `p${i}`,
      workspace_id: workspaceId,
      ...body,
    });
  }
  for (const [i, a] of c.account.entries())
    await ok(api, "POST", "/api/v1/guardrails/policies/account", {
      name: `w${i}`,
      policy_type: POLICY_WIRE[a.kind].policyType,
      config: a.config,
      workspace_ids: a.here ? [workspaceId] : [],
      opted_out_workspace_ids: a.opted_out ? [workspaceId] : [],
      is_default: a.is_default,
    });
  const guardrails = new Map<string, GuardrailFacts>();
  for (const id of [defaultId, ...memberOf.values(), ...keyOf.values()]) {
    const g = await guardrailFacts(api, id);
    if (g) guardrails.set(id, g);
  }
  const subjects: Subject[] = [
    { member: M1 },
    { member: M2 },
    { key: K1, ownerMember: M1 },
    { key: K2, ownerMember: null },
  ];
  return { workspaceId, subjects, guardrails, memberOf, keyOf, defaultId, ...(await readBack(api, workspaceId)) };
}

/** The core's facts of one subject of `w`. */
export function facts(w: World, subject: Subject): AccessFacts {
  const member = "member" in subject ? subject.member : subject.ownerMember;
  const of = (id: string | undefined) => (id === undefined ? null : (w.guardrails.get(id) ?? null));
  return {
    subject,
    workspaceId: w.workspaceId,
    workspaceDefault: of(w.defaultId),
    memberGuardrail: member === null ? null : of(w.memberOf.get(member)),
    keyGuardrail: "key" in subject ? of(w.keyOf.get(subject.key)) : null,
    policies: w.policies,
    workspaceWide: w.account,
  };
}
