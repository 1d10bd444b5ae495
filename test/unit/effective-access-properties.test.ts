/**
 * Effective access never widens when a layer is added or tightened (issue 41, "Must show"):
 * thousands of random layer sets, with fast-check. Two levels: the layers that apply, combined
 * (any layer added, any layer tightened), and the facts a layer set comes from (tightening any
 * guardrail or policy within the kinds it sets, adding a workspace-wide policy, taking back an
 * opt-out). The two facts-level changes that may widen by the service's own rules (a direct
 * policy, or a guardrail that starts to set a kind, takes the subject off the workspace default of
 * that kind) are pinned as such below. ACCESS_RUNS and ACCESS_SEED replay a run.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AccessFacts,
  combine,
  effectiveAccess,
  type Layer,
  type LayerKind,
  widenings,
} from "../../src/core/access";
import { POLICY_KINDS } from "../../src/core/fields/policy-kinds";
import { ALIASES, guardrailSettings, settingsOf, tighten } from "../helpers/access-arbitraries";
import { facts, guardrail, keyFacts, OTHER_WS, policy, WS, workspaceWide } from "../helpers/access-facts";

const RUNS = Number(process.env.ACCESS_RUNS ?? 3000);
const SEED = process.env.ACCESS_SEED === undefined ? undefined : Number(process.env.ACCESS_SEED);
const options = { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }) };

const KINDS: LayerKind[] = ["member-guardrail", "key-guardrail", "policy", "workspace-wide-policy"];
const layer = fc
  .record({ kind: fc.constantFrom(...KINDS), settings: guardrailSettings })
  .map(({ kind, settings }): Omit<Layer, "ref"> & { kind: LayerKind } => ({ kind, settings }));
const layers = fc
  .array(layer, { maxLength: 5 })
  .map((ls) => ls.map((l, i): Layer => ({ ref: { kind: l.kind, id: `L${i}`, name: null }, settings: l.settings })));
const SUBJECT = { subject: { member: "user_a" }, workspaceId: WS, modelAliases: ALIASES };
const combined = (ls: Layer[]) => combine(SUBJECT, ls);

describe("combining: adding or tightening a layer never widens", () => {
  it("adding any layer", () => {
    fc.assert(
      fc.property(layers, layer, fc.nat(), (ls, extra, at) => {
        const added = [...ls];
        added.splice(at % (ls.length + 1), 0, {
          ref: { kind: extra.kind, id: "new", name: null },
          settings: extra.settings,
        });
        expect(widenings(combined(ls), combined(added))).toEqual([]);
      }),
      options,
    );
  });

  it("tightening any layer, any way", () => {
    fc.assert(
      fc.property(
        layers.filter((ls) => ls.length > 0),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (ls, which, op, n) => {
          const i = which % ls.length;
          const tightened = ls.map((l, j) => (j === i ? { ...l, settings: tighten(l.settings, op, n, true) } : l));
          expect(widenings(combined(ls), combined(tightened))).toEqual([]);
        },
      ),
      options,
    );
  });

  it("the check can fail: taking a restricting layer away widens", () => {
    const strict = {
      ref: { kind: "policy" as const, id: "s", name: null },
      settings: { allowedModels: ["m1"], limitUsd: 5, resetInterval: "daily" },
    };
    expect(widenings(combined([strict]), combined([]))).toEqual([
      "allowed models: no longer restricted (was 1 allowed)",
      "budget 5 daily (policy s): no longer capped so",
    ]);
  });
});

const SUBJECTS = ["user_a", "user_b"];
const KEYS = ["k1", "k2"];
const policyFacts = fc
  .record({
    kind: fc.constantFrom(...POLICY_KINDS),
    members: fc.subarray(SUBJECTS),
    keys: fc.subarray(KEYS),
    isDefault: fc.boolean(),
    outMembers: fc.subarray(SUBJECTS),
    outKeys: fc.subarray(KEYS),
  })
  .chain((p) => settingsOf(p.kind).map((settings) => ({ ...p, settings })));
const wwFacts = fc
  .record({
    kind: fc.constantFrom(...POLICY_KINDS),
    ws: fc.subarray([WS, OTHER_WS]),
    out: fc.subarray([WS]),
    isDefault: fc.boolean(),
  })
  .chain((p) => settingsOf(p.kind).map((settings) => ({ ...p, settings })));
const someGuardrail = (id: string) =>
  fc.option(
    guardrailSettings.map((s) => guardrail(id, s)),
    { nil: null },
  );

const factsArb: fc.Arbitrary<AccessFacts> = fc
  .record({
    isKey: fc.boolean(),
    dflt: someGuardrail("dflt"),
    gm: someGuardrail("gm"),
    gk: someGuardrail("gk"),
    policies: fc.array(policyFacts, { maxLength: 6 }),
    ww: fc.array(wwFacts, { maxLength: 3 }),
  })
  .map((f) =>
    (f.isKey ? keyFacts : facts)({
      workspaceDefault: f.dflt,
      memberGuardrail: f.gm,
      keyGuardrail: f.isKey ? f.gk : null,
      modelAliases: ALIASES,
      policies: f.policies.map((p, i) =>
        policy(`p${i}`, p.kind, p.settings, {
          memberIds: p.members,
          keyHashes: p.keys,
          isWorkspaceDefault: p.isDefault,
          optedOutMemberIds: p.outMembers,
          optedOutKeyHashes: p.outKeys,
        }),
      ),
      workspaceWide: f.ww.map((p, i) =>
        workspaceWide(`w${i}`, p.kind, p.settings, {
          workspaceIds: p.ws,
          optedOutWorkspaceIds: p.out,
          isDefault: p.isDefault,
        }),
      ),
    }),
  );

/** One change to the facts that adds a layer or tightens one, never one that replaces a layer. */
function change(f: AccessFacts, op: number, n: number): AccessFacts {
  const t = (s: Parameters<typeof tighten>[0]) => tighten(s, op >> 3, n, false);
  const guard = (g: AccessFacts["memberGuardrail"]) => (g ? { ...g, settings: t(g.settings) } : g);
  const i = f.policies.length ? n % f.policies.length : -1;
  const j = f.workspaceWide.length ? n % f.workspaceWide.length : -1;
  switch (op % 7) {
    case 0:
      return { ...f, workspaceDefault: guard(f.workspaceDefault) };
    case 1:
      return { ...f, memberGuardrail: guard(f.memberGuardrail), keyGuardrail: guard(f.keyGuardrail) };
    case 2:
      return { ...f, policies: f.policies.map((p, k) => (k === i ? { ...p, settings: t(p.settings) } : p)) };
    case 3:
      return { ...f, workspaceWide: f.workspaceWide.map((p, k) => (k === j ? { ...p, settings: t(p.settings) } : p)) };
    case 4:
      return {
        ...f,
        workspaceWide: [...f.workspaceWide, workspaceWide("added", "modelAvailability", { allowedModels: ["m1"] })],
      };
    case 5:
      return { ...f, policies: f.policies.map((p) => ({ ...p, optedOutMemberIds: [], optedOutKeyHashes: [] })) };
    default:
      return { ...f, workspaceWide: f.workspaceWide.map((p) => ({ ...p, optedOutWorkspaceIds: [] })) };
  }
}

describe("facts: tightening or adding never widens", () => {
  it("tightening any guardrail or policy within its kinds, adding a workspace-wide policy, taking back an opt-out", () => {
    fc.assert(
      fc.property(factsArb, fc.nat(), fc.nat(), (f, op, n) => {
        expect(widenings(effectiveAccess(f), effectiveAccess(change(f, op, n)))).toEqual([]);
      }),
      options,
    );
  });

  it("by the service's rules, a direct policy takes its subject off a stricter workspace default of its kind", () => {
    const dflt = policy("d", "modelAvailability", { allowedModels: ["m1"] }, { isWorkspaceDefault: true });
    const mine = policy("mine", "modelAvailability", { allowedModels: ["m1", "m2"] }, { memberIds: ["user_a"] });
    expect(
      widenings(effectiveAccess(facts({ policies: [dflt] })), effectiveAccess(facts({ policies: [dflt, mine] }))),
    ).toEqual(["allowed models: m2 now allowed"]);
  });

  it("by the service's rules, a guardrail that starts to set a kind takes its members off the default policy of it", () => {
    const dflt = policy("d", "budget", { limitUsd: 5, resetInterval: "daily" }, { isWorkspaceDefault: true });
    const before = facts({ memberGuardrail: guardrail("g", { allowedModels: ["m1"] }), policies: [dflt] });
    const after = facts({
      memberGuardrail: guardrail("g", { allowedModels: ["m1"], limitUsd: 50, resetInterval: "daily" }),
      policies: [dflt],
    });
    expect(widenings(effectiveAccess(before), effectiveAccess(after))).toEqual([
      "budget 5 daily (workspace-default-policy d): no longer capped so",
    ]);
  });
});
