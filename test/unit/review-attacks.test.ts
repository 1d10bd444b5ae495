/**
 * The review gate's second attack pass (issue 38, class 6): pull-request shapes that read as
 * harmless although they move members or remove a restriction from someone the stack does not
 * list. Each is read from test/e2e/golden/review/attack-<shape>.<face>.*.json: the dynamic
 * face's `*.preview.json` are real `pulumi preview --refresh --json` outputs of the attacker's
 * programs (normalised as test/helpers/normalize-preview.ts does), the `*.edited.json` are the
 * attacker's hand-edited previews of the same shape (the native face's tokens and inputs, and a
 * default moved to another workspace, which the emulator cannot preview). Each must read as a
 * loosening through `summarize`, and `guardrails-preview-summary --fail-on-loosening` must exit 3.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { confusable, nameCode } from "../../src/core/text/names";
import { summarize } from "../../src/preview";

const ROOT = join(__dirname, "../..");
const dir = join(ROOT, "test/e2e/golden/review");
type Face = "dynamic" | "native";
const FACES: Face[] = ["dynamic", "native"];

/** The fixture of a shape on a face: the real preview when there is one, else the edited one. */
function fixture(shape: string, face: Face): string {
  const real = join(dir, `attack-${shape}.${face}.preview.json`);
  return existsSync(real) ? real : join(dir, `attack-${shape}.${face}.edited.json`);
}
const summary = (shape: string, face: Face) => summarize(JSON.parse(readFileSync(fixture(shape, face), "utf8")));

/** Each shape's first line: never "no changes", never "Nothing loosens". */
const SHAPES: Record<string, RegExp> = {
  // A set's guardrailId made secret, and pointed at a laxer guardrail through an apply on strict.id.
  "secret-guardrail-id":
    /^\*\*❔ May loosen\*\* \(cannot tell from the preview\): 2 members move from `Strict` to `\(secret guardrailId\)`/,
  // A set re-pointed through an apply that also reads strict.id: its dependencies list both guardrails.
  "decoy-dependency":
    /^\*\*❔ May loosen\*\* \(cannot tell from the preview\): 2 members move from `Strict` to `\(known after apply: one of (lax2, strict|strict, zlax)\)`/,
  // A default created with no settings: written over the workspace's current default, unseen.
  "default-create":
    /^\*\*❔ May loosen\*\* \(cannot tell from the preview\): default of workspace `[^`]+` \(takes over: .*\) · touches everyone of its workspace without an assignment/,
  // A default with a secret resetOnDelete leaves the stack: every setting may be reset.
  "default-reset-secret":
    /^\*\*❔ May loosen\*\* \(cannot tell from the preview\): default of workspace `[^`]+` \(removed, resetOnDelete secret: allowedModels, limitUsd.*\) · touches everyone of its workspace without an assignment/,
  // A default moved to another workspace with resetOnDelete: the old one is reset, the new one overwritten.
  "default-replace-reset":
    /^\*\*🔓 Loosens:\*\* default of workspace `[^`]+` \(old workspace reset: allowedModels, limitUsd\) · touches everyone of its old workspace without an assignment · \*\*❔ May loosen\*\* .*default of workspace `[^`]+` \(takes over: /,
  // A member with no assignment joins a lax guardrail, and the stack has no workspace default.
  "unassigned-joins-lax":
    /^\*\*❔ May loosen\*\* \(cannot tell from the preview\): 1 member joins `Open` \(`user_e\w+`\)/,
  // A look-alike name: a Latin dotless ı, which NFKC does not fold.
  "dotless-i": /^\*\*🔓 Loosens:\*\* 1 member moves from `Strict` to `Str<U\+0131>ct` \(⚠ look-alike letters\)/,
};
const CASES = Object.keys(SHAPES).flatMap((shape) => FACES.map((face) => [shape, face] as const));

describe("each attack reads as a loosening, on both faces", () => {
  it.each(CASES)("%s (%s face)", (shape, face) => {
    const s = summary(shape, face);
    expect(s.failed).toBe(false);
    expect(s.loosens).toBe(true);
    expect(s.markdown.split("\n")[0]).toMatch(SHAPES[shape]!);
  });
});

describe("what each attack says", () => {
  it.each(FACES)("a secret guardrailId: every member it holds may loosen, and the note says why (%s face)", (face) => {
    const md = summary("secret-guardrail-id", face).markdown;
    expect(md).not.toContain("no changes");
    expect(md).toMatch(
      /- moved here from `Strict`: `user_alice` · ❔ \*\*may loosen\*\*: the set's guardrailId is secret or could be one of several guardrails/,
    );
  });

  it.each(FACES)("a decoy dependency never picks one guardrail of several (%s face)", (face) => {
    const md = summary("decoy-dependency", face).markdown;
    expect(md).toMatch(/- moved here from `Strict`: `user_bob` · ❔ \*\*may loosen\*\*/);
  });

  it.each(FACES)("a default's create is a write over the current default (%s face)", (face) => {
    const md = summary("default-create", face).markdown;
    expect(md).toMatch(
      /### default of workspace `[^`]+` \(`prod-default`\): takes over the workspace's default \(its current settings are not in this preview\) · ❔ \*\*may loosen\*\*/,
    );
    expect(md).toContain("- ❔ **may loosen** · limitUsd: cleared to no restriction (was not in this preview)");
  });

  it.each(FACES)("a default removed with a secret resetOnDelete may reset every setting (%s face)", (face) => {
    const md = summary("default-reset-secret", face).markdown;
    expect(md).toMatch(
      /leaves the stack: \*\*every setting may be reset to no restriction\*\* \(resetOnDelete is secret\)/,
    );
    expect(md).toMatch(/- ❔ \*\*may loosen\*\* · limitUsd: `10` → `\(not set\)`/);
  });

  it.each(FACES)("a default moved to another workspace: reset there, overwritten here (%s face)", (face) => {
    const md = summary("default-replace-reset", face).markdown;
    expect(md).toContain("**every setting of the old workspace's default is reset to no restriction** (resetOnDelete)");
    expect(md).toContain("- 🔓 **loosens** · limitUsd: `10` → `(not set)` (limit removed)");
  });

  it.each(FACES)("a member with no assignment, no default in the stack: may loosen, worded so (%s face)", (face) => {
    const md = summary("unassigned-joins-lax", face).markdown;
    expect(md).toMatch(
      /- added: `user_e\w+` · ❔ \*\*may loosen\*\*: had no assignment: it was on its workspace's default guardrail, not in this preview(;.*)?$/m,
    );
  });

  it.each(FACES)("a dotless ı is spelled out, never shown raw (%s face)", (face) => {
    const md = summary("dotless-i", face).markdown;
    expect(md).not.toContain("Str\u0131ct");
    expect(md).toContain("`Str<U+0131>ct` (⚠ look-alike letters)");
  });
});

describe("a set's guardrail is never read from an attacker's choice", () => {
  const T = "pulumi-nodejs:dynamic/guardrails";
  const urnOf = (type: string, name: string) => `urn:pulumi:dev::p::${T}:${type}::${name}`;
  const STRICT = { name: "Strict", limitUsd: 100, allowedModels: ["vendor-a/model-x"] };
  const strict = (logical: string, id: string, args: Record<string, unknown> = STRICT) => ({
    op: "same",
    urn: urnOf("Guardrail", logical),
    oldState: { id, inputs: args, outputs: { ...args, guardrailId: id } },
    newState: { id, inputs: args },
  });
  const LAX_ID = "00000000-0000-4000-8000-00000000beef";
  const set = (gid: string, deps: string[]) => ({
    op: "replace",
    urn: urnOf("GuardrailMemberAssignment", "strict-members"),
    oldState: {
      id: "g-strict/members",
      inputs: { guardrailId: "g-strict", members: { user_a: true } },
      outputs: { guardrailId: "g-strict", members: { user_a: true } },
    },
    newState: {
      inputs: { guardrailId: gid, members: { user_a: true } },
      propertyDependencies: { guardrailId: deps.map((d) => urnOf("Guardrail", d)) },
    },
  });

  it("an id outside the preview is that guardrail, not the one its dependencies name (an apply over strict.id)", () => {
    const s = summarize({ steps: [strict("strict", "g-strict"), set(LAX_ID, ["strict"])] });
    expect(s.loosens).toBe(true);
    expect(s.markdown.split("\n")[0]).toMatch(/^\*\*❔ May loosen\*\* .*1 member moves from `Strict` to `guardrail /);
  });

  it("a resource named like a pseudo guardrail is not taken for it", () => {
    for (const logical of [`guardrail ${LAX_ID}`, "(known after apply)"]) {
      const steps = [strict("strict", "g-strict"), strict(logical, "g-decoy"), set(LAX_ID, [])];
      const s = summarize({ steps });
      expect(s.loosens).toBe(true);
      expect(s.markdown).toContain("❔ **may loosen**");
    }
  });

  it("an import of a default adopts it as it is: nothing loosens", () => {
    const steps = [
      {
        op: "import",
        urn: urnOf("WorkspaceDefaultGuardrail", "prod-default"),
        newState: { id: "00000000-0000-4000-8000-000000000001", inputs: { workspaceId: "prod", limitUsd: 5 } },
      },
    ];
    const s = summarize({ steps });
    expect(s.loosens).toBe(false);
    expect(s.markdown).toContain("imported (adopted as it is on the service; nothing changes there)");
  });
});

describe("names that can pass for another are marked", () => {
  it.each([
    ["Str\u0131ct", "look-alike letters"], // ı: Latin, no decomposition
    ["Clas\u017Fic", "look-alike letters"], // ſ long s
    ["\u0251llow", "look-alike letters"], // ɑ Latin alpha
    ["\uA4E2trict", "mixed scripts"], // Lisu ꓢ beside ASCII
    ["\uA4E2\uA4D4\uA4E3\uA4F2\uA4DA\uA4D4", "look-alike letters"], // all Lisu: ꓢꓔꓣꓲꓚꓔ
    ["Strict \u4E2D\u6587", "mixed scripts"], // Latin and Han: two scripts, whatever they are
    ["Str\u0456ct", "mixed scripts"], // Cyrillic і, as before
    ["\uFF33trict", "look-alike letters"], // fullwidth Ｓ, as before
    ["Stri\u0307ct", "look-alike letters"], // a combining dot on an ASCII letter
  ])("%s: %s", (name, why) => {
    expect(confusable(name)).toBe(why);
    expect(nameCode(name)).toContain(`(⚠ ${why})`);
  });

  it.each([
    "Strict",
    "Caf\u00E9",
    "M\u00FCller Team",
    "Cafe\u0301",
    "\u041F\u0440\u043E\u0438\u0437\u0432\u043E\u0434\u0441\u0442\u0432\u043E",
    "\u751F\u4EA7",
    "prod-2 (eu)",
  ])("%s is not marked", (name) => {
    expect(confusable(name)).toBeUndefined();
  });
});

describe("guardrails-preview-summary --fail-on-loosening", () => {
  const BIN = join(ROOT, "dist/tools/preview-summary/cli.js");
  it.each(CASES)("exits 3 for %s (%s face)", (shape, face) => {
    const res = spawnSync(process.execPath, [BIN, "--fail-on-loosening", fixture(shape, face)], { encoding: "utf8" });
    expect(res.stderr).toContain("--fail-on-loosening: this change loosens");
    expect(res.status).toBe(3);
  });
});
