/**
 * The export's pure parts: stable ids from names, a live guardrail as declarative settings,
 * the YAML text, and ids the service reports twice.
 */
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { loadGuardrailConfigs } from "../../src/declarative/load";
import { STABLE_ID_RE } from "../../src/declarative/file-schema";
import { doubleAssignments } from "../../src/export/double-assignments";
import { declaredFromLive, type LiveGuardrail } from "../../src/export/declared";
import { renderGuardrailFile } from "../../src/export/render";
import { assignStableIds, slugOf } from "../../src/export/stable-id";
import { wireGuardrail, type WireGuardrail } from "../../src/core/client/wire";

const WS = "00000000-0000-4000-8000-000000000001";

/** A response record: keys not given read as null, as the client reads the service. */
function wire(over: Partial<WireGuardrail> = {}): WireGuardrail {
  return wireGuardrail.parse({
    id: "3f2b8c1e-0000-4000-8000-000000000001",
    name: "Engineering",
    workspace_id: WS,
    created_at: "2026-01-01T00:00:00.000Z",
    ...over,
  });
}

describe("slugOf", () => {
  it.each([
    ["Engineering", "engineering"],
    ["R&D — Zürich", "r-d-zurich"],
    ["  Customer   Support!! ", "customer-support"],
    ["007", "g-007"],
    ["2026 budget", "g-2026-budget"],
    ["🚀🚀", ""],
    ["!!! ???", ""],
    ["Ünïcödé ÅÉÎ", "unicode-aei"],
    ["a".repeat(80), "a".repeat(63)],
    [`${"a".repeat(62)} b`, "a".repeat(62)],
  ])("%j -> %j", (name, slug) => {
    expect(slugOf(name)).toBe(slug);
  });

  it("every non-empty slug is a valid stable id that cannot read as a YAML number (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 220 }), (name) => {
        const s = slugOf(name);
        if (s === "") return;
        expect(s).toMatch(STABLE_ID_RE);
        expect(s).toMatch(/^[a-z]/);
      }),
    );
  });
});

describe("assignStableIds", () => {
  const g = (id: string, name: string) => ({ id, name });

  it("unique names keep their slug; colliding and empty slugs all get the UUID's first 8 hex, whatever the order", () => {
    const list = [
      g("aaaaaaaa-0000-4000-8000-000000000001", "Support"),
      g("bbbbbbbb-0000-4000-8000-000000000002", "support"),
      g("cccccccc-0000-4000-8000-000000000003", "Engineering"),
      g("dddddddd-0000-4000-8000-000000000004", "🚀"),
      g("eeeeeeee-0000-4000-8000-000000000005", "???"),
    ];
    const expected = {
      "aaaaaaaa-0000-4000-8000-000000000001": "support-aaaaaaaa",
      "bbbbbbbb-0000-4000-8000-000000000002": "support-bbbbbbbb",
      "cccccccc-0000-4000-8000-000000000003": "engineering",
      "dddddddd-0000-4000-8000-000000000004": "guardrail-dddddddd",
      "eeeeeeee-0000-4000-8000-000000000005": "guardrail-eeeeeeee",
    };
    expect(Object.fromEntries(assignStableIds(list))).toEqual(expected);
    expect(Object.fromEntries(assignStableIds([...list].reverse()))).toEqual(expected);
  });

  it("falls back to the whole UUID when the short suffix is taken", () => {
    const ids = assignStableIds([
      g("3f2b8c1e-0000-4000-8000-000000000001", "Support"),
      g("3f2b8c1e-0000-4000-8000-000000000002", "Support"),
      g("99999999-0000-4000-8000-000000000009", "support 3f2b8c1e"),
    ]);
    expect([...ids.values()].sort()).toEqual(
      [
        "support-3f2b8c1e000040008000000000000001",
        "support-3f2b8c1e000040008000000000000002",
        "support-3f2b8c1e",
      ].sort(),
    );
  });

  it("of two long names sharing a slug and 8 hex, the smaller UUID keeps the short id, whatever the order", () => {
    const name = "a".repeat(80);
    const list = [g("3f2b8c1e-0000-4000-8000-000000000002", name), g("3f2b8c1e-0000-4000-8000-000000000001", name)];
    // Both 63 characters, the longest id: the slug is cut to leave room for the suffix.
    const expected = {
      "3f2b8c1e-0000-4000-8000-000000000001": `${"a".repeat(54)}-3f2b8c1e`,
      "3f2b8c1e-0000-4000-8000-000000000002": `${"a".repeat(30)}-3f2b8c1e000040008000000000000002`,
    };
    expect(Object.fromEntries(assignStableIds(list))).toEqual(expected);
    expect(Object.fromEntries(assignStableIds([...list].reverse()))).toEqual(expected);
  });

  it("always unique and valid, for any names (property)", () => {
    const uuid = fc.uuid();
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            id: uuid,
            name: fc.oneof(fc.constantFrom("Support", "support", "🚀", "007", ""), fc.string({ maxLength: 80 })),
          }),
          { selector: (r) => r.id, maxLength: 30 },
        ),
        (list) => {
          const ids = [...assignStableIds(list).values()];
          expect(new Set(ids).size).toBe(list.length);
          for (const id of ids) expect(id).toMatch(STABLE_ID_RE);
        },
      ),
    );
  });
});

describe("declaredFromLive", () => {
  const live = (over: Partial<WireGuardrail> = {}, members: string[] = [], keys: string[] = []): LiveGuardrail => ({
    guardrail: wire(over),
    members,
    keys,
  });

  it("a guardrail with nothing set is name, adoptId and workspaceId only; nulls are left out", () => {
    expect(declaredFromLive(live(), false)).toEqual({
      settings: { name: "Engineering", adoptId: "3f2b8c1e-0000-4000-8000-000000000001", workspaceId: WS },
      warnings: [],
    });
  });

  it("every setting in the program's names, builtin labels dropped, zero kept, ids sorted and deduplicated", () => {
    const { settings, warnings } = declaredFromLive(
      live(
        {
          description: "d",
          allowed_models: ["vendor-a/model-x-20260115"],
          allowed_providers: ["p1"],
          ignored_models: ["vendor-c/model-q-20251111"],
          ignored_providers: ["p2"],
          limit_usd: 0,
          reset_interval: "weekly",
          enforce_zdr_vendor_a: true,
          enforce_zdr_vendor_b: false,
          enforce_zdr_vendor_c: true,
          enforce_zdr_other: false,
          content_filter_builtins: [
            { slug: "regex-prompt-injection", action: "flag", scan_scope: "user_only", label: "[PROMPT_INJECTION]" },
          ],
          content_filters: [
            { pattern: "x+", action: "redact", label: null },
            { pattern: "y", action: "block", label: "Y" },
          ],
        },
        ["user_b", "user_a", "user_b"],
        ["k2", "k1"],
      ),
      false,
    );
    expect(warnings).toEqual([]);
    expect(settings).toEqual({
      name: "Engineering",
      adoptId: "3f2b8c1e-0000-4000-8000-000000000001",
      workspaceId: WS,
      description: "d",
      allowedModels: ["vendor-a/model-x-20260115"],
      allowedProviders: ["p1"],
      ignoredModels: ["vendor-c/model-q-20251111"],
      ignoredProviders: ["p2"],
      limitUsd: 0,
      resetInterval: "weekly",
      enforceZdrVendorA: true,
      enforceZdrVendorB: false,
      enforceZdrVendorC: true,
      enforceZdrOther: false,
      contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag", scanScope: "user_only" }],
      contentFilters: [
        { pattern: "x+", action: "redact" },
        { pattern: "y", action: "block", label: "Y" },
      ],
      members: { ids: ["user_a", "user_b"] },
      keys: { ids: ["k1", "k2"] },
    });
  });

  it("additive: an empty set is left out; exclusive: it is written, so the program owns it", () => {
    expect(declaredFromLive(live({}, [], ["k1"]), false).settings).toMatchObject({ keys: { ids: ["k1"] } });
    expect(declaredFromLive(live({}, [], ["k1"]), false).settings).not.toHaveProperty("members");
    expect(declaredFromLive(live({}, [], ["k1"]), true).settings).toMatchObject({
      members: { exclusive: true, ids: [] },
      keys: { exclusive: true, ids: ["k1"] },
    });
  });

  it("warns, naming the field, when enforceZdr is held with a vendor flag null: a program cannot say that", () => {
    const { warnings } = declaredFromLive(
      live({
        enforce_zdr: true,
        enforce_zdr_vendor_a: true,
        enforce_zdr_vendor_b: true,
        enforce_zdr_vendor_c: null,
        enforce_zdr_other: true,
      }),
      false,
    );
    expect(warnings).toEqual([
      "enforceZdrVendorC: the service holds null while enforceZdr is true; a program cannot say that, so adopting sets enforceZdrVendorC to true",
    ]);
  });

  it("warns, naming the field and the value, when the service holds what the loader would reject", () => {
    const { warnings } = declaredFromLive(live({ name: "x".repeat(201) }), false);
    expect(warnings).toEqual([
      `name: must be 1 to 200 characters (got "${"x".repeat(76)}...); the file will not load until it is edited`,
    ]);
  });
});

describe("the YAML text", () => {
  it("round-trips any name, description and pattern exactly, and the loader accepts it (property)", () => {
    const dir = mkdtempSync(join(tmpdir(), "export-yaml-"));
    try {
      fc.assert(
        fc.property(
          fc.string({ unit: "grapheme", minLength: 1, maxLength: 200 }),
          fc.string({ unit: "grapheme", maxLength: 300 }),
          fc.constantFrom(
            "a+",
            "^#\\s*x: .*$",
            "'\"\\d{2,}",
            "[\\u0000-\\u001f]",
            "- item",
            "\\? k",
            "&anchor *alias",
            "!tag",
            "%percent",
            "@at `tick`",
          ),
          (name, description, pattern) => {
            const settings = declaredFromLive(live(name, description, pattern), false).settings;
            const text = renderGuardrailFile([["g", settings]]);
            expect(parse(text)).toEqual({ guardrails: { g: settings } });
            writeFileSync(join(dir, "g.yaml"), text);
            expect(loadGuardrailConfigs(join(dir, "g.yaml"))[0]!.settings).toMatchObject({
              name,
              ...(description ? { description } : {}),
              contentFilters: [{ pattern, action: "block" }],
            });
          },
        ),
        { numRuns: 150 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    function live(name: string, description: string, pattern: string): LiveGuardrail {
      return {
        guardrail: wire({ name, description: description || null, content_filters: [{ pattern, action: "block" }] }),
        members: [],
        keys: [],
      };
    }
  });

  it("starts with the yaml-language-server line and never folds long lines", () => {
    const text = renderGuardrailFile([["g", { name: "n", description: "word ".repeat(60).trim() }]], "../schema.json");
    expect(text.split("\n")[0]).toBe("# yaml-language-server: $schema=../schema.json");
    expect(text).toContain(`description: ${"word ".repeat(60).trim()}\n`);
  });
});

describe("doubleAssignments", () => {
  const ids = new Map([
    ["3f2b8c1e-0000-4000-8000-000000000001", "eng"],
    ["3f2b8c1e-0000-4000-8000-000000000002", "support"],
    ["3f2b8c1e-0000-4000-8000-000000000003", "other-ws"],
  ]);
  const at = (id: string, ws: string, members: string[], keys: string[] = []): LiveGuardrail => ({
    guardrail: wire({ id, workspace_id: ws }),
    members,
    keys,
  });

  it("names a member on two guardrails of one workspace and a key on two guardrails at all; a member in two workspaces is fine", () => {
    const W2 = "00000000-0000-4000-8000-000000000002";
    expect(
      doubleAssignments(
        [
          at("3f2b8c1e-0000-4000-8000-000000000001", WS, ["user_a", "user_b"], ["k1"]),
          at("3f2b8c1e-0000-4000-8000-000000000002", WS, ["user_b"]),
          at("3f2b8c1e-0000-4000-8000-000000000003", W2, ["user_a"], ["k1"]),
        ],
        ids,
      ),
    ).toEqual([
      `member "user_b" is assigned to two guardrails of workspace ${WS}: "eng" and "support"; a member holds one guardrail per workspace, so the files will not load until it is removed from one of them`,
      `key "k1" is assigned to two guardrails: "eng" and "other-ws"; a key holds one guardrail at all, so the files will not load until it is removed from one of them`,
    ]);
  });
});
