/**
 * The Guardrail Policies' import ids (core/policies/import-id.ts): `<workspaceId>/<policyId>` and
 * a workspace-wide policy's id, each optionally naming its secret args; a secret workspace sealed
 * for the migration's run. Anything else is refused before any call, saying the form.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newSealKey, SEAL_ENV } from "../../src/core/import-seal";
import {
  parseImportId,
  parseWorkspaceWideImportId,
  policyImportId,
  workspaceWideImportId,
} from "../../src/core/policies/import-id";

const WS = "3f2b8c1e-0000-4000-8000-000000000001";
const P = "9a1b2c3d-0000-4000-8000-0000000000aa";

afterEach(() => {
  delete process.env[SEAL_ENV];
});

describe("a workspace policy's import id", () => {
  it("round-trips the plain form, the secret names, and a sealed secret workspace", () => {
    expect(parseImportId("BudgetPolicy", policyImportId(WS, P, []))).toEqual({
      workspace: WS,
      policyId: P,
      secret: [],
    });
    expect(policyImportId(WS, P, ["name", "limitUsd"])).toBe(`${WS}/${P}?{"secret":["limitUsd","name"]}`);
    expect(parseImportId("BudgetPolicy", `${WS}/${P.toUpperCase()}?{"secret":["name"]}`)).toEqual({
      workspace: WS,
      policyId: P,
      secret: ["name"],
    });
    const key = newSealKey();
    const id = policyImportId(WS, P, ["workspaceId"], key);
    expect(id).not.toContain(WS);
    expect(id.startsWith(`${P}?`)).toBe(true);
    process.env[SEAL_ENV] = key;
    expect(parseImportId("ModerationPolicy", id)).toEqual({ workspace: WS, policyId: P, secret: ["workspaceId"] });
    // Bound to its policy: moved into another policy's id, it does not open.
    expect(() => parseImportId("ModerationPolicy", id.replace(P, P.replace("aa", "bb")))).toThrow(
      /sealed part does not open/,
    );
    delete process.env[SEAL_ENV];
    expect(() => parseImportId("ModerationPolicy", id)).toThrow(/only the guardrails-migrate-to-native run/);
  });

  it("refuses a bare id, a stray secret name, an unknown key, and bad JSON, saying the form", () => {
    const form = /the import id is <workspaceId>\/<policyId>/;
    expect(() => parseImportId("BudgetPolicy", P)).toThrow(form);
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"secret":["contentFilters"]}`)).toThrow(
      /secret names "contentFilters", which is not an arg of BudgetPolicy/,
    );
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"ids":[]}`)).toThrow(/unknown key "ids"/);
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{`)).toThrow(/what follows \? is not JSON/);
    // A plain workspace in the JSON is not the sealed form's: the head must then be the policy id alone.
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"workspaceId":"${WS}"}`)).toThrow(
      /the sealed workspace goes with the policy id alone/,
    );
  });
});

describe("a workspace-wide policy's import id", () => {
  it("is its id, optionally naming its secret args; anything else is refused", () => {
    expect(parseWorkspaceWideImportId(P)).toEqual({ policyId: P, secret: [] });
    expect(parseWorkspaceWideImportId(workspaceWideImportId(P, ["workspaceIds", "limitUsd"]))).toEqual({
      policyId: P,
      secret: ["limitUsd", "workspaceIds"],
    });
    expect(() => parseWorkspaceWideImportId(`${P}?{"secret":["memberUserIds"]}`)).toThrow(
      /secret names "memberUserIds", which is not an arg of WorkspaceWidePolicy/,
    );
    expect(() => parseWorkspaceWideImportId(`${P}?{"x":1}`)).toThrow(/unknown key "x"/);
  });
});
