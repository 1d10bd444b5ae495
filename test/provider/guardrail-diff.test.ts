/**
 * The Guardrail's diff and update see every change the program makes and nothing else:
 * the default workspace named or omitted, model identifiers of any catalogue, a changed
 * adoptId, UUIDs in either case, and unknowns during preview. Against the emulator.
 */
import { describe, expect, it } from "vitest";
import { guardrail } from "../../src/dynamic/internal";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { collect } from "../../src/core/client";
import { UNKNOWN } from "../../src/core/markers";
import { DEFAULT_WS, useProviderEmulator, W2 } from "../helpers/emulator";

const X = "vendor-a/model-x";
const X_C = "vendor-a/model-x-20260115";
const MINI = "vendor-a/model-x-mini";
const MINI_C = "vendor-a/model-x-mini-20260115";

const emu = useProviderEmulator();
const raw = () => emu.client();

async function created(args: Record<string, unknown>) {
  const res = await guardrail.create({ __provider: "serialized", ...args });
  return { id: res.id, outs: res.outs as GuardrailOutputs };
}

describe("workspace: omitted and the default workspace's id are one value", () => {
  it("finding 1: dropping an explicit default workspaceId from an adopted guardrail is no change, so nothing is deleted", async () => {
    const g = await raw().createGuardrail({ name: "adopted-default" });
    const { id, outs } = await created({ name: "adopted-default", adoptId: g.id, workspaceId: DEFAULT_WS });
    expect(await guardrail.diff(id, outs, { name: "adopted-default", adoptId: g.id })).toMatchObject({
      changes: false,
      replaces: [],
    });
    const read = await guardrail.read(id, outs);
    expect(
      await guardrail.diff(id, read.props as GuardrailOutputs, { name: "adopted-default", adoptId: g.id }),
    ).toMatchObject({ changes: false, replaces: [] });
  });

  it("finding 1 without adoptId: dropping it keeps the guardrail; adding it back is no change either", async () => {
    const { id, outs } = await created({ name: "explicit-default", workspaceId: DEFAULT_WS });
    expect(await guardrail.diff(id, outs, { name: "explicit-default" })).toMatchObject({
      changes: false,
      replaces: [],
    });
    const plain = await created({ name: "implicit-default" });
    expect(
      await guardrail.diff(plain.id, plain.outs, { name: "implicit-default", workspaceId: DEFAULT_WS }),
    ).toMatchObject({ changes: false, replaces: [] });
  });

  it("state without a recorded default (an explicit workspace at create) asks the service which workspace is the default", async () => {
    const { id, outs } = await created({ name: "learn-default", workspaceId: DEFAULT_WS });
    const { defaultWorkspaceId: _drop, ...older } = outs as GuardrailOutputs & { defaultWorkspaceId?: string };
    expect(await guardrail.diff(id, older as GuardrailOutputs, { name: "learn-default" })).toMatchObject({
      changes: false,
      replaces: [],
    });
    const moved = await created({ name: "in-w2", workspaceId: W2 });
    expect(await guardrail.diff(moved.id, moved.outs, { name: "in-w2" })).toMatchObject({
      changes: true,
      replaces: ["workspaceId"],
    });
  });

  it("with another input unknown, omitting an explicit default workspace previews as an update, as up then does", async () => {
    const { id, outs } = await created({ name: "unknowns", workspaceId: DEFAULT_WS });
    expect(await guardrail.diff(id, outs, { name: "unknowns", description: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: [],
    });
    const w2 = await created({ name: "unknowns-w2", workspaceId: W2 });
    expect(await guardrail.diff(w2.id, w2.outs, { name: "unknowns-w2", description: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: ["workspaceId"],
    });
  });

  it("a replacement never re-adopts the guardrail it would then delete", async () => {
    const g = await raw().createGuardrail({ name: "no-self-replace" });
    const { id, outs } = await created({ name: "no-self-replace", adoptId: g.id });
    await expect(guardrail.diff(id, outs, { name: "no-self-replace", adoptId: g.id, workspaceId: W2 })).rejects.toThrow(
      new RegExp(`adoptId ${g.id} is in workspace ${DEFAULT_WS}, but workspaceId says ${W2}`),
    );
  });
});

describe("model identifiers: no guessing", () => {
  it("finding 2: ignoredModels [model-x-mini] -> [model-x] is a change, and the service ends up ignoring model-x", async () => {
    const a = { name: "aliases", allowedModels: [X_C, X, MINI], ignoredModels: [MINI] };
    const { id, outs } = await created(a);
    const b = { ...a, ignoredModels: [X] };
    expect(await guardrail.diff(id, outs, b)).toMatchObject({ changes: true, replaces: [] });
    const updated = (await guardrail.update(id, outs, b)).outs as GuardrailOutputs;
    expect((await raw().getGuardrail(id)).ignored_models).toEqual([X_C]);
    expect(await guardrail.diff(id, updated, b)).toMatchObject({ changes: false });
  });

  it("a slug and its canonical slug in one list: a second run is a no-op, and the read does not invent drift", async () => {
    const args = { name: "both-forms", allowedModels: [MINI, X, X_C, MINI_C, X] };
    const { id, outs } = await created(args);
    expect(outs.allowedModelsCanonical).toEqual([MINI_C, X_C]);
    expect(await guardrail.diff(id, outs, args)).toMatchObject({ changes: false });
    const read = await guardrail.read(id, outs);
    expect(await guardrail.diff(id, read.props as GuardrailOutputs, args)).toMatchObject({ changes: false });
    expect(await guardrail.diff(id, outs, { ...args, allowedModels: [X_C, MINI, X, MINI_C] })).toMatchObject({
      changes: false,
    });
    // Exactly the answer's canonical slugs: known to be what the service holds.
    expect(await guardrail.diff(id, outs, { ...args, allowedModels: [X_C, MINI_C] })).toMatchObject({ changes: false });
    // Another identifier set: which models it names is the service's to say, so it is sent.
    const other = { ...args, allowedModels: [X, MINI] };
    expect(await guardrail.diff(id, outs, other)).toMatchObject({ changes: true });
    const settled = (await guardrail.update(id, outs, other)).outs as GuardrailOutputs;
    expect(await guardrail.diff(id, settled, other)).toMatchObject({ changes: false });
  });

  it("a canonical slug PATCHed by hand to another model is drift, found by read and repaired", async () => {
    const args = { name: "model-drift", allowedModels: [X] };
    const { id, outs } = await created(args);
    await raw().updateGuardrail(id, { allowed_models: [MINI] });
    const read = await guardrail.read(id, outs);
    expect(await guardrail.diff(id, read.props as GuardrailOutputs, args)).toMatchObject({ changes: true });
    const fixed = (await guardrail.update(id, read.props as GuardrailOutputs, args)).outs as GuardrailOutputs;
    expect((await raw().getGuardrail(id)).allowed_models).toEqual([X_C]);
    expect(await guardrail.diff(id, fixed, args)).toMatchObject({ changes: false });
  });
});

describe("adoption", () => {
  it("finding 4: a changed adoptId is never ignored: the preview fails naming both guardrails, and nothing is written", async () => {
    const g1 = await raw().createGuardrail({ name: "first" });
    const g2 = await raw().createGuardrail({ name: "second" });
    const { id, outs } = await created({ name: "first", adoptId: g1.id });
    const err = await guardrail.diff(id, outs, { name: "first", adoptId: g2.id }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(`adoptId changed from ${g1.id} to ${g2.id}`);
    await expect(guardrail.diff(id, outs, { name: "renamed", adoptId: g2.id })).rejects.toThrow(/adoptId changed/);
    await expect(guardrail.diff(id, outs, { name: "first", adoptId: g2.id, description: UNKNOWN })).rejects.toThrow(
      /adoptId changed/,
    );
    await expect(guardrail.update(id, outs, { name: "renamed", adoptId: g2.id })).rejects.toThrow(/adoptId changed/);
    expect((await raw().getGuardrail(g1.id)).name).toBe("first");
    expect((await raw().getGuardrail(g2.id)).name).toBe("second");
  });

  it("dropping adoptId after adoption, or naming the managed id, is no change", async () => {
    const g = await raw().createGuardrail({ name: "kept" });
    const { id, outs } = await created({ name: "kept", adoptId: g.id });
    expect(await guardrail.diff(id, outs, { name: "kept" })).toMatchObject({ changes: false });
    const plain = await created({ name: "plain" });
    expect(await guardrail.diff(plain.id, plain.outs, { name: "plain", adoptId: plain.id })).toMatchObject({
      changes: false,
    });
  });

  it("UUIDs compare case-insensitively: an upper-case adoptId or workspaceId plans no change and is sent in lower case", async () => {
    const g = await raw().createGuardrail({ name: "upper" });
    const { id, outs } = await created({
      name: "upper",
      adoptId: g.id.toUpperCase(),
      workspaceId: DEFAULT_WS.toUpperCase(),
    });
    expect(id).toBe(g.id);
    expect(await guardrail.diff(id, outs, { name: "upper", adoptId: g.id })).toMatchObject({
      changes: false,
      replaces: [],
    });
    const ws = await created({ name: "upper-ws", workspaceId: W2.toUpperCase() });
    expect(ws.outs.workspaceId).toBe(W2);
    expect(await guardrail.diff(ws.id, ws.outs, { name: "upper-ws", workspaceId: W2 })).toMatchObject({
      changes: false,
      replaces: [],
    });
    expect(await guardrail.diff(ws.id, ws.outs, { name: "upper-ws", workspaceId: W2.toUpperCase() })).toMatchObject({
      changes: false,
      replaces: [],
    });
  });
});

describe("model identifiers: a catalogue whose slugs are not prefixes of their canonical slugs", () => {
  const NON_PREFIX = [
    { slug: "v/alpha", canonical_slug: "v/one-1" },
    { slug: "v/beta", canonical_slug: "v/two-1" },
    { slug: "v/al", canonical_slug: "v/alpha-x" },
  ];
  const other = useProviderEmulator({ "guardrails:maxAttempts": "6" }, { options: { models: NON_PREFIX } });

  it("finding 2: an ambiguous create whose lists fooled the prefix guess is found, never duplicated", async () => {
    const args = { name: "lost-create", allowedModels: ["v/alpha", "v/two-1", "v/beta"], ignoredModels: ["v/al"] };
    await other.setFaults({ dropAfterApplyRate: 1 });
    try {
      await guardrail.create({ __provider: "p", ...args });
    } finally {
      await other.setFaults({ dropAfterApplyRate: 0 });
    }
    expect((await collect(other.client().listGuardrails())).filter((g) => g.name === "lost-create")).toHaveLength(1);
  });

  it("every list settles: the second diff is a no-op and an edit of one identifier is a change", async () => {
    const args = { name: "settles", allowedModels: ["v/al", "v/alpha"], ignoredModels: ["v/beta", "v/two-1"] };
    const res = await guardrail.create({ __provider: "p", ...args });
    const outs = res.outs as GuardrailOutputs;
    expect(outs.allowedModelsCanonical).toEqual(["v/alpha-x", "v/one-1"]);
    expect(await guardrail.diff(res.id, outs, args)).toMatchObject({ changes: false });
    const read = await guardrail.read(res.id, outs);
    expect(await guardrail.diff(res.id, read.props as GuardrailOutputs, args)).toMatchObject({ changes: false });
    expect(await guardrail.diff(res.id, outs, { ...args, allowedModels: ["v/al"] })).toMatchObject({ changes: true });
  });
});
