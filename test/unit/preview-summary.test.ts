import { describe, expect, it } from "vitest";
import { summarizePreview } from "../../src/preview/summary";
import { FOREIGN, UNCONFIRMED, UNCONFIRMED_FOREIGN } from "../../src/core/assignments/status";
import { guardrailStep, urn } from "../helpers/preview-steps";

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" };

describe("summarizePreview", () => {
  it("calls out replacements and deletions first, masks secrets, and names moves and restores", () => {
    const md = summarizePreview({
      steps: [
        guardrailStep(
          "replace",
          "lab",
          "g-lab",
          { name: "Lab", workspaceId: "ws-1" },
          { name: "Lab", workspaceId: "ws-2" },
        ),
        { op: "delete", urn: urn("Guardrail", "old"), oldState: { id: "g-old", inputs: { name: "Old" } } },
        guardrailStep(
          "update",
          "eng",
          "g-eng",
          { name: "Eng", description: SECRET, allowedModels: ["b", "a"] },
          { name: "Eng", description: "[secret]", allowedModels: ["a", "b"] },
        ),
        guardrailStep("same", "ops", "g-ops", { name: "Ops" }, { name: "Ops" }),
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: {
            inputs: { guardrailId: "g-eng" },
            outputs: { members: { user_a: true, user_c: "not assigned", user_z: "assigned here, not in the program" } },
          },
          newState: { inputs: { guardrailId: "g-eng", members: { user_a: true, user_c: true, user_m: true } } },
        },
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "ops-members"),
          oldState: { inputs: { guardrailId: "g-ops" }, outputs: { members: { user_m: true } } },
          newState: { inputs: { guardrailId: "g-ops", members: {} } },
        },
      ],
    });
    expect(md).toMatchInlineSnapshot(`
      "**❔ May loosen** (cannot tell from the preview): 1 member returns to \`Eng\` (\`user_c\`); 1 member leaves \`Eng\` for no assignment (\`user_z\`) · touches 2 members and 0 keys

      **❔ Effective access may widen** (a layer cannot be known at preview): member \`user_c\`, member \`user_m\`, member \`user_z\`

      ### Effective access

      What each member and key can use after every layer applies (docs/effective-access.md):

      - ❔ **may loosen** · member \`user_c\` (no layer → \`Eng\`): judged guardrail against guardrail in its section; cannot be known at preview: \`its own guardrail, if any: no set of this stack assigns it (a guardrail outside the stack may hold it)\`, \`the workspace default guardrail of "ws-2": not managed by this stack\`, \`the workspace default model availability policy of "ws-2": not managed by this stack\`, … and 1 more
      - ❔ **may loosen** · member \`user_m\` (\`Ops\` → \`Eng\`): judged guardrail against guardrail in its section; cannot be known at preview: \`the workspace default model availability policy of "ws-2": not managed by this stack\`
      - ❔ **may loosen** · member \`user_z\` may gain \`allowed models: no longer restricted (was 2 allowed)\` (\`Eng\` → no layer): judged guardrail against guardrail in its section; cannot be known at preview: \`a layer states no workspaceId: taken to be in "ws-2", the only workspace this stack names (the API does not say which workspace is the organ…\`, \`the workspace default guardrail of "ws-2": not managed by this stack\`, \`the workspace default model availability policy of "ws-2": not managed by this stack\`
      - ➖ no effective change · member \`user_a\` (\`Eng\` changes): its other layers still decide what it can use

      **Guardrails: 1 updated, 1 replaced, 1 deleted · members: 1 added, 1 removed, 1 moved · keys: no change**

      ### Replacements and deletions

      - \`Lab\` (\`lab\`) is **replaced** (a new guardrail, then the old one deleted): workspaceId \`ws-1\` → \`ws-2\`.
      - \`Old\` (\`old\`) is **deleted**, with its member and key assignments.

      ### \`Eng\` (\`eng\`): update · ➖ neutral

      - ➖ neutral · description: \`[secret]\` → \`[secret]\` (secret, cannot compare)

      Members:
      - put back: \`user_c\` (was not assigned) · ❔ **may loosen**: had no assignment: it was on its workspace's default guardrail, not in this preview; a layer cannot be known at preview (see Effective access): judged guardrail against guardrail
      - moved here from \`Ops\`: \`user_m\` · 🔒 tightens: a layer cannot be known at preview (see Effective access): judged guardrail against guardrail
      - removed: \`user_z\` · ❔ **may loosen**: no assignment left, and no workspace default in this stack to compare with; a layer cannot be known at preview (see Effective access): judged guardrail against guardrail

      ### \`Lab\` (\`lab\`): replace

      - ➖ neutral · workspaceId: \`ws-1\` → \`ws-2\`

      ### \`Old\` (\`old\`): delete

      ### \`Ops\` (\`ops\`): assignments only

      Members:
      - moved to \`Eng\`: \`user_m\` · 🔒 tightens: a layer cannot be known at preview (see Effective access): judged guardrail against guardrail
      "
    `);
    expect(md).not.toContain("v1:abc");
  });

  it("an id a failed up left unconfirmed may be here: dropping it may loosen, asking for it adds it (issue 38)", () => {
    const md = summarizePreview({
      steps: [
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: {
            inputs: { guardrailId: "g-eng" },
            outputs: { members: { user_a: true, user_u: UNCONFIRMED, user_n: UNCONFIRMED } },
          },
          newState: { inputs: { guardrailId: "g-eng", members: { user_a: true, user_n: true } } },
        },
      ],
    });
    expect(md).toMatch(/^\*\*❔ May loosen\*\*.*\(`user_u`\)/);
    expect(md).toContain("- removed: `user_u`");
    expect(md).toContain("- added: `user_n`");
    expect(md).not.toContain("put back");
  });

  it("a foreign id a failed up left unconfirmed: an exclusive set removes it; a switch to additive releases it (issue 38)", () => {
    const step = (exclusive: boolean) => ({
      op: "update",
      urn: urn("GuardrailMemberAssignment", "eng-members"),
      oldState: {
        inputs: { guardrailId: "g-eng", exclusive: true },
        outputs: { exclusive: true, members: { user_a: true, user_f: UNCONFIRMED_FOREIGN, user_h: FOREIGN } },
      },
      newState: { inputs: { guardrailId: "g-eng", exclusive, members: { user_a: true } } },
    });
    const kept = summarizePreview({ steps: [step(true)] });
    expect(kept).toContain("- removed: `user_f`, `user_h`");
    expect(kept).not.toContain("put back");
    // Additive leaves alone what the program does not list: released, not removed.
    const released = summarizePreview({ steps: [step(false)] });
    expect(released).not.toMatch(/removed|put back|user_f|user_h/);
  });

  it("ignores the refresh steps of preview --refresh", () => {
    const md = summarizePreview({
      steps: [
        guardrailStep("update", "eng", "g", { name: "Eng", limitUsd: 1 }, { name: "Eng", limitUsd: 2 }),
        guardrailStep("refresh", "eng", "g", { name: "Eng", limitUsd: 1 }, { name: "Eng", limitUsd: 1 }),
      ],
    });
    expect(md).toContain("- 🔓 **loosens** · limitUsd: `1` → `2` (raised)");
    expect(md.split("\n")[0]).toBe(
      "**🔓 Loosens:** `Eng` (limitUsd) · touches any members and keys on `Eng` this preview does not list",
    );
  });

  it("says so when nothing changes", () => {
    expect(
      summarizePreview({
        steps: [{ op: "same", urn: urn("Guardrail", "eng"), oldState: { inputs: { name: "Eng" } } }],
      }),
    ).toBe("**Guardrails: no changes.**\n");
  });
});
