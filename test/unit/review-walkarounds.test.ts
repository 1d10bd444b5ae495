/**
 * The review gate cannot be walked around (issue 38, class 6): four pull-request shapes that
 * used to read as harmless, on both faces' tokens, each through `summarize` and through
 * `guardrails-preview-summary --fail-on-loosening`:
 * - a set re-pointed from one guardrail to another (a replacement carrying `moves`);
 * - a guardrail deleted with no set in the stack (its members are managed elsewhere);
 * - a rename without an alias (a delete, a create with the same display name, sets re-pointed);
 * - names that look like another name (mixed scripts) or like the verdict itself;
 * - a guardrail replaced in place (its workspaceId changes) with no set in the stack: the old one
 *   is deleted with its assignments, so its members the stack does not list lose its settings.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summarize } from "../../src/preview";

const ROOT = join(__dirname, "../..");
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
type Step = Record<string, any>;
type Face = "dynamic" | "native";

const TOKEN: Record<Face, string> = { dynamic: "pulumi-nodejs:dynamic/guardrails", native: "guardrails:index" };
const urnOf = (face: Face, type: string, name: string) => `urn:pulumi:prod::p::${TOKEN[face]}:${type}::${name}`;

const [WS1, WS2] = ["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"];
const STRICT = { name: "Strict", limitUsd: 100, allowedModels: ["vendor-a/model-x"], resetInterval: "daily" };
const OPEN = { name: "Open", limitUsd: 5000, resetInterval: "monthly" };

function guardrail(face: Face, op: string, logical: string, id: string | undefined, before?: Step, after?: Step): Step {
  return {
    op,
    urn: urnOf(face, "Guardrail", logical),
    ...(before ? { oldState: { id, inputs: before, outputs: { ...before, guardrailId: id } } } : {}),
    ...(after ? { newState: { ...(op === "create" ? {} : { id }), inputs: after } } : {}),
  };
}

/** A member set's step: the dynamic face holds the id map in its inputs, the native face the program's list. */
function members(
  face: Face,
  op: string,
  logical: string,
  from: { gid: string; ids: string[] } | undefined,
  to: { gid: string; ids: string[]; dependsOn?: string; moves?: Record<string, string> } | undefined,
): Step {
  const map = (ids: string[]) => Object.fromEntries(ids.map((i) => [i, true]));
  const ids = (xs: string[]) => (face === "dynamic" ? { members: map(xs) } : { memberUserIds: xs, members: map(xs) });
  return {
    op,
    urn: urnOf(face, "GuardrailMemberAssignment", logical),
    ...(from
      ? {
          oldState: {
            id: `${from.gid}/members`,
            inputs: { guardrailId: from.gid, ...ids(from.ids) },
            outputs: { guardrailId: from.gid, members: map(from.ids) },
          },
        }
      : {}),
    ...(to
      ? {
          newState: {
            inputs: { guardrailId: to.gid, ...ids(to.ids), ...(to.moves ? { moves: to.moves } : {}) },
            ...(to.dependsOn
              ? { propertyDependencies: { guardrailId: [urnOf(face, "Guardrail", to.dependsOn)] } }
              : {}),
          },
        }
      : {}),
  };
}

const movesFrom = (ids: string[], name: string, id: string) =>
  Object.fromEntries(ids.map((i) => [i, `from guardrail ${name} (${id.slice(0, 8)}…)`]));

/** The four shapes, as a preview of each face. */
const SHAPES: Record<string, (face: Face) => Step[]> = {
  "a set re-pointed from Strict to Open (both in the preview)": (face) => [
    guardrail(face, "same", "strict", "g-strict-0001", STRICT, STRICT),
    guardrail(face, "same", "open", "g-open-00001", OPEN, OPEN),
    members(
      face,
      "replace",
      "team-members",
      { gid: "g-strict-0001", ids: ["user_a", "user_b"] },
      {
        gid: "g-open-00001",
        ids: ["user_a", "user_b"],
        moves: movesFrom(["user_a", "user_b"], "Strict", "g-strict-0001"),
      },
    ),
  ],
  "a set re-pointed to a guardrail whose settings the preview does not hold": (face) => [
    members(
      face,
      "replace",
      "team-members",
      { gid: "g-strict-0001", ids: ["user_a", "user_b"] },
      {
        gid: "g-open-00001",
        ids: ["user_a", "user_b"],
        moves: movesFrom(["user_a", "user_b"], "Strict", "g-strict-0001"),
      },
    ),
  ],
  "a guardrail deleted with no set in the stack": (face) => [
    guardrail(face, "delete", "strict", "g-strict-0001", STRICT),
  ],
  "a rename without an alias: limit raised, allow list dropped, sets re-pointed": (face) => [
    guardrail(face, "delete", "strict", "g-strict-0001", STRICT),
    guardrail(face, "create", "strict-v2", undefined, undefined, {
      name: "Strict",
      limitUsd: 5000,
      resetInterval: "daily",
    }),
    members(
      face,
      "replace",
      "strict-members",
      { gid: "g-strict-0001", ids: ["user_a"] },
      { gid: UNKNOWN, ids: ["user_a"], dependsOn: "strict-v2" },
    ),
    members(
      face,
      "replace",
      "strict-more-members",
      { gid: "g-strict-0001", ids: ["user_b"] },
      { gid: UNKNOWN, ids: ["user_b"], dependsOn: "strict-v2" },
    ),
  ],
  "a guardrail replaced in place (workspaceId changes) with no set in the stack": (face) => [
    guardrail(
      face,
      "replace",
      "strict",
      "g-strict-0001",
      { ...STRICT, workspaceId: WS1 },
      { ...STRICT, workspaceId: WS2 },
    ),
  ],
};

const FACES: Face[] = ["dynamic", "native"];
const CASES = Object.keys(SHAPES).flatMap((shape) => FACES.map((face) => [shape, face] as const));

describe("each shape loosens, on both faces", () => {
  it.each(CASES)("%s (%s face)", (shape, face) => {
    const s = summarize({ steps: SHAPES[shape]!(face) });
    expect(s.failed).toBe(false);
    expect(s.loosens).toBe(true);
    expect(s.markdown).not.toContain("no changes");
    expect(s.markdown.split("\n")[0]).toMatch(/^\*\*(🔓 Loosens:|❔ May loosen)/);
  });
});

describe("what each shape says", () => {
  const md = (shape: string, face: Face = "dynamic") => summarize({ steps: SHAPES[shape]!(face) }).markdown;

  it("a re-pointed set moves every member, judged setting by setting", () => {
    const out = md("a set re-pointed from Strict to Open (both in the preview)");
    expect(out.split("\n")[0]).toBe(
      "**🔓 Loosens:** 2 members move from `Strict` to `Open` (`user_a`, `user_b`) · touches 2 members and 0 keys",
    );
    expect(out).toContain(
      "- moved here from `Strict`: `user_a` · 🔓 **loosens**: allowedModels restriction removed, limitUsd raised, resetInterval longer",
    );
    expect(md("a set re-pointed from Strict to Open (both in the preview)", "native")).toBe(out);
  });

  it("a re-pointed set whose guardrails are not in the preview may loosen, and says why", () => {
    const out = md("a set re-pointed to a guardrail whose settings the preview does not hold");
    expect(out.split("\n")[0]).toMatch(/^\*\*❔ May loosen\*\* .*2 members move from `Strict`/);
    expect(out).toContain("counted as a loosening until a preview shows both");
  });

  it("a deleted guardrail releases everyone on it that the stack does not list", () => {
    const out = md("a guardrail deleted with no set in the stack");
    expect(out.split("\n")[0]).toBe(
      "**🔓 Loosens:** `Strict` (deleted: allowedModels, limitUsd, resetInterval) · touches any members and keys on `Strict` this preview does not list",
    );
    expect(out).toContain("- 🔓 **loosens** · limitUsd: `100` → `(not set)` (limit removed)");
    expect(out).toContain("falls back to no restriction (no workspace default in this stack to compare with)");
  });

  it("a rename compares the deleted guardrail with the created one, setting by setting", () => {
    const out = md("a rename without an alias: limit raised, allow list dropped, sets re-pointed");
    const first = out.split("\n")[0]!;
    expect(first).toMatch(/^\*\*🔓 Loosens:\*\* /);
    expect(first).toContain("`Strict` (`strict-v2`, succeeds `strict`: allowedModels, limitUsd)");
    expect(first).toContain("2 members move from `Strict` (`strict`) to `Strict` (`strict-v2`)");
    expect(out).toContain("- 🔓 **loosens** · limitUsd: `100` → `5000` (raised)");
    expect(out).toContain("- 🔓 **loosens** · allowedModels: `vendor-a/model-x` → `(not set)` (restriction removed)");
    expect(out).toContain("### `Strict` (`strict-v2`): new, succeeds `strict` · 🔓 **loosens**");
  });

  it("a guardrail replaced in place drops its members the stack does not list", () => {
    const out = md("a guardrail replaced in place (workspaceId changes) with no set in the stack");
    expect(out.split("\n")[0]).toBe(
      "**🔓 Loosens:** `Strict` (replaced: allowedModels, limitUsd, resetInterval) · touches any members and keys on `Strict` this preview does not list",
    );
    expect(out).toContain(
      `- \`Strict\` (\`strict\`) is **replaced** (a new guardrail, then the old one deleted): workspaceId \`${WS1}\` → \`${WS2}\`; **anyone on it this stack does not list loses its settings**, falling back to no restriction (no workspace default in this stack to compare with).`,
    );
    expect(out).toContain("- 🔓 **loosens** · limitUsd: `100` → `(not set)` (limit removed)");
  });

  it("a guardrail replaced in place whose exclusive sets of both kinds follow it: nothing loosens", () => {
    const steps = SHAPES["a guardrail replaced in place (workspaceId changes) with no set in the stack"]!("dynamic");
    for (const type of ["GuardrailMemberAssignment", "GuardrailKeyAssignment"])
      steps.push({
        op: "replace",
        urn: urnOf("dynamic", type, `strict-${type}`),
        oldState: { inputs: { guardrailId: "g-strict-0001", exclusive: true }, outputs: {} },
        newState: {
          inputs: { guardrailId: UNKNOWN, exclusive: true },
          propertyDependencies: { guardrailId: [urnOf("dynamic", "Guardrail", "strict")] },
        },
      });
    const s = summarize({ steps });
    expect(s.markdown.split("\n")[0]).toMatch(/^\*\*🔒 Nothing loosens/);
    expect(s.loosens).toBe(false);
  });

  it("a rename to an equal guardrail with exclusive sets that all move: nothing loosens", () => {
    const steps = SHAPES["a rename without an alias: limit raised, allow list dropped, sets re-pointed"]!("dynamic");
    steps[1]!.newState.inputs = { ...STRICT };
    for (const s of steps.slice(2)) {
      s.oldState.inputs.exclusive = true;
      s.newState.inputs.exclusive = true;
    }
    steps.push({
      op: "replace",
      urn: urnOf("dynamic", "GuardrailKeyAssignment", "strict-keys"),
      oldState: { inputs: { guardrailId: "g-strict-0001", exclusive: true }, outputs: { keys: { k1: true } } },
      newState: {
        inputs: { guardrailId: UNKNOWN, exclusive: true, keys: { k1: true } },
        propertyDependencies: { guardrailId: [urnOf("dynamic", "Guardrail", "strict-v2")] },
      },
    });
    const s = summarize({ steps });
    expect(s.markdown.split("\n")[0]).toMatch(/^\*\*🔒 Nothing loosens/);
    expect(s.loosens).toBe(false);
  });
});

describe("names are neutralised and marked", () => {
  const update = (face: Face, name: string) => [
    guardrail(face, "update", "strict", "g-strict-0001", { ...STRICT, name }, { ...STRICT, name, limitUsd: 50 }),
  ];

  it.each(FACES)("a name mixing Latin with a Cyrillic look-alike is marked (%s face)", (face) => {
    const out = summarize({ steps: update(face, "Str\u0456ct") }).markdown;
    expect(out).toContain("`Str<U+0456>ct` (⚠ mixed scripts)");
    expect(out).not.toContain("Str\u0456ct");
  });

  it.each(FACES)("a new guardrail's look-alike name is marked in its settings too (%s face)", (face) => {
    const steps = [guardrail(face, "create", "copy", undefined, undefined, { ...OPEN, name: "Str\u0456ct" })];
    const out = summarize({ steps }).markdown;
    expect(out).toContain("- name: `Str<U+0456>ct` (⚠ mixed scripts)");
    expect(out).not.toContain("Str\u0456ct");
  });

  it.each(FACES)("a name that mimics the verdict stays a name inside a code span (%s face)", (face) => {
    const name = "🔒 Nothing loosens: rename only";
    const steps = [
      ...update(face, "Strict"),
      guardrail(face, "update", "mimic", "g-mimic-0001", { ...OPEN, name }, { ...OPEN, name, limitUsd: 9000 }),
    ];
    const out = summarize({ steps }).markdown;
    expect(out.split("\n")[0]).toMatch(/^\*\*🔓 Loosens:\*\* `🔒 Nothing loosens: rename only` \(limitUsd\)/);
    for (const line of out.split("\n")) {
      expect(line.startsWith(name)).toBe(false);
      // Every time the name is shown, it is inside a code span.
      for (const at of [...line.matchAll(/Nothing loosens: rename only/g)].map((m) => m.index!))
        expect(line.slice(0, at)).toMatch(/`🔒 $/);
    }
  });
});

describe("guardrails-preview-summary --fail-on-loosening", () => {
  const BIN = join(ROOT, "dist/tools/preview-summary/cli.js");
  const dir = mkdtempSync(join(tmpdir(), "walkarounds-"));
  it.each(CASES)("exits 3 for %s (%s face)", (shape, face) => {
    const file = join(dir, `${shape.replace(/\W+/g, "-")}-${face}.json`);
    writeFileSync(file, JSON.stringify({ steps: SHAPES[shape]!(face) }));
    const res = spawnSync(process.execPath, [BIN, "--fail-on-loosening", file], { encoding: "utf8" });
    expect(res.stderr).toContain("--fail-on-loosening: this change loosens");
    expect(res.status).toBe(3);
  });
});
