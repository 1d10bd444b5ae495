/**
 * Attack on issue 40's library surfaces, part 4: `guardrails-export --policies-program` (the move's
 * program, src/export/policies-program.ts and to-policies.ts) and where it writes. The bar: what
 * the service sends never becomes code; the program creates exactly the plan; files are written
 * only where asked, never through a link. Attack ids E... are the report's.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { runInNewContext } from "node:vm";
import ts from "typescript";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { WireGuardrail } from "../../src/core/client/wire";
import { writeExport } from "../../src/export/export";
import { renderPoliciesProgram } from "../../src/export/policies-program";
import { policiesFromGuardrails, type PolicyMove } from "../../src/export/to-policies";

const WS = "00000000-0000-4000-8000-000000000001";
const g = (id: string, name: string, extra: Record<string, unknown>, ws: string | null = WS) =>
  ({ id, name, workspace_id: ws, description: null, ...extra }) as unknown as WireGuardrail;
const wsSeen = (id: string) => ({ id, name: "w", slug: "w" }) as never;

/** Runs a program's text with stand-ins for its imports: the resources it creates, in order. */
function created(text: string, config: Record<string, boolean> = { moveWorkspaceDefaults: true }) {
  const out = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true,
  });
  expect(out.diagnostics ?? []).toEqual([]);
  const made: Array<{ type: string; name: string; args: Record<string, unknown> }> = [];
  const kind = (type: string) =>
    class {
      constructor(name: string, args: Record<string, unknown>) {
        made.push({ type, name, args });
      }
    };
  const modules: Record<string, unknown> = {
    "@pulumi/pulumi": {
      Config: class {
        getBoolean = (k: string) => config[k];
      },
    },
    "pulumi-guardrails": new Proxy({}, { get: (_t, p) => kind(String(p)) }),
  };
  const exits: unknown[] = [];
  runInNewContext(out.outputText, {
    require: (m: string) => modules[m],
    exports: {},
    module: { exports: {} },
    process: { exit: (c: unknown) => exits.push(c), env: {} },
  });
  expect(exits).toEqual([]);
  return made;
}
const planned = (m: PolicyMove) =>
  [...m.policies, ...m.defaults].map((p) => ({ type: p.type, name: p.resourceName, args: p.args }));

// biome-ignore lint/suspicious/noTemplateCurlyInString: a hostile string that must stay text
const HOSTILE = 'x"); process.exit(1); //\n*/ `${process.exit(2)}` \u2028process.exit(3)\u2029 </script> \\u0022';

describe("E: what the service sends never becomes code", () => {
  it("E1 a hostile guardrail name: the program creates exactly the plan", () => {
    const move = policiesFromGuardrails([
      {
        guardrail: g("11111111-0000-4000-8000-000000000000", HOSTILE, {
          limit_usd: 3,
          content_filters: [{ pattern: HOSTILE, action: "block" }],
        }),
        members: [HOSTILE],
        keys: [],
      },
    ]);
    expect(created(renderPoliciesProgram(move))).toEqual(planned(move));
  });
  it("E2 a hostile guardrail id (in the comments): the program creates exactly the plan", () => {
    const move = policiesFromGuardrails([
      { guardrail: g(`id\nprocess.exit(5)\r\u2028process.exit(6)`, "n", { limit_usd: 3 }), members: [], keys: [] },
    ]);
    expect(created(renderPoliciesProgram(move))).toEqual(planned(move));
  });
  it("E3 a hostile workspace id (step 2's comments and names): the program creates exactly the plan", () => {
    const ws = `w"\nprocess.exit(7)//\u2028process.exit(8)`;
    const move = policiesFromGuardrails([{ guardrail: g("a", "n", { limit_usd: 3 }, ws), members: ["u"], keys: [] }], {
      defaults: [
        { workspace: wsSeen(ws), guardrail: g("d", "default", { limit_usd: 9, allowed_providers: ["openai"] }, ws) },
      ],
    });
    expect(created(renderPoliciesProgram(move))).toEqual(planned(move));
  });
  it("E4 two workspaces whose ids share their first 8 characters get default policies of distinct names", () => {
    const [w1, w2] = ["aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002"];
    const move = policiesFromGuardrails([], {
      defaults: [
        { workspace: wsSeen(w1), guardrail: g("d1", "d1", { limit_usd: 9 }, w1) },
        { workspace: wsSeen(w2), guardrail: g("d2", "d2", { limit_usd: 9 }, w2) },
      ],
    });
    const names = move.defaults.map((p) => p.resourceName);
    expect(new Set(names).size, names.join(", ")).toBe(names.length);
  });
  it("E5 two guardrails of one name get policies of distinct resource names", () => {
    const move = policiesFromGuardrails([
      { guardrail: g("11111111-0000-4000-8000-000000000000", "Eng", { limit_usd: 3 }), members: [], keys: [] },
      { guardrail: g("22222222-0000-4000-8000-000000000000", "eng", { limit_usd: 4 }), members: [], keys: [] },
    ]);
    const names = move.policies.map((p) => p.resourceName);
    expect(new Set(names).size, names.join(", ")).toBe(names.length);
  });
  it("E6 step 2 stays off until the config flag says so", () => {
    const move = policiesFromGuardrails([], {
      defaults: [{ workspace: wsSeen(WS), guardrail: g("d", "d", { limit_usd: 9 }) }],
    });
    expect(created(renderPoliciesProgram(move), {})).toEqual([]);
  });
  it("E8 a member with a guardrail setting no kind at all is opted out of every default kind", () => {
    const move = policiesFromGuardrails(
      [{ guardrail: g("a", "none", { include_byok_in_budgets: true }), members: ["u1"], keys: ["k1"] }],
      {
        defaults: [
          {
            workspace: wsSeen(WS),
            guardrail: g("d", "d", {
              limit_usd: 9,
              allowed_providers: ["openai"],
              content_filter_builtins: [{ slug: "email", action: "block" }],
            }),
          },
        ],
      },
    );
    for (const p of move.defaults)
      expect([p.args.optedOutMemberUserIds, p.args.optedOutKeyHashes], p.type).toEqual([["u1"], ["k1"]]);
  });
  it("E9 a key with its own guardrail beside its member's: each keeps its own guardrail's policies, none dropped", () => {
    const move = policiesFromGuardrails([
      { guardrail: g("m", "member's", { limit_usd: 50 }), members: ["u1"], keys: [] },
      { guardrail: g("k", "key's", { limit_usd: 5, allowed_providers: ["openai"] }), members: [], keys: ["k1"] },
    ]);
    expect(
      move.policies.map((p) => [
        p.type,
        p.args.limitUsd ?? p.args.allowedProviders,
        p.args.memberUserIds,
        p.args.keyHashes,
      ]),
    ).toEqual([
      ["BudgetPolicy", 50, ["u1"], []],
      ["BudgetPolicy", 5, [], ["k1"]],
      ["ModelAccessPolicy", ["openai"], [], ["k1"]],
    ]);
  });
});

describe("E: the program is written only where asked", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "gr-move-attack-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  /** As the CLI writes `--policies-program <path>`. */
  const write = (path: string, force = false) =>
    writeExport(dirname(path), [{ fileName: basename(path), text: "// program\n" }], { force });

  it("E10 a symlink at the output path is refused, its target untouched", () => {
    writeFileSync(join(dir, "target"), "mine");
    symlinkSync(join(dir, "target"), join(dir, "move.ts"));
    expect(() => write(join(dir, "move.ts"), true)).toThrow(/symbolic link/);
    expect(readFileSync(join(dir, "target"), "utf8")).toBe("mine");
  });
  it("E11 a dangling symlink at the output path is refused, nothing created", () => {
    symlinkSync(join(dir, "nowhere"), join(dir, "move.ts"));
    expect(() => write(join(dir, "move.ts"), true)).toThrow(/symbolic link/);
    expect(existsSync(join(dir, "nowhere"))).toBe(false);
  });
  it("E12 a folder that is a symlink is refused", () => {
    mkdirSync(join(dir, "real"));
    symlinkSync(join(dir, "real"), join(dir, "linked"));
    expect(() => write(join(dir, "linked", "move.ts"))).toThrow(/link/);
    expect(existsSync(join(dir, "real", "move.ts"))).toBe(false);
  });
  it("E13 an existing file is not overwritten without force", () => {
    writeFileSync(join(dir, "move.ts"), "mine");
    expect(() => write(join(dir, "move.ts"))).toThrow(/already exist/);
    expect(readFileSync(join(dir, "move.ts"), "utf8")).toBe("mine");
  });
  it("E14 an output path in a missing folder writes there and nowhere else", () => {
    write(join(dir, "a", "b", "move.ts"));
    expect(readFileSync(join(dir, "a", "b", "move.ts"), "utf8")).toBe("// program\n");
  });
  it("E15 an output path of .. or . is refused, nothing written outside", () => {
    for (const p of [join(dir, "sub", ".."), join(dir, ".")]) expect(() => write(p, true), p).toThrow();
  });
});
