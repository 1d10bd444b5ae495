/**
 * Attacks on the surfaces added last to the Guardrail Policies (issue 40), by someone who did not
 * write them: the policy import ids (secret names, a sealed workspace), the migration's import ids
 * of policies from a hostile state, the PR summary over a workspace-wide policy's coverage, and a
 * Guardrail's recorded policy drift (`unsyncedPolicies`, `mappedPolicyIds`) in a hostile state.
 * Pure logic; the attacks that reach the service are in test/provider/policies-attack-late.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { newSealKey, SEAL_ENV, sealJson } from "../../src/core/import-seal";
import { parseImportId, parseWorkspaceWideImportId, policyImportId } from "../../src/core/policies/import-id";
import { stillSet, warnRecordedDrift } from "../../src/core/guardrail/policy-drift";
import { driftWarning } from "../../src/core/guardrail/drift-warning";
import { importIdOf } from "../../src/export/import-ids";
import { asSecret, UNKNOWN } from "../../src/core/markers";
import { summarize } from "../../src/preview/summary";
import { urn } from "../helpers/preview-steps";

const WS = "3f2b8c1e-0000-4000-8000-000000000001";
const W2 = "3f2b8c1e-0000-4000-8000-000000000002";
const P = "9a1b2c3d-0000-4000-8000-0000000000aa";
const ESC = "\u001b";

afterEach(() => {
  delete process.env[SEAL_ENV];
  vi.restoreAllMocks();
});

/** The error a call throws (it must throw). */
function failure(f: () => unknown): Error {
  try {
    f();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a refusal");
}

describe("A. policy import ids: hostile text is refused, bounded and neutralised", () => {
  it("A1 an import id of 100 KB is refused with a bounded message", () => {
    const e = failure(() => parseImportId("BudgetPolicy", `${WS}/${P}?${"x".repeat(100_000)}`));
    expect(e.message).toMatch(/what follows \? is not JSON/);
    expect(e.message.length).toBeLessThan(400);
    const w = failure(() => parseWorkspaceWideImportId(`${P}?{"secret":${"[".repeat(100_000)}}`));
    expect(w.message.length).toBeLessThan(400);
  });

  it("A2 deeply nested JSON, trailing garbage, a second ? are refused", () => {
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?${'{"a":'.repeat(50_000)}1${"}".repeat(50_000)}`)).toThrow(
      /unknown key "a"/,
    );
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"secret":[]} x`)).toThrow(/not JSON/);
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"secret":[]}?{"secret":[]}`)).toThrow(/not JSON/);
  });

  it("A3 __proto__ as a key or a secret name, __secretArgs and Object.prototype names are refused", () => {
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"__proto__":{"secret":["x"]}}`)).toThrow(
      /unknown key "__proto__"/,
    );
    for (const n of ["__proto__", "__secretArgs", "toString", "constructor"])
      expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"secret":["${n}"]}`)).toThrow(
        new RegExp(`secret names "${n}", which is not an arg of BudgetPolicy`),
      );
    expect(() => parseWorkspaceWideImportId(`${P}?{"secret":["__secretArgs"]}`)).toThrow(/not an arg/);
  });

  it("A4 control characters and ANSI in every part reach the error neutralised", () => {
    const e = failure(() => parseImportId("BudgetPolicy", `${ESC}[31m${WS}/${ESC}]8;;x\u0007${P}?{"${ESC}[2J":1}`));
    expect(e.message).not.toContain(ESC);
    expect(e.message).not.toContain("\u0007");
    const k = failure(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"\\u001b[2J":1}`));
    expect(k.message).toContain("unknown key");
    expect(k.message).not.toContain(ESC);
  });

  it("A5 a sealed part replayed onto another policy id, or with another run's key, or tampered, does not open", () => {
    const key = newSealKey();
    const id = policyImportId(WS, P, ["workspaceId"], key);
    process.env[SEAL_ENV] = key;
    expect(() => parseImportId("BudgetPolicy", id.replace(P, P.replace("aa", "bb")))).toThrow(/does not open/);
    const sealed = JSON.parse(id.slice(id.indexOf("?") + 1)).sealed as string;
    const raw = Buffer.from(sealed, "base64url");
    raw[14] = raw[14]! ^ 1; // the tag
    const tampered = id.replace(sealed, raw.toString("base64url"));
    expect(() => parseImportId("BudgetPolicy", tampered)).toThrow(/does not open/);
    process.env[SEAL_ENV] = newSealKey();
    expect(() => parseImportId("BudgetPolicy", id)).toThrow(/does not open/);
  });

  it("A6 a sealed workspace that opens to a path, a non-UUID or control text is refused, never shown", () => {
    const key = newSealKey();
    process.env[SEAL_ENV] = key;
    for (const ws of ["../etc", "x\u001b[31m", "a/b", "my-slug"]) {
      const id = `${P}?${JSON.stringify({ sealed: sealJson({ workspaceId: ws }, key, P), secret: ["workspaceId"] })}`;
      const e = failure(() => parseImportId("BudgetPolicy", id));
      expect(e.message).toMatch(/sealed workspace is not a workspace id/);
      expect(e.message).not.toContain(ws);
    }
  });

  it("A7 a sealed workspace is a secret's copy: recorded secret even when the id's list omits it", () => {
    const key = newSealKey();
    process.env[SEAL_ENV] = key;
    const id = `${P}?${JSON.stringify({ sealed: sealJson({ workspaceId: WS }, key, P) })}`;
    expect(parseImportId("BudgetPolicy", id).secret).toContain("workspaceId");
  });

  it("A8 a workspace-wide import id does not take a sealed workspace, nor a secret from another kind", () => {
    const key = newSealKey();
    process.env[SEAL_ENV] = key;
    const id = `${P}?${JSON.stringify({ sealed: sealJson({ workspaceId: WS }, key, P) })}`;
    expect(() => parseWorkspaceWideImportId(id)).toThrow(/unknown key "workspaceId"/);
    expect(() => parseWorkspaceWideImportId(`${P}?{"secret":["memberUserIds"]}`)).toThrow(/not an arg/);
  });
});

const DYN = "pulumi-nodejs:dynamic/guardrails:";
const res = (type: string, id: unknown, outputs: unknown, inputs: unknown = {}) => ({
  urn: `urn:pulumi:dev::p::${DYN}${type}::x`,
  type: `${DYN}${type}`,
  id,
  inputs,
  outputs,
});
const refusal = (r: ReturnType<typeof res>) =>
  failure(() =>
    importIdOf(r, (why) => {
      throw new Error(why);
    }),
  );

describe("B. the migration's import id of a policy from a hostile state", () => {
  it("B1 a workspaceId missing, an object, a number: refused naming the resource", () => {
    for (const ws of [undefined, { a: 1 }, 5, ""])
      expect(refusal(res("BudgetPolicy", P, { workspaceId: ws })).message).toMatch(/records no workspaceId/);
  });

  it("B2 a workspaceId that is not a workspace's id (a path, a slug, a second id) is refused, not written into the id", () => {
    for (const ws of [`${WS}/${P}`, "../x", `${WS}?{"secret":[]}`, "slug"])
      expect(refusal(res("BudgetPolicy", P, { workspaceId: ws })).message).toMatch(
        /its state's workspaceId is not a workspace id/,
      );
  });

  it("B3 a policy id with / or ? inside is refused: the import would name another policy or another form", () => {
    for (const id of [`${P}/x`, `${P}?{"secret":[]}`, `other?{"secret":["name"]}`])
      expect(refusal(res("BudgetPolicy", id, { workspaceId: WS })).message).toMatch(/its id .* is not a policy id/);
    expect(refusal(res("WorkspaceWidePolicy", `${P}?{"secret":[]}`, {})).message).toMatch(/is not a policy id/);
  });

  it("B4 a secret envelope with garbage as workspaceId: refused as secret, never opened", () => {
    const garbage = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: 5 };
    expect(refusal(res("BudgetPolicy", P, { workspaceId: garbage })).message).toMatch(/workspaceId is secret/);
  });

  it("B5 a WorkspaceWidePolicy whose coverage maps are odd still gets its plain id", () => {
    const r = res("WorkspaceWidePolicy", P, { workspaceIds: { [WS]: "yes", __proto__: true } });
    expect(importIdOf(r, () => undefined as never)).toBe(P);
  });
});

const wstep = (
  op: string,
  name: string,
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
) => ({
  op,
  urn: urn("WorkspaceWidePolicy", name),
  ...(before ? { oldState: { id: `p-${name}`, inputs: before } } : {}),
  newState: { inputs: after },
});
const WIDE = { name: "Org", policyType: "budget", limitUsd: 10, resetInterval: "daily" };

describe("C. the PR summary over a dynamic workspace-wide policy's coverage", () => {
  it("C1 an opt-out added while allWorkspaces is secret is never called harmless", () => {
    const s = summarize({
      steps: [
        wstep(
          "update",
          "org",
          { ...WIDE, allWorkspaces: "[secret]", optedOutWorkspaceIds: {} },
          { ...WIDE, allWorkspaces: "[secret]", optedOutWorkspaceIds: { [W2]: true } },
        ),
      ],
    });
    expect(s.markdown).toContain("workspaces opted out");
    expect(s.markdown).not.toMatch(/opted out: .*not in force/);
  });

  it("C2 an opt-out added while allWorkspaces is not known until apply is never called harmless", () => {
    const s = summarize({
      steps: [
        wstep(
          "update",
          "org",
          { ...WIDE, allWorkspaces: true, optedOutWorkspaceIds: {} },
          { ...WIDE, allWorkspaces: UNKNOWN, optedOutWorkspaceIds: { [W2]: true } },
        ),
      ],
    });
    expect(s.markdown).not.toMatch(/opted out: .*not in force/);
    expect(s.loosens || s.markdown.includes("unknown")).toBe(true);
  });

  it("C3 a workspace dropped from a map is a loosening; a map of odd values never hides one", () => {
    const s = summarize({
      steps: [
        wstep(
          "update",
          "org",
          { ...WIDE, workspaceIds: { [WS]: true, [W2]: true } },
          { ...WIDE, workspaceIds: { [WS]: true } },
        ),
      ],
    });
    expect(s.loosens).toBe(true);
    expect(s.markdown).toContain(`- workspaces no longer covered: \`${W2}\` · 🔓 **loosens**`);
  });

  it("C4 a secret whole list or a secret element is shown as changed (secret), never its ids", () => {
    const s = summarize({
      steps: [
        wstep(
          "update",
          "org",
          { ...WIDE, workspaceIds: asSecret({ [WS]: true, [W2]: true }) },
          { ...WIDE, workspaceIds: asSecret({ [WS]: true }) },
        ),
        wstep("update", "org2", { ...WIDE, workspaceIds: [WS, W2] }, { ...WIDE, workspaceIds: [WS, "[secret]"] }),
      ],
    });
    expect(s.markdown).toContain("workspaceIds changed (secret)");
    expect(s.markdown).not.toContain(W2);
  });

  it("C5 a string, a number, null as the coverage: no crash, no false harmless", () => {
    const s = summarize({
      steps: [
        wstep("update", "org", { ...WIDE, workspaceIds: { [W2]: true } }, { ...WIDE, workspaceIds: "oops" }),
        wstep("update", "org2", { ...WIDE, workspaceIds: [W2] }, { ...WIDE, workspaceIds: null }),
        wstep("update", "org3", { ...WIDE, workspaceIds: [W2] }, { ...WIDE, workspaceIds: 5 }),
      ],
    });
    expect(s.loosens).toBe(true);
  });
});

const gOuts = (extra: Record<string, unknown>) => ({
  name: "g",
  limitUsd: 10,
  resetInterval: "daily",
  contentFilterBuiltins: [{ slug: "email", action: "block" }],
  ...extra,
});

describe("D. a Guardrail's recorded policy drift in a hostile state", () => {
  it("D1 unsyncedPolicies not a list, entries not objects, unknown kinds: no crash at preview or update", () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const bad of ["x", { kind: "budget" }, [null], [5], [{ kind: "bogus" }], [{ kind: "__proto__" }], [{}]]) {
      const olds = gOuts({ unsyncedPolicies: bad }) as never;
      expect(() => warnRecordedDrift("g1", olds, olds, [])).not.toThrow();
      expect(() => stillSet(olds, olds)).not.toThrow();
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it("D2 mappedPolicyIds malformed (a list, a string, values not strings, 1 MB) is ignored, never kept", () => {
    for (const bad of [["a"], "abc", { budget: 5 }, { budget: { x: 1 } }, { budget: "x".repeat(1_000_000) }]) {
      const r = stillSet(gOuts({ mappedPolicyIds: bad }) as never, gOuts({}));
      expect(r.mappedPolicyIds).toBeUndefined();
    }
    expect(stillSet(gOuts({ mappedPolicyIds: { budget: P } }) as never, gOuts({})).mappedPolicyIds).toEqual({
      budget: P,
    });
  });

  it("D3 a hostile recorded entry warns neutralised and bounded, the secret name hidden", () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((m: string) => void lines.push(m));
    const olds = gOuts({
      name: `${ESC}[31mevil`,
      unsyncedPolicies: [
        {
          kind: "moderation",
          policyId: `${ESC}]8;;http://x\u0007${"y".repeat(1_000_000)}`,
          deleted: false,
          unlisted: true,
          enforces: null,
        },
        { kind: "budget", policyId: P, deleted: false, enforces: { limitUsd: `${ESC}[2J${"z".repeat(100_000)}` } },
      ],
    }) as never;
    warnRecordedDrift("g-d3", olds, olds, ["name"]);
    expect(lines.length).toBe(2);
    for (const l of lines) {
      expect(l).not.toContain(ESC);
      expect(l).not.toContain("evil");
      expect(l.length).toBeLessThan(2000);
    }
    expect(
      driftWarning("n", { kind: "budget", policyId: 5 as never, deleted: false, enforces: null, unlisted: true }),
    ).toContain("5");
  });
});

describe("H. more: equivalent spellings, planned ids that must parse, the drift report", () => {
  it("A9 a unicode-escaped key and duplicate secret names read as what they spell", () => {
    expect(parseImportId("BudgetPolicy", `${WS}/${P}?{"\\u0073ecret":["name","name"]}`).secret).toEqual([
      "name",
      "name",
    ]);
    expect(() => parseImportId("BudgetPolicy", `${WS}/${P}?{"secret":[${'"name",'.repeat(64)}"name"]}`)).toThrow(
      /secret must be a list of arg names/,
    );
  });

  it("B6 a hostile state's __secretArgs never makes an import id the import then refuses", () => {
    for (const [type, names] of [
      ["BudgetPolicy", ["bogus"]],
      ["BudgetPolicy", ["__secretArgs"]],
      ["WorkspaceWidePolicy", ["memberUserIds"]],
    ] as const) {
      const r = res(type, P, { workspaceId: WS }, { __secretArgs: names });
      let id: string | undefined;
      try {
        id = importIdOf(r, (why) => {
          throw new Error(why);
        });
      } catch (err) {
        expect((err as Error).message).toMatch(/not an arg of/);
        continue;
      }
      const parse = () => (type === "WorkspaceWidePolicy" ? parseWorkspaceWideImportId(id!) : parseImportId(type, id!));
      expect(parse).not.toThrow();
    }
  });

  it("D4 a refresh with no workspace keeps only sane recorded entries", async () => {
    const { withPolicyDrift } = await import("../../src/core/guardrail/policy-drift");
    const previous = gOuts({
      unsyncedPolicies: "x",
      mappedPolicyIds: ["a"],
    });
    const r = await withPolicyDrift({} as never, "g-d4", gOuts({ workspaceId: null }) as never, previous as never, []);
    expect(r.unsyncedPolicies).toBeUndefined();
    expect(r.mappedPolicyIds).toBeUndefined();
  });

  it("D5 the PR drift report bounds and neutralises a hostile recorded entry, and skips what is not one", async () => {
    const { unsyncedFacts } = await import("../../src/preview/unsynced");
    const lines = unsyncedFacts([
      {
        op: "refresh",
        urn: urn("Guardrail", "g"),
        newState: {
          outputs: {
            name: `${ESC}[31m${"n".repeat(10_000)}`,
            unsyncedPolicies: [
              { kind: "budget", policyId: `${ESC}]8;;x\u0007${"y".repeat(1_000_000)}`, unlisted: true },
              { kind: "__proto__" },
              null,
              5,
            ],
          },
        },
      },
      { op: "refresh", urn: urn("Guardrail", "h"), newState: { outputs: { name: "h", unsyncedPolicies: "oops" } } },
    ] as never);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(ESC);
    expect(lines[0]!.length).toBeLessThan(1200);
  });
});
