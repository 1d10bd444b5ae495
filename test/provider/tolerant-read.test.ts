/**
 * Strict writer, tolerant reader (docs/api-contract.md rules 10-12): every guardrail shape the
 * service's SDK calls legal is read by the client and by the provider's `read` without error,
 * kept as it is, and shown as drift where the program says otherwise; the next update sets it
 * back. A list page with one odd row keeps every row. A 409 on update is a ConflictError.
 */
import { describe, expect, it } from "vitest";
import { collect, ConflictError } from "../../src/core/client";
import { guardrail } from "../../src/dynamic/internal";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { reshapeGuardrail, useProviderEmulator, type GuardrailReshape } from "../helpers/emulator";
import { MODEL_LISTS } from "../helpers/wire-fields";

const emu = useProviderEmulator();

const program = {
  name: "tolerant",
  description: "d",
  allowedModels: ["vendor-a/model-x"],
  allowedProviders: ["p1"],
  limitUsd: 5,
  resetInterval: "daily",
  enforceZdr: true,
  contentFilterBuiltins: [{ slug: "email", action: "redact" }],
  contentFilters: [{ pattern: "a+", action: "block" }],
};

/** Keys of a guardrail response the SDK marks optional: every one but id, name, created_at. */
const OPTIONAL_KEYS = [
  "workspace_id",
  "updated_at",
  "description",
  ...MODEL_LISTS,
  "limit_usd",
  "reset_interval",
  "enforce_zdr",
  "enforce_zdr_vendor_a",
  "enforce_zdr_vendor_b",
  "enforce_zdr_vendor_c",
  "enforce_zdr_other",
  "content_filter_builtins",
  "content_filters",
  "include_byok_in_budgets",
  "allowed_data_regions",
  "enable_free_model_publication",
  "enable_free_model_training",
  "enable_paid_model_training",
];

const SHAPES: Array<[string, GuardrailReshape]> = [
  ...OPTIONAL_KEYS.map((k): [string, GuardrailReshape] => [`${k} absent`, { remove: [k] }]),
  ["a null workspace", { set: { workspace_id: null } }],
  [
    "the secrets slug and an unknown one",
    {
      set: {
        content_filter_builtins: [
          { slug: "secrets", action: "block", label: "[SECRETS]" },
          { slug: "passport-no", action: "redact" },
        ],
      },
    },
  ],
  ["flag on a PII slug", { set: { content_filter_builtins: [{ slug: "email", action: "flag", label: "[EMAIL]" }] } }],
  [
    "a new reset interval and scan scope",
    {
      set: {
        reset_interval: "hourly",
        content_filter_builtins: [{ slug: "regex-prompt-injection", action: "flag", scan_scope: "tool_calls" }],
      },
    },
  ],
  ["extra fields", { set: { enforce_zdr_vendor_z: true, new_policy: { nested: [1, 2] } } }],
];

describe("each SDK-legal shape", () => {
  it.each(SHAPES)(
    "%s: the client and read accept it, the preview sees drift, update restores the program",
    async (_name, change) => {
      const created = await guardrail.create({ __provider: "p", ...program });
      const outs = created.outs as GuardrailOutputs;
      await reshapeGuardrail(emu.url, created.id, change);

      const g = await emu.client().getGuardrail(created.id);
      expect(g.id).toBe(created.id);
      for (const k of change.remove ?? []) expect(g[k as keyof typeof g], k).toBeNull();
      const listed = await collect(emu.client().listGuardrails(g.workspace_id ? { workspaceId: g.workspace_id } : {}));
      if (g.workspace_id) expect(listed.map((x) => x.id)).toContain(created.id);

      const read = await guardrail.read(created.id, outs);
      expect(read.id).toBe(created.id);
      const props = read.props as GuardrailOutputs;
      const driftless =
        change.set &&
        Object.keys(change.set).every((k) => k.startsWith("new_") || k.startsWith("enforce_zdr_vendor_z"));
      const absentIsDefault = (change.remove ?? []).every((k) =>
        [
          "updated_at",
          "ignored_models",
          "ignored_providers",
          "workspace_id",
          "allowed_data_regions",
          "include_byok_in_budgets",
          "enable_free_model_publication",
          "enable_free_model_training",
          "enable_paid_model_training",
        ].includes(k),
      );
      const expectChange = !(driftless || (change.remove && absentIsDefault));
      if (props.workspaceId === null) {
        // Older than workspaces: never a reason to replace (that would delete it); the settings still match.
        expect(await guardrail.diff(created.id, props, program)).toMatchObject({ changes: false, replaces: [] });
        expect(
          await guardrail.diff(created.id, props, { ...program, workspaceId: "00000000-0000-4000-8000-000000000002" }),
        ).toMatchObject({ replaces: [] });
        return;
      }
      expect((await guardrail.diff(created.id, props, program)).changes).toBe(expectChange);
      if (!expectChange) return;
      await guardrail.update(created.id, props, program);
      const after = await guardrail.read(created.id, props);
      expect(await guardrail.diff(created.id, after.props as GuardrailOutputs, program)).toMatchObject({
        changes: false,
      });
    },
  );
});

describe("lists and conflicts", () => {
  it("a list page with one odd row keeps every row", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await guardrail.create({ __provider: "p", name: `row-${i}` })).id);
    await reshapeGuardrail(emu.url, ids[1]!, {
      set: {
        reset_interval: "fortnightly",
        content_filter_builtins: [{ slug: "secrets", action: "flag" }],
        extra: true,
      },
      remove: ["description"],
    });
    const listed = await collect(emu.client({ pageSize: 2 }).listGuardrails());
    expect(ids.every((id) => listed.some((g) => g.id === id))).toBe(true);
    expect(listed.find((g) => g.id === ids[1])).toMatchObject({ reset_interval: "fortnightly", description: null });
  });

  it("a 409 on update is a ConflictError that names what to do", async () => {
    const created = await guardrail.create({ __provider: "p", name: "conflicted" });
    await emu.setFaults({ updateConflicts: 1 });
    const err = await emu
      .client()
      .updateGuardrail(created.id, { description: "x" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).status).toBe(409);
    expect((err as Error).message).toMatch(/409 Conflict .*pulumi refresh/);
  });
});
