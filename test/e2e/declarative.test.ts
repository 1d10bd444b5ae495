/**
 * examples/declarative under the real CLI: YAML edits give exactly the expected preview, and
 * the pull-request summary of that preview matches a reviewed golden file.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizePreview } from "../../src/preview/summary";
import { Program } from "./harness";

const example = join(__dirname, "../../examples/declarative");
const golden = join(__dirname, "golden/declarative-preview.md");

describe("declarative configs under the real CLI", () => {
  let p: Program;
  beforeAll(async () => {
    p = await Program.create("declarative-e2e");
    cpSync(join(example, "guardrails"), join(p.dir, "guardrails"), { recursive: true });
    p.write(readFileSync(join(example, "index.ts"), "utf8"));
    await p.up();
  });
  afterAll(() => p.close());

  const edit = (file: string, from: string, to: string) => {
    const path = join(p.dir, "guardrails", file);
    const text = readFileSync(path, "utf8");
    expect(text).toContain(from);
    writeFileSync(path, text.replace(from, to));
  };

  it("creates what the files declare, and a second preview has no changes", async () => {
    const ids = (await p.outputs()).guardrailIds;
    expect(Object.keys(ids).sort()).toEqual(["engineering", "support"]);
    const members = (await p.api("GET", `/guardrails/${ids.engineering}/assignments/members`)).body.data
      .map((r: { user_id: string }) => r.user_id)
      .sort();
    expect(members).toEqual(["user_alice", "user_bob"]);
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });

  it("adding a member, changing limitUsd, renaming and moving a member preview as exactly four updates; the summary matches the golden file", async () => {
    edit("engineering.yaml", "ids: [user_alice, user_bob]", "ids: [user_alice, user_bob, user_dave, user_erin]");
    edit("engineering.yaml", "limitUsd: 500", "limitUsd: 750");
    edit("support.yaml", "name: Support", "name: Customer Support");
    edit("support.yaml", "ids: [user_carol, user_erin]", "ids: [user_carol]");
    const res = await p.pulumi(["preview", "--json"], { check: true });
    const preview = JSON.parse(res.stdout);
    const ops = preview.steps
      .filter((s: { op: string }) => s.op !== "same")
      .map((s: { op: string; urn: string }) => `${s.op} ${s.urn.split("::").pop()}`)
      .sort();
    expect(ops).toEqual([
      "update engineering",
      "update engineering-members",
      "update support",
      "update support-members",
    ]);
    const summary = summarizePreview(preview);
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, summary);
    expect(summary).toBe(readFileSync(golden, "utf8"));
    await p.up();
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });

  it("a bad file fails the preview with file:line:column and registers nothing", async () => {
    edit("support.yaml", "limitUsd: 50", "limitUsd: -50\n    colour: blue");
    await p.clearLog();
    const res = await p.preview();
    expect(res.code).not.toBe(0);
    expect(res.output).toContain("guardrails/support.yaml:6:15: guardrails.support.limitUsd: must be >= 0 (got -50)");
    expect(res.output).toContain("guardrails/support.yaml:7:5: guardrails.support.colour: unknown field");
    expect((await p.log()).writes).toBe(0);
  });
});
