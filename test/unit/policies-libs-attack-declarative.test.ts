/**
 * Attack on issue 40's library surfaces, part 3: `policies:` and `workspaceWidePolicies:` in
 * declarative files (src/declarative). The bar: bad input is refused with file:line:column, the
 * field, the value (unless secret) and what is expected; nothing loads half; hostile YAML is
 * bounded. Attack ids D1... are the report's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadGuardrailFiles } from "../../src/declarative/load";
import { problemsIn } from "../helpers/declarative";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gr-pol-attack-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const problems = (text: string) => problemsIn(dir, { "a.yaml": text });
const budget = (extra = "") => `{ name: B, limitUsd: 10, resetInterval: daily${extra} }`;

describe("D: bad policies in declarative files", () => {
  it("D1 a YAML alias bomb under policies: is refused, bounded", () => {
    const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(",")}]`,
      );
    const text = `x-bomb:\n${lines.map((l) => `  ${l}`).join("\n")}\npolicies:\n  prod:\n    budget:\n      b1:\n        name: B\n        limitUsd: 10\n        resetInterval: daily\n        memberUserIds: *a11\n`;
    const started = Date.now();
    const out = problems(text);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(out.length).toBeGreaterThan(0);
    expect(out.join("\n").length).toBeLessThan(5000);
  });
  it("D2 one policy id twice in one mapping is refused", () => {
    const out = problems(`policies:\n  prod:\n    budget:\n      b1: ${budget()}\n      b1: ${budget()}\n`);
    expect(out.join("\n")).toMatch(/b1/);
  });
  it("D3 one policy id in two workspaces of one file is refused", () => {
    const out = problems(
      `policies:\n  prod:\n    budget:\n      b1: ${budget()}\n  lab:\n    budget:\n      b1: ${budget()}\n`,
    );
    expect(out.join("\n")).toMatch(/declared twice/);
  });
  it("D4 two workspace defaults of one kind in one workspace are refused", () => {
    const out = problems(
      `policies:\n  prod:\n    budget:\n      b1: ${budget(", workspaceDefault: true")}\n      b2: ${budget(", workspaceDefault: true")}\n`,
    );
    expect(out.join("\n")).toMatch(/workspaceDefault/);
  });
  it("D5 a workspace keyed __proto__ neither vanishes nor pollutes", () => {
    const out = problems(`policies:\n  __proto__:\n    budget:\n      b1: ${budget()}\n`);
    expect(({} as Record<string, unknown>).budget).toBeUndefined();
    if (out.length === 0) expect(loadGuardrailFiles(dir, { cwd: dir }).policies.map((p) => p.id)).toEqual(["b1"]);
  });
  it("D6 a limit given as a string is refused naming field, value and what is expected", () => {
    const out = problems(
      `policies:\n  prod:\n    budget:\n      b1: { name: B, limitUsd: "100", resetInterval: daily }\n`,
    );
    expect(out.join("\n")).toMatch(/limitUsd.*100/);
  });
  it("D7 .nan and .inf limits are refused", () => {
    for (const v of [".nan", ".inf", "-1"]) {
      const out = problems(
        `policies:\n  prod:\n    budget:\n      b1: { name: B, limitUsd: ${v}, resetInterval: daily }\n`,
      );
      expect(out.join("\n"), v).toMatch(/limitUsd/);
    }
  });
  it("D8 a member list given as a string is refused", () => {
    const out = problems(
      `policies:\n  prod:\n    budget:\n      b1: { name: B, limitUsd: 1, resetInterval: daily, memberUserIds: user_a }\n`,
    );
    expect(out.join("\n")).toMatch(/memberUserIds/);
  });
  it("D9 a kind section given as a list is refused", () => {
    const out = problems(`policies:\n  prod:\n    budget:\n      - ${budget()}\n`);
    expect(out.join("\n")).toMatch(/budget.*mapping/);
  });
  it("D10 policies: given as a list is refused", () => {
    const out = problems(`policies:\n  - prod\n`);
    expect(out.join("\n")).toMatch(/policies/);
  });
  it("D11 an unknown field holding a key is refused without quoting the key", () => {
    const key = "sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    const out = problems(
      `policies:\n  prod:\n    budget:\n      b1: { name: B, limitUsd: 1, resetInterval: daily, apiKey: ${key} }\n`,
    );
    expect(out.join("\n")).toMatch(/apiKey/);
    expect(out.join("\n")).not.toContain(key);
  });
  it("D12 a key hash listed twice in one policy loads as a set (the resource's lists are sets)", () => {
    expect(problems(`policies:\n  prod:\n    moderation:\n      m1: { name: M, keyHashes: [k1, k1] }\n`)).toEqual([]);
  });
  it("D13 a YAML merge key does not silently bring settings in", () => {
    const out = problems(
      `x-base: &base { limitUsd: 10, resetInterval: daily }\npolicies:\n  prod:\n    budget:\n      b1:\n        <<: *base\n        name: B\n        limitUsd: 99999\n`,
    );
    if (out.length === 0) {
      const s = loadGuardrailFiles(dir, { cwd: dir }).policies[0]?.settings;
      expect(s?.limitUsd).toBe(99999);
    }
  });
  it("D14 a name over 200 characters is refused", () => {
    const out = problems(
      `policies:\n  prod:\n    budget:\n      b1: { name: ${"n".repeat(300)}, limitUsd: 1, resetInterval: daily }\n`,
    );
    expect(out.join("\n")).toMatch(/name/);
    expect(out.join("\n").length).toBeLessThan(1000);
  });
  it("D15 a workspace-wide policy covering every workspace and listing some is refused or clear", () => {
    const out = problems(
      `workspaceWidePolicies:\n  w1: { name: W, policyType: budget, limitUsd: 1, resetInterval: daily, allWorkspaces: true, workspaceIds: [prod], optedOutWorkspaceIds: [prod] }\n`,
    );
    expect(out.join("\n")).toMatch(/optedOutWorkspaceIds|workspaceIds/);
  });
  it("D16 a hostile policy name with control characters is shown escaped in an error", () => {
    const out = problems(
      `policies:\n  prod:\n    budget:\n      b1: { name: "x\\u001b[31m", limitUsd: "bad", resetInterval: daily }\n`,
    );
    expect(out.join("\n")).not.toMatch(/\u001b/);
  });
});

describe("D: workspace defaults across files", () => {
  it("D17 two workspace defaults of one kind in one workspace, in two files (and two spellings of its key), are refused", () => {
    const b = (id: string) =>
      `policies:\n  Prod:\n    budget:\n      ${id}: { name: B, limitUsd: 10, resetInterval: daily, workspaceDefault: true }\n`;
    const out = problemsIn(dir, { "a.yaml": b("b1"), "b.yaml": b("b2").replace("Prod", "prod") });
    expect(out.join("\n")).toMatch(/b\.yaml:4:7: .*default budget policy/);
  });
});
