/** The drift check's issue decision: open, update, close or nothing, and its strict inputs. */
import { describe, expect, it } from "vitest";
import { actionOutputs, decideDriftIssue, parseOpenIssues } from "../../tools/git-ci/drift-issue";

describe("decideDriftIssue", () => {
  it.each([
    [true, [], { action: "open" }],
    [true, [{ number: 12 }], { action: "update", issue: 12, duplicates: [] }],
    [true, [{ number: 30 }, { number: 12 }, { number: 30 }], { action: "update", issue: 12, duplicates: [30] }],
    [false, [{ number: 12 }], { action: "close", issues: [12] }],
    [false, [{ number: 30 }, { number: 12 }], { action: "close", issues: [12, 30] }],
    [false, [], { action: "none" }],
  ] as const)("drift %s with open issues %j: %j", (drift, open, expected) => {
    expect(decideDriftIssue(drift, [...open])).toEqual(expected);
  });

  it("prints GITHUB_OUTPUT lines", () => {
    expect(actionOutputs({ action: "update", issue: 12, duplicates: [30, 31] })).toBe("action=update\nissue=12\nduplicates=30 31\n");
    expect(actionOutputs({ action: "close", issues: [12] })).toBe("action=close\nissues=12\n");
    expect(actionOutputs({ action: "open" })).toBe("action=open\n");
  });
});

describe("parseOpenIssues", () => {
  it("reads gh's JSON and ignores extra fields", () => {
    expect(parseOpenIssues('[{"number": 3, "title": "x"}]')).toEqual([{ number: 3 }]);
    expect(parseOpenIssues("[]")).toEqual([]);
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
