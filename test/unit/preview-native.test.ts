/**
 * The preview and drift summaries over the native face (issue 26): `guardrails:index:*` steps
 * summarised as the dynamic face's are, a mix of faces in one preview, set inputs as the
 * program's lists (`memberUserIds`, `keyHashes`), the `import` step, and look-alike tokens of
 * other packages left out.
 */
import { describe, expect, it } from "vitest";
import { summarizePreview } from "../../src/preview/summary";
import { summarizeDrift } from "../../src/preview/drift";
import { guardrailStep, urn } from "../helpers/preview-steps";

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };
const nativeUrn = (type: string, name: string) => `urn:pulumi:prod::p::guardrails:index:${type}::${name}`;
/** A step of the dynamic face's as the native face shows it: its token, and its sets' ids as the program's lists. */
function nativeStep(s: Record<string, any>): Record<string, any> {
  const [, type, name] = /dynamic\/guardrails:(\w+)::(.*)$/.exec(s.urn)!;
  const lists = (st: Record<string, any> | undefined) => {
    if (!st?.inputs) return st;
    const { members, keys, moves: _moves, ...rest } = st.inputs;
    const list = (m: Record<string, unknown>) => Object.keys(m).filter((k) => m[k] === true);
    return {
      ...st,
      inputs: {
        ...rest,
        ...(members ? { memberUserIds: list(members) } : {}),
        ...(keys ? { keyHashes: list(keys) } : {}),
      },
    };
  };
  return { ...s, urn: nativeUrn(type!, name!), oldState: lists(s.oldState), newState: lists(s.newState) };
}

const STEPS = [
  guardrailStep("replace", "lab", "g-lab", { name: "Lab", workspaceId: "ws-1" }, { name: "Lab", workspaceId: "ws-2" }),
  { op: "delete", urn: urn("Guardrail", "old"), oldState: { id: "g-old", inputs: { name: "Old" } } },
  guardrailStep(
    "update",
    "eng",
    "g-eng",
    { name: "Eng", description: SECRET, allowedModels: ["b", "a"], contentFilterBuiltins: [{ slug: "email" }] },
    { name: "Eng", description: "[secret]", allowedModels: ["a", "b"], contentFilterBuiltins: [] },
  ),
  guardrailStep("same", "ops", "g-ops", { name: "Ops" }, { name: "Ops" }),
  {
    op: "update",
    urn: urn("GuardrailMemberAssignment", "eng-members"),
    oldState: {
      inputs: { guardrailId: "g-eng", members: { user_a: true } },
      outputs: { members: { user_a: true, user_c: "not assigned", user_z: "assigned here, not in the program" } },
    },
    newState: { inputs: { guardrailId: "g-eng", members: { user_a: true, user_c: true, user_m: true } } },
  },
  {
    op: "update",
    urn: urn("GuardrailMemberAssignment", "ops-members"),
    oldState: { inputs: { guardrailId: "g-ops", members: { user_m: true } }, outputs: { members: { user_m: true } } },
    newState: { inputs: { guardrailId: "g-ops", members: {} } },
  },
  {
    op: "create",
    urn: urn("GuardrailKeyAssignment", "eng-keys"),
    newState: { inputs: { guardrailId: "g-eng", keys: { k1: true, k2: true } } },
  },
];

describe("summarizePreview on the native face", () => {
  const dynamic = summarizePreview({ steps: STEPS });

  it("summarises native steps exactly as the dynamic face's", () => {
    expect(dynamic).toContain("moved here from `Ops`: `user_m`");
    expect(summarizePreview({ steps: STEPS.map(nativeStep) })).toBe(dynamic);
  });

  it("a mix of faces in one preview: the same summary (a member moves from a dynamic set to a native one)", () => {
    const mixed = STEPS.map((s, i) => (i % 2 ? nativeStep(s) : s));
    expect(summarizePreview({ steps: mixed })).toBe(dynamic);
  });

  it("a native set whose state holds only the program's list: added and removed from the lists", () => {
    const md = summarizePreview({
      steps: [
        {
          op: "update",
          urn: nativeUrn("GuardrailMemberAssignment", "eng-members"),
          oldState: { inputs: { guardrailId: "g", memberUserIds: ["user_a", "user_b"] }, outputs: {} },
          newState: { inputs: { guardrailId: "g", memberUserIds: ["user_b", "user_c"] } },
        },
      ],
    });
    expect(md).toContain("- added: `user_c`");
    expect(md).toContain("- removed: `user_a`");
  });

  it("a native list with one secret item is a secret list: no id of it shown", () => {
    const md = summarizePreview({
      steps: [
        {
          op: "update",
          urn: nativeUrn("GuardrailKeyAssignment", "eng-keys"),
          oldState: { inputs: { guardrailId: "g", keyHashes: ["k-old"] }, outputs: { keys: { "k-old": true } } },
          newState: { inputs: { guardrailId: "g", keyHashes: ["k-plain", SECRET] } },
        },
      ],
    });
    expect(md).toContain("the list is secret");
    expect(md).not.toMatch(/k-plain|k-old|v1:abc/);
  });

  it("an import step adopts into the stack: counted as imported, its set's ids not added", () => {
    const md = summarizePreview({
      steps: [
        {
          op: "import",
          urn: nativeUrn("Guardrail", "eng"),
          newState: { id: "g-eng", inputs: { name: "Eng", limitUsd: 5 } },
        },
        {
          op: "import",
          urn: nativeUrn("GuardrailMemberAssignment", "eng-members"),
          newState: { id: "g-eng/members", inputs: { guardrailId: "g-eng", memberUserIds: ["user_a"] } },
        },
      ],
    });
    expect(md).toContain("**Guardrails: 1 imported · members: no change · keys: no change**");
    expect(md).toContain("### `Eng` (`eng`): imported (adopted as it is on the service; nothing changes there)");
    expect(md).not.toContain("user_a");
  });

  it("look-alike tokens of other packages are not summarised", () => {
    for (const type of ["x:index:Guardrail", "guardrailsx:index:Guardrail", "pulumi-nodejs:dynamic/other:Guardrail"]) {
      const md = summarizePreview({
        steps: [{ op: "create", urn: `urn:pulumi:prod::p::${type}::g`, newState: { inputs: { name: "G" } } }],
      });
      expect(md, type).toBe("**Guardrails: no changes.**\n");
    }
  });
});

describe("summarizeDrift on the native face", () => {
  const drifted = (u: (t: string, n: string) => string) => ({
    steps: [
      {
        op: "update",
        urn: u("Guardrail", "eng"),
        oldState: { id: "g-eng", inputs: { name: "Eng", limitUsd: 9 } },
        newState: { inputs: { name: "Eng", limitUsd: 5 } },
      },
    ],
  });

  it("reads native steps as the dynamic face's", () => {
    const md = summarizeDrift(drifted(nativeUrn));
    expect(md).toContain("- `Eng` (`eng`): `limitUsd` changed on the service.");
    expect(md).toBe(summarizeDrift(drifted(urn)));
  });

  it("a look-alike Guardrail of another package is not one of ours", () => {
    const md = summarizeDrift(drifted((t, n) => `urn:pulumi:prod::p::x:index:${t}::${n}`));
    expect(md).not.toContain("changed on the service");
  });
});
