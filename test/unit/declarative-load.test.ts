/** Load-time validation of declarative guardrail files: every kind of bad file, with file:line:column. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadGuardrailConfigs } from "../../src/declarative/load";
import { problemsIn } from "../helpers/declarative";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function load(files: Record<string, string>): string[] {
  dir = mkdtempSync(join(tmpdir(), "gr-decl-"));
  return problemsIn(dir, files);
}

describe("declarative files: bad input", () => {
  it("reports every kind of problem in one file at once, each with file:line:column", () => {
    const problems = load({
      "eng.yaml": `guardrails:
  engineering:
    name: Engineering
    limitUsd: "five hundred"
    resetInterval: hourly
    allowedModels: []
    workspaceId: ws-1
    limitUSD: 5
    contentFilterBuiltins:
      - slug: email
        action: flag
    contentFilters:
      - pattern: "("
        action: block
    members:
      ids: [user_alice, ""]
      exclusiv: true
  Bad_Id:
    name: x
  nameless:
    description: no name here
`,
    });
    expect(problems).toMatchInlineSnapshot(`
      [
        "eng.yaml:4:15: guardrails.engineering.limitUsd: must be a number of US dollars (got "five hundred")",
        "eng.yaml:5:20: guardrails.engineering.resetInterval: must be one of daily, weekly, monthly (got "hourly")",
        "eng.yaml:6:20: guardrails.engineering.allowedModels: must not be empty: omit the property instead of passing [] (got [])",
        "eng.yaml:7:18: guardrails.engineering.workspaceId: must be a UUID such as 3f2b8c1e-0000-4000-8000-000000000000 (got "ws-1")",
        "eng.yaml:8:5: guardrails.engineering.limitUSD: unknown field; did you mean "limitUsd"?",
        "eng.yaml:11:17: guardrails.engineering.contentFilterBuiltins[0].action: "flag" is supported only for regex-prompt-injection; email takes block or redact (got "flag")",
        "eng.yaml:13:18: guardrails.engineering.contentFilters[0].pattern: must be a regular expression that compiles (got "(")",
        "eng.yaml:16:25: guardrails.engineering.members.ids[1]: each id must be a non-empty string (got "")",
        "eng.yaml:17:7: guardrails.engineering.members.exclusiv: unknown field; did you mean "exclusive"?",
        "eng.yaml:18:3: guardrails.Bad_Id: guardrail ids must be lowercase letters, digits, - or _ (at most 63), starting with a letter or digit (got "Bad_Id")",
        "eng.yaml:20:3: guardrails.nameless.name: is required",
      ]
    `);
  });

  it("a YAML syntax error, a wrong top level, and a JSON file", () => {
    const problems = load({
      "a.yaml": "guardrails:\n  eng:\n    name: [unclosed\n",
      "b.yaml": "- just\n- a list\n",
      "c.json":
        '{\n  "guardrails": {\n    "ops": { "name": "Ops", "limitUsd": -1, "resetInterval": "daily" }\n  }\n}\n',
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(
      /^a\.yaml:4:1: Flow sequence in block collection must be sufficiently indented and end with a \]$/,
    );
    expect(problems[1]).toMatch(/^b\.yaml:1:1: \(file\): /);
    expect(problems[2]).toBe("c.json:3:41: guardrails.ops.limitUsd: must be >= 0 (got -1)");
  });

  it("cross-file: a duplicate id, a member in two guardrails of one workspace, a key in two guardrails", () => {
    const problems = load({
      "a.yaml":
        "guardrails:\n  eng:\n    name: Eng\n    members:\n      ids: [user_bob]\n    keys:\n      ids: [hash_1]\n",
      "b.yaml":
        "guardrails:\n  eng:\n    name: Eng again\n  ops:\n    name: Ops\n    members:\n      ids: [user_bob]\n    keys:\n      ids: [hash_1]\n",
    });
    expect(problems).toMatchInlineSnapshot(`
      [
        "b.yaml:2:3: guardrail id "eng" is declared twice (also at a.yaml:2:3); ids must be unique across files",
        "b.yaml:7:13: member "user_bob" is assigned to two guardrails of the default workspace: "eng" (a.yaml:5:13) and "ops"; a member holds one guardrail per workspace, so it would move back and forth between them on every up",
        "b.yaml:9:13: key "hash_1" is assigned to two guardrails: "eng" (a.yaml:7:13) and "ops"; a key holds one guardrail at all, so it would move back and forth between them on every up",
      ]
    `);
  });

  it("a member may sit on one guardrail in each workspace", () => {
    const problems = load({
      "a.yaml":
        "guardrails:\n  eng:\n    name: Eng\n    members: { ids: [user_bob] }\n  lab:\n    name: Lab\n    workspaceId: 00000000-0000-4000-8000-000000000002\n    members: { ids: [user_bob] }\n",
    });
    expect(problems).toEqual([]);
  });

  it("a missing path or an empty folder says so", () => {
    expect(load({})).toEqual([expect.stringMatching(/no \*\.yaml, \*\.yml or \*\.json files/)]);
    expect(() => loadGuardrailConfigs("/nonexistent/guardrails")).toThrow(/cannot read \(ENOENT\)/);
  });
});

describe("declarative files: a limit and its interval go together (docs/api-contract.md rule 14)", () => {
  it("a limit without an interval, and the reverse, each fail naming both, at their line", () => {
    expect(
      load({
        "r.yaml": "guardrails:\n  a:\n    name: A\n    limitUsd: 5\n  b:\n    name: B\n    resetInterval: daily\n",
      }),
    ).toMatchInlineSnapshot(`
      [
        "r.yaml:4:15: guardrails.a.limitUsd: limitUsd and resetInterval go together: set resetInterval too (daily, weekly or monthly), or drop limitUsd (got 5)",
        "r.yaml:7:20: guardrails.b.resetInterval: resetInterval and limitUsd go together: set limitUsd too, or drop resetInterval (got "daily")",
      ]
    `);
  });
});
