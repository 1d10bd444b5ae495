/**
 * The Guardrail's provider methods against the emulator over real HTTP: create, read,
 * update of each field, delete, replacement, drift, ambiguous create.
 */
import { describe, expect, it } from "vitest";
import { resetConfiguration } from "../../src/core/settings/config";
import { guardrail } from "../../src/dynamic/internal";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { collect } from "../../src/core/client";
import { reshapeGuardrail, TEST_KEY, useProviderEmulator, W2 } from "../helpers/emulator";
import { FILTERS } from "../helpers/wire-fields";

const emu = useProviderEmulator({ "guardrails:maxAttempts": "6" }, { resetFaults: true });
const raw = () => emu.client();

const full = {
  name: "Engineering",
  description: "eng policy",
  allowedModels: ["vendor-a/model-x", "vendor-b/model-m"],
  allowedProviders: ["prov-1", "prov-2"],
  ignoredModels: ["other-lab/open-model-8b"],
  ignoredProviders: ["prov-9"],
  limitUsd: 250.5,
  resetInterval: "monthly",
  enforceZdr: true,
  enforceZdrOther: false,
  ...FILTERS,
};

async function created(args: Record<string, unknown>) {
  const res = await guardrail.create({ __provider: "serialized", ...args });
  return { id: res.id, outs: res.outs as GuardrailOutputs };
}

describe("Guardrail lifecycle", () => {
  it("create, read, update of each field, delete", async () => {
    const { id, outs } = await created(full);
    expect(outs).toMatchObject({
      name: "Engineering",
      workspaceId: "00000000-0000-4000-8000-000000000001",
      // The program's identifiers are echoed; the service's canonical slugs have their own output.
      allowedModels: full.allowedModels,
      allowedModelsCanonical: ["vendor-a/model-x-20260115", "vendor-b/model-m-20260201"],
      enforceZdrVendorA: true,
      enforceZdrVendorB: true,
      enforceZdrVendorC: true,
      enforceZdrOther: false,
      enforceZdr: true,
      contentFilterBuiltins: [
        { slug: "email", action: "redact", label: "[EMAIL]" },
        { slug: "regex-prompt-injection", action: "flag", scanScope: "user_only", label: "[PROMPT_INJECTION]" },
      ],
      updatedAt: null,
    });
    const read = await guardrail.read(id, outs);
    expect(read.id).toBe(id);
    expect(await guardrail.diff(id, read.props as GuardrailOutputs, { ...full })).toMatchObject({ changes: false });

    const edits: Array<[string, unknown, (g: any) => unknown, unknown]> = [
      ["name", "Eng 2", (g) => g.name, "Eng 2"],
      ["description", "new text", (g) => g.description, "new text"],
      ["allowedModels", ["vendor-c/model-q"], (g) => g.allowed_models, ["vendor-c/model-q-20251111"]],
      ["allowedProviders", ["prov-3"], (g) => g.allowed_providers, ["prov-3"]],
      ["ignoredModels", ["vendor-a/model-y"], (g) => g.ignored_models, ["vendor-a/model-y-20251020"]],
      ["ignoredProviders", ["prov-8", "prov-7"], (g) => g.ignored_providers, ["prov-8", "prov-7"]],
      ["limitUsd", 0, (g) => g.limit_usd, 0],
      ["resetInterval", "daily", (g) => g.reset_interval, "daily"],
      ["enforceZdrVendorA", false, (g) => g.enforce_zdr_vendor_a, false],
      ["enforceZdrVendorB", false, (g) => g.enforce_zdr_vendor_b, false],
      ["enforceZdrVendorC", false, (g) => g.enforce_zdr_vendor_c, false],
      ["enforceZdrOther", true, (g) => g.enforce_zdr_other, true],
      ["enforceZdr", false, (g) => g.enforce_zdr, false],
      [
        "contentFilterBuiltins",
        [{ slug: "ssn", action: "block" }],
        (g) => g.content_filter_builtins,
        [{ slug: "ssn", action: "block", label: "[SSN]" }],
      ],
      [
        "contentFilters",
        [{ pattern: "x+", action: "flag" }],
        (g) => g.content_filters,
        [{ pattern: "x+", action: "flag" }],
      ],
    ];
    let args: Record<string, unknown> = { ...full };
    let olds = outs;
    for (const [prop, value, pick, expected] of edits) {
      args = { ...args, [prop]: value };
      const d = await guardrail.diff(id, olds, args);
      expect(d, prop).toMatchObject({ changes: true, replaces: [] });
      await emu.clearLog();
      olds = (await guardrail.update(id, olds, args)).outs as GuardrailOutputs;
      const log = await emu.log();
      expect(log.counts, prop).toEqual({ updateGuardrail: 1 });
      expect(pick(await raw().getGuardrail(id)), prop).toEqual(expected);
      expect(await guardrail.diff(id, olds, args), prop).toMatchObject({ changes: false });
    }

    // Removing a property from the program clears it (null) on the service.
    const { description: _d, limitUsd: _l, resetInterval: _r, contentFilters: _c, ...fewer } = args;
    olds = (await guardrail.update(id, olds, fewer)).outs as GuardrailOutputs;
    const live = await raw().getGuardrail(id);
    expect([live.description, live.limit_usd, live.reset_interval, live.content_filters]).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(await guardrail.diff(id, olds, fewer)).toMatchObject({ changes: false });

    await guardrail.delete(id, olds);
    expect(await guardrail.read(id, olds)).toEqual({});
    await expect(guardrail.delete(id, olds)).resolves.toBeUndefined();
  });

  it("a PATCH holds only what changed", async () => {
    const { id, outs } = await created(full);
    const before = emu.internals.log.entries.length;
    await guardrail.update(id, outs, { ...full, limitUsd: 1 });
    const patches = emu.internals.log.entries.slice(before).filter((e) => e.method === "PATCH");
    expect(patches.map((e) => e.body)).toEqual([{ limit_usd: 1 }]);
    const state = await raw().getGuardrail(id);
    expect(state.limit_usd).toBe(1);
    expect(state.description).toBe("eng policy");
  });

  it("workspaceId forces replacement; creating anew lands in the new workspace", async () => {
    const { id, outs } = await created({ name: "moving" });
    expect(await guardrail.diff(id, outs, { name: "moving", workspaceId: W2 })).toEqual({
      changes: true,
      replaces: ["workspaceId"],
      deleteBeforeReplace: false,
    });
    expect(await guardrail.diff(id, outs, { name: "moving", workspaceId: outs.workspaceId })).toMatchObject({
      changes: false,
      replaces: [],
    });
    const replacement = await created({ name: "moving", workspaceId: W2 });
    expect(replacement.outs.workspaceId).toBe(W2);
    expect(await guardrail.diff(replacement.id, replacement.outs, { name: "moving" })).toMatchObject({
      replaces: ["workspaceId"],
    });
  });

  it("an out-of-band PATCH is reported by read and undone by the next update", async () => {
    const { id, outs } = await created(full);
    await raw().updateGuardrail(id, { limit_usd: 5, allowed_providers: ["rogue"] });
    const read = await guardrail.read(id, outs);
    const props = read.props as GuardrailOutputs;
    expect([props.limitUsd, props.allowedProviders]).toEqual([5, ["rogue"]]);
    expect(read.inputs).toMatchObject({
      limitUsd: 5,
      allowedProviders: ["rogue"],
      allowedModels: full.allowedModels,
      enforceZdr: true,
    });
    expect(read.inputs).not.toHaveProperty("enforceZdrVendorA");
    expect(await guardrail.diff(id, props, full)).toMatchObject({ changes: true });
    const fixed = (await guardrail.update(id, props, full)).outs as GuardrailOutputs;
    expect((await raw().getGuardrail(id)).limit_usd).toBe(250.5);
    expect(await guardrail.diff(id, fixed, full)).toMatchObject({ changes: false });
  });

  it("an out-of-band DELETE is reported by read as gone", async () => {
    const { id, outs } = await created({ name: "doomed" });
    await raw().deleteGuardrail(id);
    expect(await guardrail.read(id, outs)).toEqual({});
    await expect(guardrail.update(id, outs, { name: "doomed", limitUsd: 3, resetInterval: "daily" })).rejects.toThrow(
      /no longer exists on the service; run `pulumi refresh`/,
    );
  });

  it("an ambiguous create under drop-after-apply leaves exactly one guardrail", async () => {
    await emu.setFaults({ dropAfterApplyRate: 1 });
    await emu.clearLog();
    const { id, outs } = await created({ name: "exactly-once", limitUsd: 7, resetInterval: "daily" });
    await emu.setFaults({ dropAfterApplyRate: 0 });
    const all = (await collect(raw().listGuardrails())).filter((g) => g.name === "exactly-once");
    expect(all.map((g) => g.id)).toEqual([id]);
    expect(outs.limitUsd).toBe(7);
    expect((await emu.log()).counts.createGuardrail).toBe(1);
  });

  it("a create answered 5xx (not applied) is made again after checking nothing landed", async () => {
    await emu.setFaults({ errorRate: 0.5, seed: 11 });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await created({ name: `flaky-${i}` }));
    await emu.setFaults({ errorRate: 0 });
    for (let i = 0; i < 4; i++)
      expect((await collect(raw().listGuardrails())).filter((g) => g.name === `flaky-${i}`)).toHaveLength(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(4);
  });

  it("adoptId brings an existing guardrail under management without recreating it", async () => {
    const existing = await raw().createGuardrail({
      name: "legacy",
      limit_usd: 1,
      reset_interval: "daily",
      allowed_models: ["vendor-a/model-x"],
    });
    await emu.clearLog();
    const res = await created({
      name: "legacy",
      limitUsd: 2,
      resetInterval: "daily",
      allowedModels: ["vendor-a/model-x"],
      adoptId: existing.id,
    });
    expect(res.id).toBe(existing.id);
    // One list call: an omitted workspaceId means the default workspace, so adoption checks it.
    expect((await emu.log()).counts).toEqual({ getGuardrail: 1, listGuardrails: 1, updateGuardrail: 1 });
    expect((await raw().getGuardrail(existing.id)).limit_usd).toBe(2);
    await expect(created({ name: "x", adoptId: "00000000-0000-4000-8000-0000000000ff" })).rejects.toThrow(
      /adoptId 00000000-0000-4000-8000-0000000000ff names no guardrail/,
    );
  });

  it("adoptId of a guardrail older than workspaces (workspace_id null): adopted when workspaceId is omitted, refused with the way out when it is given", async () => {
    const existing = await raw().createGuardrail({ name: "pre-workspace", limit_usd: 1, reset_interval: "daily" });
    await reshapeGuardrail(emu.url, existing.id, { set: { workspace_id: null } });
    await expect(
      created({ name: "pre-workspace", limitUsd: 1, resetInterval: "daily", workspaceId: W2, adoptId: existing.id }),
    ).rejects.toThrow(
      `guardrail "pre-workspace": adoptId ${existing.id} has no workspace (it is older than workspaces; the service lists it with the default workspace), but workspaceId says ${W2}; omit workspaceId to adopt it`,
    );
    const res = await created({ name: "pre-workspace", limitUsd: 3, resetInterval: "daily", adoptId: existing.id });
    expect(res.id).toBe(existing.id);
    expect((await raw().getGuardrail(existing.id)).limit_usd).toBe(3);
    const read = await guardrail.read(res.id, res.outs);
    expect(
      await guardrail.diff(res.id, read.props as GuardrailOutputs, {
        name: "pre-workspace",
        limitUsd: 3,
        resetInterval: "daily",
        adoptId: existing.id,
      }),
    ).toMatchObject({ changes: false, replaces: [] });
  });

  it("a model the catalogue lacks fails at apply with the service's message in the program's names", async () => {
    const err = await created({ name: "ghost-model", allowedModels: ["vendor-a/model-x", "nobody/none"] }).catch(
      (e) => e,
    );
    expect(err.message).toMatch(
      /^guardrail "ghost-model": POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/guardrails: 400 Bad Request: allowedModels\[1\]: unknown model "nobody\/none"$/,
    );
  });

  it("missing configuration names both ways to set it", async () => {
    resetConfiguration();
    const saved = { k: process.env.GUARDRAILS_API_KEY, u: process.env.GUARDRAILS_BASE_URL };
    delete process.env.GUARDRAILS_API_KEY;
    delete process.env.GUARDRAILS_BASE_URL;
    try {
      await expect(created({ name: "x" })).rejects.toThrowErrorMatchingInlineSnapshot(
        `[UserError: pulumi-guardrails is not configured; set the API key: \`pulumi config set --secret guardrails:apiKey <key>\` or the env var GUARDRAILS_API_KEY, and the service URL: \`pulumi config set guardrails:baseUrl <url>\` or the env var GUARDRAILS_BASE_URL]`,
      );
      process.env.GUARDRAILS_API_KEY = TEST_KEY;
      process.env.GUARDRAILS_BASE_URL = emu.url;
      expect((await created({ name: "from-env" })).outs.name).toBe("from-env");
    } finally {
      process.env.GUARDRAILS_API_KEY = saved.k;
      process.env.GUARDRAILS_BASE_URL = saved.u;
      if (saved.k === undefined) delete process.env.GUARDRAILS_API_KEY;
      if (saved.u === undefined) delete process.env.GUARDRAILS_BASE_URL;
    }
  });
});

describe("no perpetual diff", () => {
  it("non-canonical slugs and shuffled, duplicated lists diff clean against the outputs they produced", async () => {
    const args = {
      name: "canon",
      allowedModels: ["vendor-b/model-m", "vendor-a/model-x", "vendor-a/model-x-20260115", "vendor-b/model-m"],
      ignoredModels: ["other-lab/open-model-8b", "other-lab/open-model-8b"],
      allowedProviders: ["p2", "p1", "p2"],
      contentFilterBuiltins: [
        { slug: "ssn", action: "block" },
        { slug: "regex-prompt-injection", action: "flag" },
      ],
    };
    const { id, outs } = await created(args);
    expect(outs.allowedModelsCanonical).toEqual(["vendor-b/model-m-20260201", "vendor-a/model-x-20260115"]);
    expect(await guardrail.diff(id, outs, args)).toMatchObject({ changes: false });
    const shuffled = {
      ...args,
      allowedModels: ["vendor-a/model-x-20260115", "vendor-b/model-m", "vendor-a/model-x"],
      allowedProviders: ["p1", "p2"],
      contentFilterBuiltins: [...args.contentFilterBuiltins].reverse(),
    };
    expect(await guardrail.diff(id, outs, shuffled)).toMatchObject({ changes: false });
    const read = await guardrail.read(id, outs);
    expect(await guardrail.diff(id, read.props as GuardrailOutputs, args)).toMatchObject({ changes: false });
    expect(await guardrail.diff(id, outs, { ...args, allowedModels: ["vendor-a/model-x"] })).toMatchObject({
      changes: true,
    });
  });
});
