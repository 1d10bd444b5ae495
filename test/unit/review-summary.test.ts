/**
 * The review summary (issue 30) beyond the goldens: the workspace default guardrail (issue 27)
 * named and used as the guardrail of those with no assignment, the plan kept only when the
 * preview failed for its policies alone, and `guardrails-preview-summary --fail-on-loosening`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPolicyEvents, summarize } from "../../src/preview";
import { urn } from "../helpers/preview-steps";

const ROOT = join(__dirname, "../..");
const golden = (name: string) => join(ROOT, "test/e2e/golden/review", name);

const defaultStep = (
  op: string,
  outputs: Record<string, unknown>,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
) => ({
  op,
  urn: urn("WorkspaceDefaultGuardrail", "ws-default"),
  oldState: { id: "d1", inputs: { workspaceId: "ws-1", ...before }, outputs: { guardrailId: "g-default", ...outputs } },
  newState: { inputs: { workspaceId: "ws-1", ...after }, outputs: { guardrailId: "g-default", ...outputs } },
});
const eng = {
  op: "same",
  urn: urn("Guardrail", "eng"),
  oldState: { id: "g-eng", inputs: { name: "Eng", workspaceId: "ws-1", limitUsd: 10 } },
  newState: { inputs: { name: "Eng", workspaceId: "ws-1", limitUsd: 10 } },
};
const members = (before: string[], after: string[]) => ({
  op: "update",
  urn: urn("GuardrailMemberAssignment", "eng-members"),
  oldState: {
    inputs: { guardrailId: "g-eng" },
    outputs: { members: Object.fromEntries(before.map((m) => [m, true])) },
  },
  newState: { inputs: { guardrailId: "g-eng", members: Object.fromEntries(after.map((m) => [m, true])) } },
});

describe("the workspace default guardrail", () => {
  it("is named `default of workspace <name>`, then its slug, then its id; the name is neutralised", () => {
    const name = (outputs: Record<string, unknown>) =>
      summarize({ steps: [defaultStep("update", outputs, { limitUsd: 5 }, { limitUsd: 50 })] }).markdown;
    expect(name({ workspaceName: "Acme\u202E", workspaceSlug: "acme" })).toContain(
      "### default of workspace `Acme<U+202E>`",
    );
    expect(name({ workspaceSlug: "acme" })).toContain(
      "### default of workspace `acme` (`ws-default`): update · 🔓 **loosens**",
    );
    expect(name({})).toContain("### default of workspace `ws-1` (");
    expect(name({ workspaceName: "Acme" }).split("\n")[0]).toBe(
      "**🔓 Loosens:** default of workspace `Acme` (limitUsd) · touches everyone of its workspace without an assignment",
    );
  });

  it("is the guardrail of a member with no assignment: leaving Eng for it is judged setting by setting", () => {
    const lax = summarize({ steps: [eng, defaultStep("same", {}, {}, {}), members(["user_a"], [])] }).markdown;
    expect(lax).toContain(
      "- removed: `user_a` · 🔓 **loosens**: limitUsd limit removed; compared with the default of workspace `ws-1`",
    );
    expect(lax.split("\n")[0]).toBe(
      "**🔓 Loosens:** 1 member leaves `Eng` for no assignment (`user_a`) · touches 1 member and 0 keys",
    );
    const strict = summarize({
      steps: [eng, defaultStep("same", {}, { limitUsd: 1 }, { limitUsd: 1 }), members([], ["user_a"])],
    }).markdown;
    expect(strict).toContain(
      "- added: `user_a` · 🔓 **loosens**: limitUsd raised; compared with the default of workspace `ws-1`",
    );
  });

  it("deleted from the stack: with resetOnDelete every setting is reset, which loosens; without, its settings stay", () => {
    const del = (resetOnDelete: boolean) =>
      summarize({
        steps: [
          {
            op: "delete",
            urn: urn("WorkspaceDefaultGuardrail", "ws-default"),
            oldState: {
              id: "d1",
              inputs: { workspaceId: "acme", limitUsd: 5 },
              outputs: { workspaceName: "Acme", resetOnDelete, limitUsd: 5 },
            },
          },
        ],
      }).markdown;
    expect(del(true)).toContain("**every setting is reset to no restriction** (resetOnDelete)");
    expect(del(true).split("\n")[0]).toBe(
      "**🔓 Loosens:** default of workspace `Acme` (limitUsd) · touches everyone of its workspace without an assignment",
    );
    expect(del(false)).toContain("its settings stay in force on the service");
    expect(del(false).split("\n")[0]).toBe("**🔒 Nothing loosens.**");
  });

  it("without one in the stack, a member left with no assignment may loosen (never a silent pass)", () => {
    const md = summarize({ steps: [eng, members(["user_a"], [])] }).markdown;
    expect(md.split("\n")[0]).toMatch(/^\*\*❔ May loosen\*\* .*1 member leaves `Eng` for no assignment/);
  });
});

describe("the plan when a policy fails", () => {
  const json = JSON.parse(readFileSync(golden("policy-fails.preview.json"), "utf8"));
  const policies = readPolicyEvents(readFileSync(golden("policy-fails.events.jsonl"), "utf8"));

  it("is listed after the violations when the only error is the policies' `preview failed`", () => {
    const { markdown, failed } = summarize(json, { policies });
    expect(failed).toBe(true);
    const at = (s: string) => markdown.indexOf(s);
    expect(at("### Policy violations")).toBeGreaterThan(0);
    expect(at("- 🔓 **loosens** · limitUsd: `100` → `2500` (raised)")).toBeGreaterThan(at("### Policy violations"));
  });

  it("is not listed when another error may have cut it short, nor without the policy events", () => {
    const other = { ...json, diagnostics: [...json.diagnostics, { severity: "error", message: "error: boom\n" }] };
    for (const md of [summarize(other, { policies }).markdown, summarize(json).markdown]) {
      expect(md).toContain("**Guardrails: preview failed.**");
      expect(md).not.toContain("limitUsd: `100`");
    }
  });
});

describe("guardrails-preview-summary --fail-on-loosening", () => {
  const BIN = join(ROOT, "dist/tools/preview-summary/cli.js");
  const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });

  it("exits 3 with one line when something loosens, and writes the Markdown all the same", () => {
    const res = run("--fail-on-loosening", golden("loosens-setting.preview.json"));
    expect(res.status).toBe(3);
    expect(res.stderr).toBe(
      "guardrails-preview-summary: --fail-on-loosening: this change loosens (or may loosen) a guardrail; see the summary's first line\n",
    );
    expect(res.stdout).toBe(readFileSync(golden("loosens-setting.md"), "utf8"));
    expect(run(golden("loosens-setting.preview.json")).status).toBe(0);
  });

  it("exits 0 when everything tightens; a failed preview keeps its exit 1", () => {
    expect(run(golden("tightens.preview.json"), "--fail-on-loosening").status).toBe(0);
    const failed = run(
      "--event-log",
      golden("policy-fails.events.jsonl"),
      "--fail-on-loosening",
      golden("policy-fails.preview.json"),
    );
    expect(failed.status).toBe(1);
    expect(failed.stdout).toBe(readFileSync(golden("policy-fails.md"), "utf8"));
    expect(failed.stderr).toContain("--fail-on-loosening: this change loosens");
  });

  it("refuses an option it does not know", () => {
    const res = run("--fail-on-loosen", golden("tightens.preview.json"));
    expect(res.status).toBe(2);
    expect(res.stderr).toBe('guardrails-preview-summary: unknown option "--fail-on-loosen"\n');
  });
});
