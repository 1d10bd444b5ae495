/** `workspaceDefaults:` in declarative files (issue 27): what loads, and every problem with file:line:column. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadGuardrailConfigs, loadGuardrailFiles } from "../../src/declarative/load";
import { problemsIn } from "../helpers/declarative";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gr-wsdefault-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const problems = (files: Record<string, string>) => problemsIn(dir, files);
const WS = "3f2b8c1e-0000-4000-8000-00000000000a";

describe("workspaceDefaults: what loads", () => {
  it("entries keyed by workspace id or slug, name optional, beside guardrails or alone", () => {
    expect(
      problems({
        "a.yaml": `guardrails:\n  eng:\n    name: Eng\nworkspaceDefaults:\n  production:\n    allowedDataRegions: [europe]\n    enableFreeModelTraining: false\n`,
        "b.yaml": `workspaceDefaults:\n  ${WS}:\n    name: Lab default\n    limitUsd: 50\n    resetInterval: weekly\n`,
      }),
    ).toEqual([]);
    const loaded = loadGuardrailFiles(dir, { cwd: dir });
    expect(loaded.guardrails.map((g) => g.id)).toEqual(["eng"]);
    expect(loaded.workspaceDefaults.map((d) => [d.workspace, d.settings, `${d.at.file}:${d.at.line}`])).toEqual([
      ["production", { allowedDataRegions: ["europe"], enableFreeModelTraining: false }, "a.yaml:5"],
      [WS, { name: "Lab default", limitUsd: 50, resetInterval: "weekly" }, "b.yaml:2"],
    ]);
    // The guardrails-only loader keeps its answer: a file of workspace defaults adds no guardrail.
    expect(loadGuardrailConfigs(dir, { cwd: dir }).map((g) => g.id)).toEqual(["eng"]);
  });

  it("a file with neither section says what it needs", () => {
    expect(problems({ "a.yaml": "$schema: x\n" })).toEqual([
      "a.yaml:1:1: guardrails: is required (or workspaceDefaults:, policies:, workspaceWidePolicies:, or several)",
    ]);
  });
});

describe("workspaceDefaults: bad input", () => {
  it("unknown settings, bad values, members or adoptId, a bad key, a slug in another case: every problem at once", () => {
    expect(
      problems({
        "a.yaml": `workspaceDefaults:
  production:
    limitUSD: 5
    allowedModels: []
    members:
      ids: [user_a]
    adoptId: ${WS}
    workspaceId: ${WS}
  Production:
    name: x
  ws 1:
    name: y
  lab:
    limitUsd: 5
  bad: [1]
`,
      }),
    ).toMatchInlineSnapshot(`
      [
        "a.yaml:3:5: workspaceDefaults.production.limitUSD: unknown field; did you mean "limitUsd"?",
        "a.yaml:4:20: workspaceDefaults.production.allowedModels: must not be empty: omit the property instead of passing [] (got [])",
        "a.yaml:5:5: workspaceDefaults.production.members: unknown field",
        "a.yaml:7:5: workspaceDefaults.production.adoptId: unknown field",
        "a.yaml:8:5: workspaceDefaults.production.workspaceId: unknown field",
        "a.yaml:9:3: the default guardrail of workspace "Production" is declared twice (also at a.yaml:2:3); declare each workspace's default once across files",
        "a.yaml:11:3: workspaceDefaults.ws 1: must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters) (got "ws 1")",
        "a.yaml:14:15: workspaceDefaults.lab.limitUsd: limitUsd and resetInterval go together: set resetInterval too (daily, weekly or monthly), or drop limitUsd (got 5)",
        "a.yaml:15:8: workspaceDefaults.bad: Invalid input: expected object, received array (got [1])",
      ]
    `);
  });

  it("a workspace declared twice across files, a UUID in any case, is refused at the later site", () => {
    expect(
      problems({
        "a.yaml": `workspaceDefaults:\n  production:\n    enforceZdr: true\n  ${WS}:\n    enforceZdr: true\n`,
        "b.yaml": `workspaceDefaults:\n  production:\n    enforceZdr: false\n  ${WS.toUpperCase()}:\n    enforceZdr: false\n`,
      }),
    ).toEqual([
      `b.yaml:2:3: the default guardrail of workspace "production" is declared twice (also at a.yaml:2:3); declare each workspace's default once across files`,
      `b.yaml:4:3: the default guardrail of workspace "${WS.toUpperCase()}" is declared twice (also at a.yaml:4:3); declare each workspace's default once across files`,
    ]);
  });

  it("hostile keys: control and bidi characters are shown escaped, an overlong slug is cut, YAML-coerced keys are named as written", () => {
    const long = "a".repeat(101);
    const p = problems({
      "a.yaml": `workspaceDefaults:\n  "prod\\e[31m\\u202e":\n    enforceZdr: true\n  ${long}:\n    enforceZdr: true\n  2024:\n    enforceZdr: true\n  "2024":\n    enforceZdr: false\n`,
    });
    expect(p).toEqual([
      expect.stringMatching(
        /^a\.yaml:2:3: workspaceDefaults\.prod\\u001b\[31m\\u202e: must be a workspace id \(UUID\) or slug /,
      ),
      expect.stringMatching(
        /^a\.yaml:4:3: workspaceDefaults\.a{77}\.\.\.: must be a workspace id .* \(got "a{76}\.\.\.\)$/,
      ),
      'a.yaml:6:3: workspaceDefaults.2024: workspace key 2024 was read by YAML as the number 2024; quote it ("2024") to keep it as written',
    ]);
    expect(p.join("\n")).not.toMatch(/[\u001b\u202e]/);
  });

  it("a JSON file's bad workspace default gets its position", () => {
    expect(
      problems({
        "a.json":
          '{\n  "workspaceDefaults": {\n    "production": { "limitUsd": -1, "resetInterval": "daily" }\n  }\n}\n',
      }),
    ).toEqual(["a.json:3:33: workspaceDefaults.production.limitUsd: must be >= 0 (got -1)"]);
  });
});
