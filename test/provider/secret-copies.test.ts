/**
 * Every copy of a secret arg is a secret in what the provider returns (issue 24, finding 1).
 * The engine re-marks an output secret only where an input of the same name was; the copies
 * under other names (`args`, `modelAnswers`, the canonical lists, the ZDR flags filled from
 * `enforceZdr`, `defaultWorkspaceId`) must come back in Pulumi's secret envelope. Over real
 * HTTP against the emulator; the e2e test test/e2e/secrets.test.ts proves the CLI keeps them.
 */
import { describe, expect, it } from "vitest";
import { guardrail } from "../../src/dynamic/internal";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { DEFAULT_WS, useProviderEmulator } from "../helpers/emulator";

useProviderEmulator();

const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const isEnvelope = (v: unknown) =>
  !!v &&
  typeof v === "object" &&
  (v as Record<string, unknown>)["4dabf18193072939515e22adb298388d"] === SIG["4dabf18193072939515e22adb298388d"];

/** Paths of plain leaves (a secret envelope is not looked into). */
function plainLeaves(value: unknown, path = ""): string[] {
  if (isEnvelope(value) || value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => plainLeaves(v, `${path}[${i}]`));
  if (typeof value === "object")
    return Object.entries(value).flatMap(([k, v]) => plainLeaves(v, path ? `${path}.${k}` : k));
  return [path];
}

const ARGS = {
  name: "Vault",
  description: "SECRET-DESC-7f3a",
  workspaceId: DEFAULT_WS,
  allowedModels: ["vendor-a/model-x"],
  ignoredModels: ["vendor-b/model-m"],
  limitUsd: 4321.987,
  resetInterval: "monthly",
  enforceZdr: true,
  enforceZdrOther: false,
  contentFilters: [{ pattern: "SECRET-RX-[0-9]+", action: "block", label: "SECRET-LABEL" }],
};
const SECRET = [
  "allowedModels",
  "contentFilters",
  "description",
  "enforceZdr",
  "ignoredModels",
  "limitUsd",
  "workspaceId",
];
/** Plain by design: the service's own fields (includeByokInBudgets: the service always holds one; guardrailId and the mapped policies' ids: ids it gave, as plain as the resource id), and the args the program did not make secret. */
const PLAIN = [
  "createdAt",
  "updatedAt",
  "guardrailId",
  "mappedPolicyIds.budget",
  "mappedPolicyIds.modelAvailability",
  "mappedPolicyIds.moderation",
  "__secretArgs",
  "name",
  "args.name",
  "resetInterval",
  "args.resetInterval",
  "enforceZdrOther",
  "args.enforceZdrOther",
  "includeByokInBudgets",
];

const create = async (news: Record<string, unknown>) =>
  guardrail.create({ __provider: "serialized", __resource: "p/s/vault", ...news });
const plainOf = (outs: unknown) =>
  plainLeaves(outs).filter((p) => !PLAIN.some((q) => p === q || p.startsWith(`${q}[`)));

describe("copies of secret args", () => {
  it("create returns every copy of a secret arg as a secret, and records which args were secret", async () => {
    const { outs } = await create({ ...ARGS, __secretArgs: SECRET });
    expect(plainOf(outs)).toEqual([]);
    // The copies under other names, one by one (the names the engine cannot match).
    for (const copy of [
      "allowedModelsCanonical",
      "ignoredModelsCanonical",
      "enforceZdrVendorA",
      "enforceZdrVendorB",
      "enforceZdrVendorC",
      "defaultWorkspaceId",
    ])
      expect(isEnvelope(outs[copy]), copy).toBe(true);
    expect(
      isEnvelope(outs.args.description) &&
        isEnvelope(outs.modelAnswers.allowedModels) &&
        isEnvelope(outs.modelAnswers.ignoredModels),
    ).toBe(true);
    expect(outs.args.name).toBe("Vault");
    expect(outs.__secretArgs).toEqual(SECRET);
    expect(outs.description).toEqual({ ...SIG, value: "SECRET-DESC-7f3a" });
  });

  it("a program without secrets gets its outputs as before: no envelope, nothing recorded", async () => {
    const { outs } = await create(ARGS);
    expect(JSON.stringify(outs)).not.toContain("4dabf18193072939515e22adb298388d");
    expect(outs).not.toHaveProperty("__secretArgs");
    expect(outs.args).toMatchObject({ description: "SECRET-DESC-7f3a" });
  });

  it("check takes __secretArgs as bookkeeping, not as an unknown arg", async () => {
    expect((await guardrail.check({}, { ...ARGS, __secretArgs: SECRET })).failures).toEqual([]);
  });

  it("state written in plain text (an earlier release, or before the program made an arg secret) is rewritten: diff says so, update encrypts", async () => {
    const { id, outs } = await create(ARGS);
    const news = { ...ARGS, __resource: "p/s/vault", __secretArgs: ["description"] };
    expect(await guardrail.diff(id, outs as GuardrailOutputs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = (await guardrail.update(id, outs as GuardrailOutputs, news)).outs as Record<string, any>;
    expect(isEnvelope(updated.args.description)).toBe(true);
    // The engine hands the provider plain values: the recorded names are what diff compares.
    const recorded = {
      ...updated,
      args: { ...updated.args, description: ARGS.description },
      description: ARGS.description,
    } as unknown as GuardrailOutputs;
    expect(await guardrail.diff(id, recorded, news)).toMatchObject({ changes: false });
    // And back: a secret made plain again is written plain.
    expect(await guardrail.diff(id, recorded, { ...ARGS })).toMatchObject({ changes: true });
  });

  it("refresh keeps the copies secret, in the props and the inputs it reports", async () => {
    const { id, outs } = await create({ ...ARGS, __secretArgs: SECRET });
    // What the engine sends back: the same state, envelopes removed.
    const plain = JSON.parse(JSON.stringify(outs, (_k, v) => (isEnvelope(v) ? v.value : v)));
    const read = await guardrail.read(id, plain);
    expect(plainOf(read.props)).toEqual([]);
    expect(plainOf(read.inputs).filter((p) => p !== "__secretArgs")).toEqual([]);
  });

  it("a secret adoptId makes the guardrailId output (the adopted guardrail's id, for the policy pack) a secret too", async () => {
    const { id } = await create(ARGS);
    const adopted = (await create({ ...ARGS, adoptId: id, __secretArgs: [...SECRET, "adoptId"] })).outs as Record<
      string,
      unknown
    >;
    expect(isEnvelope(adopted.guardrailId)).toBe(true);
    expect(adopted.guardrailId).toEqual({ ...SIG, value: id });
  });
});
