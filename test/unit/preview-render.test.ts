/**
 * The Markdown body of a preview summary, from the changes summary.ts reads (the opening line
 * has its own tests): the totals, the call-outs for replacements and deletions, one section per
 * guardrail in name order, worst changes first, ids grouped by verdict, and every list capped.
 */
import { describe, expect, it } from "vitest";
import type { Judged } from "../../src/core/fields/loosening";
import { emptyChange, type GuardrailChange, type Verdict } from "../../src/preview/model";
import { renderChanges, verdictText } from "../../src/preview/render";

const change = (name: string, op: string, more: Partial<GuardrailChange> = {}, logical = name.toLowerCase()) => ({
  ...emptyChange(logical, name, op),
  ...more,
});
const raised: Judged = { field: "limitUsd", what: "raised", before: 100, after: 250, direction: "loosening" };
const modelRemoved: Judged = {
  field: "allowedModels",
  element: "gpt-4",
  what: "removed",
  before: "gpt-4",
  direction: "tightening",
};
const modelAdded = (element: string): Judged => ({
  field: "allowedModels",
  element,
  what: "added",
  after: element,
  direction: "loosening",
});
const verdict = (direction: Verdict["direction"], gains: Judged[] = [], note?: string): Verdict => ({
  direction,
  gains,
  ...(note ? { note } : {}),
});
const body = (all: GuardrailChange[]) => renderChanges(all).body;

describe("renderChanges: totals and call-outs", () => {
  it("counts guardrails by operation and ids by what happens to them", () => {
    const g = change("Eng", "update");
    Object.assign(g.sets.members, {
      added: ["u1", "u2"],
      restored: [["u3", "on guardrail x"]],
      removed: ["u4"],
      movedIn: [["u5", "Sales"]],
      taken: [["u6", "Ops"]],
    });
    g.sets.keys.secret = true;
    const all = [g, change("A", "create"), change("B", "replace"), change("C", "delete"), change("D", "import")];
    expect(body(all).split("\n")[0]).toBe(
      "**Guardrails: 1 created, 1 updated, 1 replaced, 1 deleted, 1 imported · members: 3 added, 1 removed, 2 moved · keys: 1 secret list(s) changed**",
    );
  });

  it("says when nothing of a kind changes", () => {
    expect(body([change("Eng", "same")]).split("\n")[0]).toBe(
      "**Guardrails: no setting changes · members: no change · keys: no change**",
    );
  });

  it("calls out each replacement and deletion, saying what a default guardrail's deletion does", () => {
    const all = [
      change("Moved", "replace", { other: [{ key: "workspaceId", before: "ws-1", after: "ws-2" }] }),
      change("Other", "replace", { other: [{ key: "name", before: "a", after: "b" }] }),
      change("Gone", "delete"),
      { ...change("Reset", "delete", { judged: [raised] }), isDefault: true },
      { ...change("Kept", "delete"), isDefault: true },
      { ...change("Swapped", "replace", { judged: [raised] }), isDefault: true },
      change("Plain", "update"),
    ];
    const [, head, lines, next] = body(all).split("\n\n");
    expect(head).toBe("### Replacements and deletions");
    expect(next).toMatch(/^### `Gone` /);
    expect(lines).toMatchInlineSnapshot(`
      "- \`Gone\` (\`gone\`) is **deleted**, with its member and key assignments.
      - \`Kept\` (\`kept\`) leaves the stack: its settings stay in force on the service.
      - \`Moved\` (\`moved\`) is **replaced** (a new guardrail, then the old one deleted): workspaceId \`ws-1\` → \`ws-2\`.
      - \`Other\` (\`other\`) is **replaced** (a new guardrail, then the old one deleted): a setting that forces replacement changed.
      - \`Reset\` (\`reset\`) leaves the stack: **every setting is reset to no restriction** (resetOnDelete).
      - \`Swapped\` (\`swapped\`) is **replaced** (a new guardrail, then the old one deleted): a setting that forces replacement changed."
    `);
  });

  it("has no call-outs when nothing is replaced or deleted", () => {
    expect(body([change("Eng", "update", { judged: [raised] })])).not.toContain("Replacements and deletions");
  });
});

describe("renderChanges: one section per guardrail", () => {
  it("in name order, then logical name; settings worst first, marked", () => {
    const all = [
      change("b", "update", { judged: [modelRemoved, raised] }),
      change("a", "update", { judged: [modelRemoved] }, "z"),
      change("a", "update", {}, "y"),
    ];
    expect(body(all)).toMatchInlineSnapshot(`
      "**Guardrails: 3 updated · members: no change · keys: no change**

      ### \`a\` (\`y\`): update

      ### \`a\` (\`z\`): update · 🔒 tightens

      - 🔒 tightens · allowedModels \`gpt-4\`: removed (was \`gpt-4\`)

      ### \`b\` (\`b\`): update · 🔓 **loosens**

      - 🔓 **loosens** · limitUsd: \`100\` → \`250\` (raised)
      - 🔒 tightens · allowedModels \`gpt-4\`: removed (was \`gpt-4\`)
      "
    `);
  });

  it("what each operation reads as; a new guardrail's settings are listed without marks", () => {
    const all = [
      change("1 New", "create", { judged: [raised, modelAdded("o1")] }),
      change("2 Adopted", "import"),
      change("3 Sets", "same"),
      change("4 Odd", "weird*op"),
      change("5 Gone", "delete", { judged: [raised] }),
      { ...change("6 Default", "update", { judged: [modelRemoved] }), isDefault: true },
      change("7 Replaced", "replace", { other: [{ key: "workspaceId", before: "ws-1", after: "ws-2" }] }),
    ];
    expect(body(all)).toMatchInlineSnapshot(`
      "**Guardrails: 1 created, 1 updated, 1 replaced, 1 deleted, 1 imported · members: no change · keys: no change**

      ### Replacements and deletions

      - \`5 Gone\` (\`5 gone\`) is **deleted**, with its member and key assignments.
      - \`7 Replaced\` (\`7 replaced\`) is **replaced** (a new guardrail, then the old one deleted): workspaceId \`ws-1\` → \`ws-2\`.

      ### \`1 New\` (\`1 new\`): new

      - limitUsd: \`250\`
      - allowedModels \`o1\`: \`o1\`

      ### \`2 Adopted\` (\`2 adopted\`): imported (adopted as it is on the service; nothing changes there)

      ### \`3 Sets\` (\`3 sets\`): assignments only

      ### \`4 Odd\` (\`4 odd\`): weird\\*op

      ### \`5 Gone\` (\`5 gone\`): delete

      ### \`6 Default\` (\`6 default\`): update · 🔒 tightens

      Holds every member and key of its workspace that has no assignment.

      - 🔒 tightens · allowedModels \`gpt-4\`: removed (was \`gpt-4\`)

      ### \`7 Replaced\` (\`7 replaced\`): replace

      - ➖ neutral · workspaceId: \`ws-1\` → \`ws-2\`
      "
    `);
  });

  it("lists 50 setting changes, then counts the rest", () => {
    const judged = (n: number) => Array.from({ length: n }, (_, i) => modelAdded(`m${String(i).padStart(2, "0")}`));
    const fifty = body([change("Eng", "update", { judged: judged(50) })]);
    expect(fifty).toContain("m49");
    expect(fifty).not.toContain("more change(s)");
    const many = body([change("Eng", "update", { judged: judged(52) })]);
    expect(many).toContain("m49");
    expect(many).not.toContain("m50");
    expect(many).toContain("\n- … and 2 more change(s)\n");
  });
});

describe("renderChanges: member and key sets", () => {
  it("each kind of change on its own line, ids sorted, ids of one verdict sharing a line", () => {
    const g = change("Eng", "same");
    Object.assign(g.sets.members, {
      added: ["u3", "u1", "u2"],
      taken: [
        ["u9", "Ops"],
        ["u8", "Sales"],
      ],
      restored: [
        ["u5", "on guardrail Legacy (3f2b8c1e…)"],
        ["u4", "on guardrail 3f2b8c1e"],
        ["u0", "removed by hand"],
      ],
      movedIn: [["u7", "Sales"]],
      removed: ["r2", "r1"],
      movedOut: [["u6", "Ops"]],
      verdicts: new Map([
        ["u1", verdict("loosening", [raised])],
        ["u3", verdict("loosening", [raised])],
        ["r1", verdict("tightening")],
      ]),
    });
    Object.assign(g.sets.keys, { secret: true });
    expect(body([g]).split("\n\n").slice(2)).toMatchInlineSnapshot(`
      [
        "Members:
      - added: \`u1\`, \`u3\` · 🔓 **loosens**: limitUsd raised
      - added: \`u2\`
      - added: \`u8\` (moves from Sales)
      - added: \`u9\` (moves from Ops)
      - put back: \`u0\` (was removed by hand)
      - put back: \`u4\` (was on guardrail 3f2b8c1e)
      - put back: \`u5\` (was on guardrail \`Legacy\`)
      - moved here from Sales: \`u7\`
      - removed: \`r1\` · 🔒 tightens
      - removed: \`r2\`
      - moved to Ops: \`u6\`",
        "Keys:
      - changed (the list is secret: its contents are not shown) · ❔ **may loosen**
      ",
      ]
    `);
  });

  it("lists 50 ids of a kind, then counts the rest", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${String(i).padStart(2, "0")}`);
    const at = (n: number) => {
      const g = change("Eng", "same");
      g.sets.members.added = ids(n);
      g.sets.members.movedOut = ids(n).map((id) => [id, "Ops"]);
      return body([g]);
    };
    expect(at(50)).not.toContain("more");
    const many = at(51);
    expect(many).not.toContain("u50");
    expect(many).toContain("`u49`, … and 1 more\n");
    expect(many).toContain("\n- moved to Ops: `u49`\n- … and 1 more\n");
  });
});

describe("verdictText", () => {
  it("is empty without a verdict, the mark alone without gains or a note", () => {
    expect(verdictText(undefined)).toBe("");
    expect(verdictText(verdict("neutral"))).toBe(" · ➖ neutral");
  });

  it("counts list elements that change alike, names a single one, and adds the note", () => {
    expect(
      verdictText(verdict("loosening", [modelAdded("a"), raised, modelAdded("b"), modelAdded("a")], "judged *so*")),
    ).toBe(" · 🔓 **loosens**: allowedModels 3 added, limitUsd raised; judged *so*");
    expect(verdictText(verdict("unknown", [modelAdded("a")]))).toBe(" · ❔ **may loosen**: allowedModels `a` added");
    expect(verdictText(verdict("unknown", [], "a secret"))).toBe(" · ❔ **may loosen**: a secret");
  });

  it("names a change to a whole list apart from its elements that change alike", () => {
    const whole: Judged = { field: "allowedModels", what: "changed", direction: "unknown" };
    const element = (e: string): Judged => ({
      field: "allowedModels",
      element: e,
      what: "changed",
      direction: "unknown",
    });
    expect(verdictText(verdict("unknown", [whole, element("a")]))).toBe(
      " · ❔ **may loosen**: allowedModels changed, allowedModels `a` changed",
    );
    expect(verdictText(verdict("unknown", [element("a"), whole, element("b")]))).toBe(
      " · ❔ **may loosen**: allowedModels 2 changed, allowedModels changed",
    );
  });

  it("names 12 gains, then counts the rest", () => {
    const fields = ["limitUsd", "resetInterval", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11"];
    const gains = fields.map((field) => ({ field, what: "raised", direction: "loosening" }) as unknown as Judged);
    expect(verdictText(verdict("loosening", gains))).toBe(
      ` · 🔓 **loosens**: ${fields
        .slice(0, 12)
        .map((f) => `${f} raised`)
        .join(", ")}, … and 1 more`,
    );
  });
});
