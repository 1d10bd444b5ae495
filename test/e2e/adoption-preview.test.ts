/**
 * Issue 14: an `adoptId` resource previews as a create, and its `up` overwrites every field
 * where the guardrail differs from the program. The preview now says so, naming each field
 * and the value it holds, so a hand-set description is never cleared by surprise.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Program } from "./harness";

describe("adoption at preview", () => {
  let p: Program;
  beforeAll(async () => {
    p = await Program.create("adoption-preview");
  });
  afterAll(async () => {
    await p.destroy();
    await p.close();
  });

  it("warns with the fields adopting will overwrite; an adoption that changes nothing says nothing", async () => {
    const existing = (
      await p.api("POST", "/guardrails", {
        name: "Legacy",
        description: "set by hand",
        limit_usd: 5,
        reset_interval: "daily",
      })
    ).body.data;
    const program = (limit: number, description?: string) => `
import { Guardrail } from "pulumi-guardrails";
new Guardrail("legacy", { name: "Legacy", ${description ? `description: ${JSON.stringify(description)}, ` : ""}limitUsd: ${limit}, resetInterval: "daily", adoptId: "${existing.id}" });
`;
    p.write(program(10));
    const res = await p.preview();
    expect(res.code).toBe(0);
    const warning = res.output.split("\n").find((l) => l.includes(`adopting ${existing.id} will overwrite`));
    expect(warning).toBeDefined();
    expect(warning).toContain('warning: guardrail "Legacy": adopting');
    expect(warning).toContain('description (now "set by hand")');
    expect(warning).toContain("limitUsd (now 5)");
    expect(warning).not.toContain("resetInterval");
    expect(warning).not.toContain("name (");

    p.write(program(5, "set by hand"));
    const quiet = await p.preview();
    expect(quiet.code).toBe(0);
    expect(quiet.output).not.toContain("will overwrite");
  });
});
