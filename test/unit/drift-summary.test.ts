/**
 * The drift summary, judged on golden files made from real CLI output: test/e2e/git-workflow
 * drifts a stack by hand (a member moved, a limit changed, a guardrail deleted), keeps the
 * normalised `pulumi preview --refresh --json` as drift-preview.json, and regenerates both files
 * with UPDATE_GOLDEN=1.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasDrift, MAX_DRIFT_CHARS, summarizeDrift } from "../../src/preview/drift";
import { summarizePreview } from "../../src/preview/summary";
import { UNCONFIRMED, UNCONFIRMED_FOREIGN } from "../../src/core/assignments/status";
import { guardrailStep, urn } from "../helpers/preview-steps";

const golden = join(__dirname, "../e2e/golden");
const fixture = () => JSON.parse(readFileSync(join(golden, "drift-preview.json"), "utf8"));

describe("summarizeDrift", () => {
  it("a member moved, a limit changed and a guardrail deleted: matches the golden Markdown", () => {
    const preview = fixture();
    expect(hasDrift(preview)).toBe(true);
    expect(summarizeDrift(preview)).toBe(readFileSync(join(golden, "drift-summary.md"), "utf8"));
  });

  it("names each hand change in the service's terms", () => {
    const md = summarizeDrift(fixture());
    expect(md).toContain("- `Research` (`research`) is gone from the service (deleted by hand?)");
    expect(md).toContain("- `Support` (`support`): `limitUsd` changed on the service.");
    expect(md).toContain("- `user_bob` of `Engineering` (`engineering`): moved by hand to `Support` (`support`).");
    expect(md).toContain("- 🔒 tightens · limitUsd: `80` → `50` (lowered)");
  });

  it("no changed step: no drift, and the text says the service matches", () => {
    const preview = {
      steps: [
        { op: "refresh", urn: urn("Guardrail", "eng") },
        { op: "same", urn: urn("Guardrail", "eng") },
      ],
    };
    expect(hasDrift(preview)).toBe(false);
    expect(summarizeDrift(preview)).toBe(
      "## Guardrails: no drift\n\nThe service matches Git: `pulumi preview --refresh` found nothing to change.\n",
    );
  });

  it("a failed preview is never 'no drift': errors in diagnostics or no steps throw, naming what was seen", () => {
    const failed = { steps: [], diagnostics: [{ severity: "error", message: "guardrail: GET …: 401 Unauthorized" }] };
    expect(() => hasDrift(failed)).toThrow(
      "the preview reported 1 error(s), so drift is unknown; the first: guardrail: GET …: 401 Unauthorized",
    );
    expect(() => summarizeDrift({} as never)).toThrow("the input has no `steps` list");
    expect(() => hasDrift(null as never)).toThrow("the input has no `steps` list");
  });

  it("hand-made names cannot inject Markdown: every user string is an inline code span", () => {
    const HOSTILE = "[x](https://evil)\n# Heading `a`";
    const md = summarizeDrift({
      steps: [
        guardrailStep("update", "eng", "g1", { name: HOSTILE, limitUsd: 1 }, { name: HOSTILE, limitUsd: 2 }),
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: {
            inputs: { guardrailId: "g1" },
            outputs: {
              members: {
                "user_<b>": "not assigned",
                user_x: "assigned here, not in the program",
                user_u: UNCONFIRMED,
                user_v: UNCONFIRMED_FOREIGN,
              },
            },
          },
          newState: { inputs: { guardrailId: "g1", members: { "user_<b>": true } } },
        },
      ],
    });
    expect(md).toContain("- `[x](https://evil) # Heading ˋaˋ` (`eng`): `limitUsd` changed on the service.");
    expect(md).toContain("- `user_<b>` of `[x](https://evil) # Heading ˋaˋ` (`eng`): unassigned by hand.");
    expect(md).toContain("- `user_x` of `[x](https://evil) # Heading ˋaˋ` (`eng`): assigned here by hand, not in Git.");
    // A failed up's mark is no hand's doing (issue 38).
    expect(md).toContain(
      "- `user_u` of `[x](https://evil) # Heading ˋaˋ` (`eng`): not known whether assigned here (an `up` failed before the service said).",
    );
    expect(md).toContain(
      "- `user_v` of `[x](https://evil) # Heading ˋaˋ` (`eng`): not known whether assigned here (an `up` failed before the service said), not in Git.",
    );
  });

  it("names are shown as the PR summary shows them: look-alikes marked, a verdict-like name a code span (issue 38)", () => {
    const G2 = "3f2b8c1e-0000-4000-8000-000000000002";
    const md = summarizeDrift({
      steps: [
        guardrailStep(
          "update",
          "eng",
          "g1",
          { name: "Str\u0456ct", limitUsd: 1 },
          { name: "Str\u0456ct", limitUsd: 2 },
        ),
        {
          op: "same",
          urn: urn("Guardrail", "ops"),
          oldState: { id: G2, inputs: { name: "🔒 Nothing loosens: rename only" } },
          newState: { id: G2, inputs: { name: "🔒 Nothing loosens: rename only" } },
        },
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: {
            inputs: { guardrailId: "g1" },
            outputs: {
              members: {
                user_a: "on guardrail 🔒 Nothing loosens: rename only (3f2b8c1e…)",
                user_c: "on guardrail \u041epen (99999999…)",
              },
            },
          },
          newState: { inputs: { guardrailId: "g1", members: { user_a: true, user_c: true } } },
        },
      ],
    });
    expect(md).toContain("- `Str<U+0456>ct` (⚠ mixed scripts) (`eng`): `limitUsd` changed on the service.");
    expect(md).toContain(
      "- `user_a` of `Str<U+0456>ct` (⚠ mixed scripts) (`eng`): moved by hand to `🔒 Nothing loosens: rename only` (`ops`).",
    );
    expect(md).toContain("moved by hand to `<U+041E>pen` (⚠ mixed scripts).");
    expect(md).not.toContain("Str\u0456ct");
  });

  it("a move reads the named status and the id-only status of earlier versions alike", () => {
    const G2 = "3f2b8c1e-0000-4000-8000-000000000002";
    const md = summarizeDrift({
      steps: [
        {
          op: "same",
          urn: urn("Guardrail", "ops"),
          oldState: { id: G2, inputs: { name: "Operations" } },
          newState: { id: G2, inputs: { name: "Operations" } },
        },
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: {
            inputs: { guardrailId: "g1" },
            outputs: {
              members: {
                user_a: "on guardrail Operations (3f2b8c1e…)",
                user_b: `on guardrail ${G2}`,
                user_c: "on guardrail Gone `x` (99999999…)",
              },
            },
          },
          newState: { inputs: { guardrailId: "g1", members: { user_a: true, user_b: true, user_c: true } } },
        },
      ],
    });
    expect(md).toContain("- `user_a` of `eng-members`: moved by hand to `Operations` (`ops`).");
    expect(md).toContain("- `user_b` of `eng-members`: moved by hand to `Operations` (`ops`).");
    expect(md).toContain("- `user_c` of `eng-members`: moved by hand to `Gone ˋxˋ`.");
  });

  it("a huge drift is bounded to fit an issue body, cut at a line end, saying how much is left out", () => {
    // Long ids (the set allows 500 characters), so the facts alone pass the character cap even
    // though the preview summary below them lists at most 50 ids per kind of change.
    const tail = "x".repeat(400);
    const ids = Object.fromEntries(
      Array.from({ length: 5000 }, (_, i) => [`user_${String(i).padStart(5, "0")}${tail}`, "not assigned"]),
    );
    const md = summarizeDrift({
      steps: [
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: { inputs: { guardrailId: "g1" }, outputs: { members: ids } },
          newState: {
            inputs: { guardrailId: "g1", members: Object.fromEntries(Object.keys(ids).map((k) => [k, true])) },
          },
        },
      ],
    });
    expect(md.length).toBeLessThanOrEqual(MAX_DRIFT_CHARS);
    expect(md).toContain("of `eng-members`: unassigned by hand.");
  });
});

describe("summarizePreview under preview --refresh", () => {
  it("a guardrail whose only change is its member set reads 'assignments only', not 'refresh'", () => {
    const md = summarizePreview(fixture());
    expect(md).toContain("### `Engineering` (`engineering`): assignments only");
    expect(md).not.toContain(": refresh");
  });
});

describe("summarizeDrift: policies edited apart from a Guardrail (issue 40)", () => {
  const POLICY = "0b7c6a3e-1f2d-4c5b-9a8e-7d6c5b4a3f21";
  const refreshed = (unsyncedPolicies: unknown) => ({
    steps: [
      {
        op: "refresh",
        urn: urn("Guardrail", "eng"),
        oldState: { outputs: { name: "Eng" } },
        newState: { outputs: { name: "Eng", unsyncedPolicies } },
      },
      { op: "same", urn: urn("Guardrail", "eng") },
    ],
  });

  it("no change to apply, yet drift: each unsynced kind is named, with why `up` cannot repair it", () => {
    const preview = refreshed([
      { kind: "moderation", policyId: POLICY, deleted: false, enforces: { contentFilters: [] } },
      { kind: "budget", policyId: null, deleted: true, enforces: null },
    ]);
    expect(hasDrift(preview)).toBe(true);
    expect(summarizeDrift(preview)).toMatchInlineSnapshot(`
      "## Guardrails drift: the service no longer matches Git

      Guardrail policies edited in Guardrail Policies: the service no longer takes these kinds from the guardrail, and \`pulumi up\` cannot repair it (docs/resources/guardrail.md, "When its policies were edited apart"):

      - \`Eng\` (\`eng\`): its budget policy was deleted in Guardrail Policies; the service no longer enforces the guardrail's budget settings, and \`up\` cannot restore them (manage them as a \`BudgetPolicy\`, or remove them from the Guardrail).
      - \`Eng\` (\`eng\`): its moderation policy \`0b7c6a3e-1f2d-4c5b-9a8e-7d6c5b4a3f21\` was edited in Guardrail Policies and no longer follows the guardrail; \`up\` cannot repair it (manage it as a \`ModerationPolicy\` and remove its settings from the Guardrail).
      "
    `);
  });

  it("a policy no longer listed (unlisted) is named as such, never as edited or deleted", () => {
    const preview = refreshed([
      { kind: "moderation", policyId: POLICY, deleted: false, unlisted: true, enforces: null },
    ]);
    expect(hasDrift(preview)).toBe(true);
    const line = summarizeDrift(preview)
      .split("\n")
      .find((l) => l.startsWith("- "));
    expect(line).not.toContain("was edited");
    expect(line).not.toContain("was deleted");
    expect(line).toContain(`its moderation policy \`${POLICY}\` is no longer listed`);
  });

  it("none recorded, or state of 0.5.0 without the output: no drift", () => {
    expect(hasDrift(refreshed(undefined))).toBe(false);
    expect(hasDrift(refreshed([]))).toBe(false);
  });

  it("a hostile policy id or kind cannot inject Markdown", () => {
    const md = summarizeDrift(
      refreshed([{ kind: "moderation", policyId: "x`](https://evil)\n# h", deleted: false }, { kind: "<b>" }]),
    );
    expect(md).not.toContain("\n# h");
    expect(md).not.toContain("<b>");
    expect(md.match(/^- /gm)).toHaveLength(1);
  });
});
