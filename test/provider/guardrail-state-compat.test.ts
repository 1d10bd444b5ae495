/**
 * State written by the previous version keeps working: its outputs hold the guessed alias
 * map `modelAliases` and neither `modelAnswers` nor `defaultWorkspaceId`. Refresh, a no-op
 * up, a real change and destroy all work on it, against the emulator.
 */
import { describe, expect, it } from "vitest";
import { guardrail } from "../../src/dynamic/internal";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { DEFAULT_WS, useProviderEmulator } from "../helpers/emulator";

const X = "vendor-a/model-x";
const X_C = "vendor-a/model-x-20260115";
const M = "vendor-b/model-m";
const M_C = "vendor-b/model-m-20260201";
const Q_C = "vendor-c/model-q-20251111";

const emu = useProviderEmulator();

/**
 * The outputs the previous version wrote for the same guardrail: the same fields, plus
 * `modelAliases` (each identifier the program sent -> its canonical slug, and each canonical
 * slug -> itself), without the fields this version added.
 */
function asPreviousVersion(outs: GuardrailOutputs, aliases: Record<string, string>): Record<string, unknown> {
  // That version held the canonical slugs in the model lists themselves (no *Canonical outputs).
  const { modelAnswers: _a, defaultWorkspaceId: _d, allowedModelsCanonical, ignoredModelsCanonical, ...rest } = outs;
  return {
    ...rest,
    allowedModels: allowedModelsCanonical,
    ignoredModels: ignoredModelsCanonical,
    modelAliases: aliases,
  };
}

async function previous(args: Record<string, unknown>, aliases: Record<string, string>) {
  const res = await guardrail.create({ __provider: "p", ...args });
  return { id: res.id, olds: asPreviousVersion(res.outs as GuardrailOutputs, aliases) as unknown as GuardrailOutputs };
}

describe("state from the previous version", () => {
  const args = { name: "old-state", allowedModels: [M, X], ignoredModels: [Q_C], limitUsd: 3, resetInterval: "daily" };
  const aliases = { [M]: M_C, [X]: X_C, [M_C]: M_C, [X_C]: X_C, [Q_C]: Q_C };

  it("refresh, a no-op diff, an update and a delete", async () => {
    const { id, olds } = await previous(args, aliases);
    expect(await guardrail.diff(id, olds, args)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    const read = await guardrail.read(id, olds);
    const refreshed = read.props as GuardrailOutputs;
    expect(refreshed).not.toHaveProperty("modelAliases");
    expect(refreshed.modelAnswers).toEqual({ allowedModels: [M_C, X_C], ignoredModels: [Q_C] });
    expect(read.inputs).toMatchObject({ allowedModels: [M, X], ignoredModels: [Q_C], limitUsd: 3 });
    expect(await guardrail.diff(id, refreshed, args)).toMatchObject({ changes: false });
    await emu.clearLog();
    const changed = { ...args, allowedModels: [X] };
    expect(await guardrail.diff(id, olds, changed)).toMatchObject({ changes: true, replaces: [] });
    const updated = (await guardrail.update(id, olds, changed)).outs as GuardrailOutputs;
    expect((await emu.client().getGuardrail(id)).allowed_models).toEqual([X_C]);
    expect(await guardrail.diff(id, updated, changed)).toMatchObject({ changes: false });
    await guardrail.delete(id, olds);
    expect(await guardrail.read(id, olds)).toEqual({});
  });

  it("drift refreshed by the previous version is still seen", async () => {
    const { id, olds } = await previous(args, aliases);
    await emu.client().updateGuardrail(id, { allowed_models: [Q_C] });
    // What the previous version's read recorded: the live lists, the same alias map.
    const driftedOld = {
      ...(olds as unknown as Record<string, unknown>),
      allowedModels: [Q_C],
    } as unknown as GuardrailOutputs;
    expect(await guardrail.diff(id, driftedOld, args)).toMatchObject({ changes: true });
    await guardrail.update(id, driftedOld, args);
    expect((await emu.client().getGuardrail(id)).allowed_models).toEqual([M_C, X_C]);
  });

  it("an explicit default workspaceId recorded by the previous version can be dropped without a replacement", async () => {
    const withWs = { ...args, workspaceId: DEFAULT_WS };
    const { id, olds } = await previous(withWs, aliases);
    expect(await guardrail.diff(id, olds, args)).toMatchObject({ changes: false, replaces: [] });
    const plain = await previous(args, aliases);
    expect(await guardrail.diff(plain.id, plain.olds, withWs)).toMatchObject({ changes: false, replaces: [] });
  });

  it("state with no recorded args (a read without props) still diffs by the service's canonical slugs", async () => {
    const { id, olds } = await previous(args, aliases);
    const bare = { ...(olds as unknown as Record<string, unknown>), args: null } as unknown as GuardrailOutputs;
    expect(
      await guardrail.diff(id, bare, { ...args, allowedModels: [M_C, X_C], workspaceId: DEFAULT_WS }),
    ).toMatchObject({ changes: false, replaces: [] });
  });
});
