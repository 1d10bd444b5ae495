/** The drift check's issue decision: open, update, close or nothing, and its strict inputs. */
import { describe, expect, it } from "vitest";
import { actionOutputs, decideDriftIssue, DRIFT_MARKER, parseOpenIssues } from "../../tools/ci/drift-issue";

const ours = (number: number) => ({ number, ours: true });

describe("decideDriftIssue", () => {
  it.each([
    [true, [], { action: "open" }],
    [true, [ours(12)], { action: "update", issue: 12, duplicates: [] }],
    [true, [ours(30), ours(12), ours(30)], { action: "update", issue: 12, duplicates: [30] }],
    [false, [ours(12)], { action: "close", issues: [12] }],
    [false, [ours(30), ours(12)], { action: "close", issues: [12, 30] }],
    [false, [], { action: "none" }],
  ] as const)("drift %s with open issues %j: %j", (drift, open, expected) => {
    expect(decideDriftIssue(drift, [...open])).toEqual(expected);
  });

  it("an issue that only carries the label (someone else's) is never updated or closed", () => {
    const open = parseOpenIssues(
      JSON.stringify([
        { number: 3, author: { login: "mallory", is_bot: false }, body: `${DRIFT_MARKER}\nplease overwrite me` },
      ]),
    );
    expect(decideDriftIssue(true, open)).toEqual({ action: "open" });
    expect(decideDriftIssue(false, open)).toEqual({ action: "none" });
  });

  it("prints GITHUB_OUTPUT lines", () => {
    expect(actionOutputs({ action: "update", issue: 12, duplicates: [30, 31] })).toBe(
      "action=update\nissue=12\nduplicates=30 31\n",
    );
    expect(actionOutputs({ action: "close", issues: [12] })).toBe("action=close\nissues=12\n");
    expect(actionOutputs({ action: "open" })).toBe("action=open\n");
  });
});

describe("parseOpenIssues", () => {
  const bot = { login: "app/github-actions", is_bot: true };
  it("reads gh's JSON and ignores extra fields", () => {
    expect(
      parseOpenIssues(
        JSON.stringify([{ number: 3, title: "x", author: bot, body: `${DRIFT_MARKER}\n\n## Guardrails drift` }]),
      ),
    ).toEqual([{ number: 3, ours: true }]);
    expect(parseOpenIssues("[]")).toEqual([]);
  });

  it.each([
    ["the bot, as gh names it, with the marker first", bot, `${DRIFT_MARKER}\n\nbody`, true],
    ["the bot, as the REST API names it", { login: "github-actions[bot]" }, `\n${DRIFT_MARKER}\nbody`, true],
    ["the bot, as GraphQL names it, flagged a bot", { login: "github-actions", is_bot: true }, DRIFT_MARKER, true],
    ["a user called github-actions, not flagged a bot", { login: "github-actions" }, DRIFT_MARKER, false],
    ["a person who copied the marker", { login: "mallory", is_bot: false }, DRIFT_MARKER, false],
    ["another bot", { login: "app/dependabot", is_bot: true }, DRIFT_MARKER, false],
    ["the bot, without the marker (another workflow's issue)", bot, "## Weekly report", false],
    ["the bot, quoting the marker further down", bot, `A user wrote:\n${DRIFT_MARKER}`, false],
    ["no author (a deleted account)", null, DRIFT_MARKER, false],
    ["no body field", bot, undefined, false],
  ])("%s", (_, author, body, expected) => {
    expect(parseOpenIssues(JSON.stringify([{ number: 5, author, body }]))[0]!.ours).toBe(expected);
  });

  it.each([
    ["", "the open-issues file is not JSON"],
    ['{"number": 3}', "the open-issues file holds object; expected a JSON list"],
    ['[{"number": "3\\nissue=1"}]', 'open issue [0]: number "3\\nissue=1" is not a positive integer'],
    ['[{"number": 0}]', "open issue [0]: number 0 is not a positive integer"],
    ["[null]", "open issue [0]: number undefined is not a positive integer"],
  ])("refuses %j, naming what it saw", (text, message) => {
    expect(() => parseOpenIssues(text)).toThrow(message);
  });
});
