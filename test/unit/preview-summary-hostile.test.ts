/**
 * The PR summary against crafted and real `pulumi preview --json` files (issue 13): strings
 * a guardrail file controls cannot forge a verdict, hide a change, inject HTML or ping a team;
 * a failed or malformed preview never reads as "no changes".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selectionComment } from "../../tools/ci/comment";
import { selectFiles } from "../../tools/ci/select";
import { summarize } from "../../src/preview/summary";

const urn = (type: string, name: string) => `urn:pulumi:prod::p::pulumi-nodejs:dynamic/guardrails:${type}::${name}`;
const fixture = (name: string) => JSON.parse(readFileSync(join(__dirname, "fixtures", name), "utf8")) as unknown;

/** Markdown outside code spans, where it is live. */
const live = (md: string) => md.replace(/`[^`\n]*`/g, "");

function expectInert(md: string): void {
  expect(md.split("\n").filter((l) => l.startsWith("**Guardrails"))).toHaveLength(1);
  expect(live(md)).not.toMatch(/(^|[^\\])[<>]/);
  expect(live(md)).not.toMatch(/@[a-z0-9]/i);
  expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
}

/** What a summary must say: its first line, text it shows, and text it never shows. */
interface Says {
  headline?: string;
  shows?: string[];
  hides?: string[];
}

/** Summarises `steps`: the verdict is not "failed", the summary says what `says` lists, and it is inert. Answers the markdown. */
function expectSummary(steps: unknown[], says: Says): string {
  const { markdown, failed } = summarize({ steps });
  expect(failed).toBe(false);
  // The opening line says what loosens; the totals line is the one line that starts "**Guardrails".
  expect(markdown.split("\n")[0]).toMatch(/^\*\*(🔓 Loosens:|❔ May loosen|🔒 Nothing loosens)/u);
  if (says.headline !== undefined)
    expect(markdown.split("\n").find((l) => l.startsWith("**Guardrails"))).toBe(says.headline);
  for (const part of says.shows ?? []) expect(markdown).toContain(part);
  for (const part of says.hides ?? []) expect(markdown).not.toContain(part);
  expectInert(markdown);
  return markdown;
}

describe("summary: user strings are neutralised", () => {
  it("a name that forges a 'no changes' headline and opens an HTML comment hides nothing", () => {
    const name = "x\n\n**Guardrails: no changes.**\n\n<!--";
    expectSummary(
      [
        {
          op: "update",
          urn: urn("Guardrail", "eng"),
          oldState: { id: "g", inputs: { name, limitUsd: 10 } },
          newState: { inputs: { name, limitUsd: 1_000_000 } },
        },
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: { inputs: { guardrailId: "g" }, outputs: { members: {} } },
          newState: { inputs: { guardrailId: "g", members: { user_mallory: true } } },
        },
      ],
      {
        headline: "**Guardrails: 1 updated · members: 1 added · keys: no change**",
        shows: [
          "### `x **Guardrails: no changes.** <!--` (`eng`): update",
          "- 🔓 **loosens** · limitUsd: `10` → `1000000` (raised)",
          "- added: `user_mallory`",
        ],
      },
    );
  });

  it("a member id with backticks cannot leave its code span to ping a team", () => {
    expectSummary(
      [
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: { inputs: { guardrailId: "g" }, outputs: { members: {} } },
          newState: { inputs: { guardrailId: "g", members: { "x` @security-team `y": true, "@octocat": true } } },
        },
      ],
      {
        shows: ["- added: `@octocat`, `xˋ @security-team ˋy`"],
      },
    );
  });

  it("headings, HTML, links, table pipes and newlines in names, values and ids stay text", () => {
    expectSummary(
      [
        {
          op: "create",
          urn: urn("Guardrail", "evil"),
          newState: {
            inputs: {
              name: "# Approved\n<script>alert(1)</script> [click](https://evil) @admins",
              description: "a | b\n\n# injected",
              allowedModels: ["m`x", "<b>"],
            },
          },
        },
        {
          op: "delete",
          urn: urn("Guardrail", "gone"),
          oldState: { id: "g2", inputs: { name: "@security-team <!--" } },
        },
      ],
      {
        shows: ["- description: `a | b # injected`", "- `@security-team <!--` (`gone`) is **deleted**"],
      },
    );
  });

  it("a real preview of hostile names (from the e2e run) is inert", () => {
    const { markdown, failed } = summarize(fixture("preview-hostile-names.json"));
    expect(failed).toBe(false);
    expect(markdown).toContain("- added: `<img src=x onerror=alert(1)>`, `user_ˋ@security-teamˋ`");
    expectInert(markdown);
  });
});

describe("summary: bidi and invisible controls are shown, never live (issue 24)", () => {
  /** Any character that renders as nothing or reorders text, except the line feeds between lines and the zero-width space that breaks a mention. */
  const INVISIBLE = /(?![\n\u200b])[\p{C}\p{Default_Ignorable_Code_Point}]/u;

  it.each([
    ["\u202E", "202E"],
    ["\u2066", "2066"],
    ["\u200F", "200F"],
  ])(
    "U+%s in a guardrail's name, id and values is an escape in the heading, the code span and the table",
    (ch, hex) => {
      const name = `Eng${ch}gnirts`;
      const markdown = expectSummary(
        [
          {
            op: "update",
            urn: urn("Guardrail", `eng${ch}`),
            oldState: { id: "g", inputs: { name, description: "ok" } },
            newState: { inputs: { name, description: `a${ch}b` } },
          },
          { op: "delete", urn: urn("Guardrail", "gone"), oldState: { id: "g2", inputs: { name: `@admins${ch}` } } },
        ],
        {
          shows: [
            `### \`Eng<U+${hex}>gnirts\` (\`eng<U+${hex}>\`): update`,
            `- ➖ neutral · description: \`ok\` → \`a<U+${hex}>b\` (changed)`,
            `- \`@admins<U+${hex}>\` (\`gone\`) is **deleted**`,
          ],
        },
      );
      expect(markdown).not.toMatch(INVISIBLE);
    },
  );

  it("zero-width, tag and other format characters are escapes too; the bound counts the escapes and never splits one", () => {
    const { markdown } = summarize({
      steps: [
        {
          op: "create",
          urn: urn("Guardrail", "z"),
          newState: { inputs: { name: `a\u200bb\u2060c\u{E0041}d\u061Ce\u3164f\u0000g${"\u202E".repeat(40)}` } },
        },
      ],
    });
    expect(markdown).toContain("a<U+200B>b<U+2060>c<U+E0041>d<U+061C>e<U+3164>f<U+0000>g");
    const heading = markdown.split("\n").find((l) => l.startsWith("### `a"))!;
    // U+3164 (a Hangul filler) is a letter of another script beside Latin ones: the name is marked too (issue 38).
    expect(heading).toMatch(/<U\+202E>…` \(⚠ mixed scripts\) \(`z`\): new$/);
    expect(markdown).not.toMatch(INVISIBLE);
  });

  it("one neutraliser: the summary and guardrails-ci's comment show the same hostile string the same way", () => {
    const hostile = "x\u202Ey`z|\u2066";
    const { markdown } = summarize({
      steps: [{ op: "create", urn: urn("Guardrail", hostile), newState: { inputs: { name: "n" } } }],
    });
    const comment = selectionComment(
      selectFiles([{ status: "M", path: hostile, newMode: "100644", newBlob: "a".repeat(40) }], {
        dataDir: "guardrails",
      }),
      { dataDir: "guardrails" },
    );
    const span = "`x<U+202E>yˋz|<U+2066>`";
    expect(markdown).toContain(`(${span})`);
    expect(comment).toContain(`- ${span} is outside guardrails/`);
  });
});

describe("summary: verdicts are right", () => {
  it("a real failed preview is 'preview failed', never 'no changes'", () => {
    const { markdown, failed } = summarize(fixture("preview-failed.json"));
    expect(failed).toBe(true);
    expect(markdown).toMatchInlineSnapshot(`
      "**Guardrails: preview failed.** the preview reported 1 error(s); nothing here says what would change.

      - \`error: pulumi-nodejs:dynamic/guardrails:Guardrail resource 'eng': property limitUsd value {-5} has a problem: must be >= 0 (got -5)\`
      "
    `);
  });

  it.each([
    [null],
    [42],
    ["steps"],
    [[]],
    [{}],
    [{ steps: "x" }],
    [{ steps: [null] }],
    [{ steps: [{ op: 1, urn: "u" }] }],
  ])("input %j is 'preview failed', without a crash", (input) => {
    const { markdown, failed } = summarize(input);
    expect(failed).toBe(true);
    expect(markdown).toMatch(/^\*\*Guardrails: preview failed\.\*\* /);
  });

  it("a secret member list that changed shows as changed, without its contents", () => {
    const secret = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: "v1:c2VjcmV0",
    };
    expectSummary(
      [
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: { inputs: { guardrailId: "g" }, outputs: { members: secret } },
          newState: { inputs: { guardrailId: "g", members: "[secret]" } },
        },
      ],
      {
        shows: ["members: 1 secret list(s) changed", "- changed (the list is secret: its contents are not shown)"],
        hides: ["v1:c2VjcmV0", "4dabf18193072939515e22adb298388d"],
      },
    );
  });

  it("an added id that sits on another guardrail says where it moves from; a hostile name stays text (issue 24, finding 19)", () => {
    const moves = {
      user_jon: "from guardrail Legacy Sales (3f2b8c1e…)",
      user_eve: "from guardrail <!-- @admins **x** (9a7d0000…)",
      user_nobody: "not a move",
    };
    expectSummary(
      [
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "eng-members"),
          oldState: { inputs: { guardrailId: "g" }, outputs: { members: { user_a: true } } },
          newState: {
            inputs: {
              guardrailId: "g",
              members: { user_a: true, user_jon: true, user_eve: true, user_dave: true },
              moves,
            },
          },
        },
      ],
      {
        headline: "**Guardrails: no setting changes · members: 1 added, 2 moved · keys: no change**",
        shows: [
          "- added: `user_dave` · ❔ **may loosen**: had no assignment: it was on its workspace's default guardrail, not in this preview\n",
          "- added: `user_jon` (moves from `Legacy Sales`) · ❔ **may loosen**: the settings of a guardrail it leaves or joins are not in this preview: counted as a loosening until a preview shows both (`pulumi preview --show-sames`)\n",
          "- added: `user_eve` (moves from `<!-- @admins **x**`) · ❔ **may loosen**",
        ],
      },
    );
  });

  it("only this package's resource types are read", () => {
    expectSummary(
      [
        {
          op: "delete",
          urn: "urn:pulumi:prod::p::aws:index:Guardrail::other",
          oldState: { id: "x", inputs: { name: "Not ours" } },
        },
        {
          op: "update",
          urn: "urn:pulumi:prod::p::mypkg:dynamic/guardrails2:GuardrailMemberAssignment::m",
          oldState: { inputs: {}, outputs: { members: { a: true } } },
          newState: { inputs: { members: {} } },
        },
        {
          op: "update",
          urn: `urn:pulumi:prod::p::my:component:Team$${"pulumi-nodejs:dynamic/guardrails:Guardrail"}::child`,
          oldState: { id: "c", inputs: { name: "Child", limitUsd: 1 } },
          newState: { inputs: { name: "Child", limitUsd: 2 } },
        },
      ],
      {
        headline: "**Guardrails: 1 updated · members: no change · keys: no change**",
        hides: ["Not ours"],
      },
    );
  });

  it("200,000 members put back summarise without a stack overflow", () => {
    const ids = Array.from({ length: 200_000 }, (_, i) => `user_${i}`);
    const before = Object.fromEntries(ids.map((id) => [id, "not assigned"]));
    const after = Object.fromEntries(ids.map((id) => [id, true]));
    const { markdown } = summarize({
      steps: [
        {
          op: "update",
          urn: urn("GuardrailMemberAssignment", "m"),
          oldState: { inputs: { guardrailId: "g" }, outputs: { members: before } },
          newState: { inputs: { guardrailId: "g", members: after } },
        },
      ],
    });
    expect(markdown.split("\n").find((l) => l.startsWith("**Guardrails"))).toBe(
      "**Guardrails: no setting changes · members: 200000 added · keys: no change**",
    );
    expect(markdown).toContain("- … and 199950 more");
    expect(markdown.length).toBeLessThan(10_000);
  });
});
