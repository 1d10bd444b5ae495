/**
 * The import ids the native Read understands (core/assignments/import-id.ts and
 * core/guardrail/import-id.ts): the plain forms, the managed forms the migration writes, and
 * a malformed id refused before any call (no provider config is set here: a call would fail
 * with a config error instead).
 */
import { describe, expect, it } from "vitest";
import { managedImportId, parseSetImportId } from "../../src/core/assignments/import-id";
import { KEY_KIND, MEMBER_KIND } from "../../src/core/assignments/kind";
import { parseGuardrailImportId, withSentModels } from "../../src/core/guardrail/import-id";
import { guardrailLifecycle } from "../../src/core/guardrail/lifecycle";
import { nativeSetLifecycle } from "../../src/native/sets";
import { processConfig } from "../../src/core/settings/config";

const guardrail = guardrailLifecycle(processConfig);

const G1 = "3f2b8c1e-0000-4000-8000-000000000001";

describe("a set's import id", () => {
  it("reads the plain form and the managed form, which round-trips sorted and deduplicated", () => {
    expect(parseSetImportId(MEMBER_KIND, `${G1.toUpperCase()}/members`)).toEqual({ guardrailId: G1 });
    const id = managedImportId(G1, "keys", { exclusive: true, ids: ["b", "a/x?y", "b"] });
    expect(id).toBe(`${G1}/keys?{"exclusive":true,"ids":["a/x?y","b"]}`);
    expect(parseSetImportId(KEY_KIND, id)).toEqual({
      guardrailId: G1,
      managed: { exclusive: true, ids: ["a/x?y", "b"] },
    });
  });

  it("refuses every malformed id, saying the forms", () => {
    for (const [bad, why] of [
      ["undefined/members", /guardrail id is not a UUID/],
      [`${G1}/keys`, /does not end in \/members/],
      [`${G1}/members?`, /not JSON/],
      [`${G1}/members?[]`, /not a JSON object/],
      [`${G1}/members?{"exclusive":true,"ids":[],"x":1}`, /unknown key "x"/],
      [`${G1}/members?{"exclusive":"true","ids":[]}`, /exclusive must be true or false/],
      [`${G1}/members?{"exclusive":false}`, /ids must be a list/],
      [`${G1}/members?{"exclusive":false,"ids":[" "]}`, /non-empty strings/],
      [`${G1}/members?{"exclusive":false,"ids":["a","a"]}`, /an id twice/],
    ] as const)
      expect(() => parseSetImportId(MEMBER_KIND, bad), bad).toThrow(
        new RegExp(`GuardrailMemberAssignment: cannot import .*<guardrail id>/members.*; here .*${why.source}`),
      );
  });
});

describe("a guardrail's import id", () => {
  it("reads the UUID, with or without the model identifiers the program sent", () => {
    expect(parseGuardrailImportId(G1.toUpperCase())).toEqual({ guardrailId: G1, models: {}, secret: [] });
    const models = { allowedModels: { sent: ["a/x"], answer: ["a/x-1"] } };
    expect(parseGuardrailImportId(`${G1}?${JSON.stringify(models)}`)).toEqual({ guardrailId: G1, models, secret: [] });
    // The args the program made secret, by name (issue 38): the import records them as secrets.
    expect(parseGuardrailImportId(`${G1}?{"secret":["limitUsd"]}`)).toEqual({
      guardrailId: G1,
      models: {},
      secret: ["limitUsd"],
    });
  });

  it("refuses a malformed id", () => {
    for (const [bad, why] of [
      ["not-a-uuid", /it is not a UUID/],
      [`${G1}/members`, /it is not a UUID/],
      [`${G1}?{`, /not JSON/],
      [`${G1}?{"models":1}`, /unknown key "models"/],
      [`${G1}?{"allowedModels":{"sent":[]}}`, /must be \{"sent"/],
      [`${G1}?{"allowedModels":{"sent":[1],"answer":[]}}`, /lists of model identifiers/],
      [`${G1}?{"secret":"limitUsd"}`, /secret must be a list of arg names/],
      [`${G1}?{"sealed":"AAAA"}`, /sealed part, which only the guardrails-migrate-to-native run/],
    ] as const)
      expect(() => parseGuardrailImportId(bad), bad).toThrow(
        new RegExp(`Guardrail: cannot import .*its UUID.*; here .*${why.source}`),
      );
  });

  it("puts the identifiers sent in the program's place only where the service still holds their answer", () => {
    const outs = { allowedModels: ["a/x-1"], ignoredModels: ["b/y-1"], args: null };
    const inputs = { name: "Eng", allowedModels: ["a/x-1"], ignoredModels: ["b/y-1"] };
    const held = (l: string) => (l === "allowedModels" ? ["a/x-1"] : ["b/y-2"]);
    const r = withSentModels(outs, inputs, held, {
      allowedModels: { sent: ["a/x"], answer: ["a/x-1"] },
      ignoredModels: { sent: ["b/y"], answer: ["b/y-1"] },
    });
    expect(r.inputs).toEqual({ name: "Eng", allowedModels: ["a/x"], ignoredModels: ["b/y-1"] });
    expect(r.outs).toEqual({ allowedModels: ["a/x"], ignoredModels: ["b/y-1"], args: r.inputs });
    expect(withSentModels(outs, inputs, held, {})).toEqual({ outs, inputs });
  });
});

describe("native Read of a malformed import id", () => {
  it("refuses before any call (no config here, so a call would fail otherwise)", async () => {
    await expect(guardrail.read("undefined", undefined as never)).rejects.toThrow(
      /Guardrail: cannot import "undefined"/,
    );
    await expect(
      nativeSetLifecycle(MEMBER_KIND, processConfig).read(`${G1}/members?{`, undefined as never),
    ).rejects.toThrow(/GuardrailMemberAssignment: cannot import/);
  });
});

describe("a refused import id is quoted escaped (it reaches the terminal and the engine's events)", () => {
  const raw = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
  const message = (f: () => unknown) => {
    try {
      f();
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error("not refused");
  };
  it.each([
    ["a set's", () => parseSetImportId(MEMBER_KIND, "1f0e\u202e/members\u001b[31m")],
    ["a set's unknown key", () => parseSetImportId(MEMBER_KIND, `${G1}/members?{"\u202ex":1}`)],
    ["a guardrail's", () => parseGuardrailImportId("gr\u202e\u200bx\u001b]0;t\u0007")],
    ["a guardrail's unknown key", () => parseGuardrailImportId(`${G1}?{"\u202ex":{}}`)],
  ])("%s", (_what, f) => {
    const text = message(f);
    expect(text).toMatch(/cannot import/);
    expect(text).not.toMatch(raw);
  });
});
