/** `policies:` and `workspaceWidePolicies:` in declarative files (issue 40): what loads, and every problem with file:line:column. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadGuardrailFiles } from "../../src/declarative/load";
import { problemsIn } from "../helpers/declarative";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import Ajv2020 from "ajv/dist/2020";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gr-policies-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const problems = (files: Record<string, string>) => problemsIn(dir, files);
const WS = "3f2b8c1e-0000-4000-8000-00000000000a";

const GOOD = `policies:
  production:
    budget:
      eng-budget:
        name: Engineering budget
        limitUsd: 100
        resetInterval: weekly
        memberUserIds: [user_a, user_b]
        keyHashes: []
    modelAccess:
      eu-only:
        name: EU only
        allowedDataRegions: [europe]
        workspaceDefault: true
        optedOutMemberUserIds: [user_c]
  ${WS}:
    moderation:
      no-pii:
        name: No PII
        contentFilterBuiltins:
          - { slug: email, action: redact }
workspaceWidePolicies:
  org-cap:
    name: Org cap
    policyType: budget
    limitUsd: 1000
    resetInterval: monthly
    allWorkspaces: true
`;

describe("policies: what loads", () => {
  it("per workspace and kind, by stable id; workspace-wide policies by stable id; alone or beside guardrails", () => {
    expect(problems({ "a.yaml": GOOD, "b.yaml": "guardrails:\n  eng:\n    name: Eng\n" })).toEqual([]);
    const loaded = loadGuardrailFiles(dir, { cwd: dir });
    expect(loaded.guardrails.map((g) => g.id)).toEqual(["eng"]);
    expect(loaded.policies.map((p) => [p.workspace, p.type, p.id, p.settings, `${p.at.file}:${p.at.line}`])).toEqual([
      [
        "production",
        "BudgetPolicy",
        "eng-budget",
        {
          name: "Engineering budget",
          limitUsd: 100,
          resetInterval: "weekly",
          memberUserIds: ["user_a", "user_b"],
          keyHashes: [],
        },
        "a.yaml:4",
      ],
      [
        "production",
        "ModelAccessPolicy",
        "eu-only",
        { name: "EU only", allowedDataRegions: ["europe"], workspaceDefault: true, optedOutMemberUserIds: ["user_c"] },
        "a.yaml:11",
      ],
      [
        WS,
        "ModerationPolicy",
        "no-pii",
        { name: "No PII", contentFilterBuiltins: [{ slug: "email", action: "redact" }] },
        "a.yaml:18",
      ],
    ]);
    expect(loaded.workspaceWidePolicies.map((p) => [p.id, p.settings, `${p.at.file}:${p.at.line}`])).toEqual([
      [
        "org-cap",
        { name: "Org cap", policyType: "budget", limitUsd: 1000, resetInterval: "monthly", allWorkspaces: true },
        "a.yaml:23",
      ],
    ]);
  });
});

describe("policies: the editors' JSON Schema (npm run schema)", () => {
  it("takes the sections, and refuses a setting of another kind as the loader does", () => {
    const schema = JSON.parse(readFileSync(join(__dirname, "../../schema/guardrails.schema.json"), "utf8"));
    const { $schema: _s, ...rest } = schema;
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(rest);
    expect(validate(parse(GOOD)), JSON.stringify(validate.errors)).toBe(true);
    const bad = parse(GOOD);
    bad.policies.production.budget["eng-budget"].allowedModels = ["x/y"];
    expect(validate(bad)).toBe(false);
  });
});

describe("policies: bad input, every problem at once with file:line:column", () => {
  it("a setting of another kind, a bad kind, a budget without a limit, a misspelt arg, a bad id, a bad workspace", () => {
    expect(
      problems({
        "a.yaml": `policies:
  production:
    budget:
      b1:
        name: B
        limitUsd: 5
        resetInterval: weekly
        allowedModels: [x/y]
      b2:
        name: No limit
      B3:
        name: Bad id
        limitUsd: 5
        resetInterval: daily
    moderation:
      m1:
        name: M
        memberUserId: [user_a]
        workspaceDefault: "yes"
    rateLimit:
      r1: { name: R }
  ws 1:
    moderation: {}
workspaceWidePolicies:
  w1:
    name: W
    policyType: moderation
    limitUsd: 5
  w2:
    name: W2
    policyType: nope
`,
      }),
    ).toMatchInlineSnapshot(`
      [
        "a.yaml:8:9: policies.production.budget.b1.allowedModels: unknown field",
        "a.yaml:9:7: policies.production.budget.b2.limitUsd: is required",
        "a.yaml:11:7: policies.production.budget.B3: policy ids must be lowercase letters, digits, - or _ (at most 63), starting with a letter or digit (got "B3")",
        "a.yaml:18:9: policies.production.moderation.m1.memberUserId: unknown field; did you mean "memberUserIds"?",
        "a.yaml:19:27: policies.production.moderation.m1.workspaceDefault: must be true or false (got "yes")",
        "a.yaml:20:5: policies.production.rateLimit: unknown field",
        "a.yaml:22:3: policies.ws 1: must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters) (got "ws 1")",
        "a.yaml:28:15: workspaceWidePolicies.w1.limitUsd: is a setting of a "budget" policy; a policyType "moderation" policy takes contentFilterBuiltins, contentFilters (got 5)",
        "a.yaml:31:17: workspaceWidePolicies.w2.policyType: must be one of "budget", "modelAccess", "moderation" (got "nope")",
      ]
    `);
  });

  it("a policy id declared twice across files, whatever the workspace or kind, is refused at the later site", () => {
    expect(
      problems({
        "a.yaml": "policies:\n  production:\n    moderation:\n      shared: { name: A }\n",
        "b.yaml": "policies:\n  lab:\n    budget:\n      shared: { name: B, limitUsd: 1, resetInterval: daily }\n",
        "c.yaml": "workspaceWidePolicies:\n  shared: { name: C, policyType: moderation }\n",
      }),
    ).toMatchInlineSnapshot(`
      [
        "b.yaml:4:7: policy id "shared" is declared twice (also at a.yaml:4:7); ids must be unique across files, whatever the workspace or kind",
      ]
    `);
  });
});
