/**
 * Attack pass on the native face's data-source failures (issue 42): their property names the
 * arg in every language (`workspaceId; workspace_id in Python, WorkspaceId in Go`). An unknown
 * arg's name is the program's own text, shown escaped and cut (`\u001b[31m...`): it has no
 * Python or Go spelling, and one made from its escaped text is a wrong answer (`\U001b[31M`,
 * read as another escape) three times as long. Only a path of the schema's kind of names gets one.
 */
import { describe, expect, it } from "vitest";
import { otherLanguagesName } from "../../src/core/args/messages";
import { parseLookupArgs } from "../../src/core/data-sources/args";

const G = "3f2b8c1e-0000-4000-8000-000000000001";

const propertiesOf = (args: Record<string, unknown>) => {
  const parsed = parseLookupArgs("getGuardrail", args);
  if (parsed.ok) throw new Error("parsed");
  return parsed.failures.map((f) => f.property);
};

describe("otherLanguagesName on a data source's failures", () => {
  it("names a known multi-word arg in Python and Go", () => {
    expect(otherLanguagesName("workspaceId")).toBe("workspace_id in Python, WorkspaceId in Go");
    expect(otherLanguagesName("contentFilterBuiltins[1].scanScope")).toBe(
      "content_filter_builtins[1].scan_scope in Python, ContentFilterBuiltins[1].ScanScope in Go",
    );
  });

  it("gives no other name for an unknown arg's escaped or cut text", () => {
    const [escaped, huge, newline] = propertiesOf({
      id: G,
      "\u001b[31mEvilKey\u202e": 1,
      ["A".repeat(5000)]: 2,
      "memberUserId\nX": 3,
    });
    expect(escaped).toBe("\\u001b[31mEvilKey\\u202e");
    for (const property of [escaped!, huge!, newline!]) expect(otherLanguagesName(property)).toBeUndefined();
  });
});
