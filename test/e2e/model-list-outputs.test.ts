/**
 * Issue 14: a guardrail's model-list outputs echo the program's own identifiers, so an
 * exported list never previews a fake change (`"vendor-a/model-x-20260115" => "vendor-a/model-x"`)
 * when another field of the guardrail is updated. The canonical slugs have their own outputs.
 */
import { describe, expect, it } from "vitest";
import { useProgram } from "./harness";

const PROGRAM = (limit: number) => `
import { Guardrail } from "pulumi-guardrails";
const g = new Guardrail("eng", { name: "Engineering", allowedModels: ["vendor-a/model-x", "vendor-b/model-m"], limitUsd: ${limit}, resetInterval: "monthly" });
export const allowedModels = g.allowedModels;
export const allowedModelsCanonical = g.allowedModelsCanonical;
`;

describe("model-list outputs", () => {
  const p = useProgram("model-list-outputs", { up: PROGRAM(10), destroy: true });

  it("echo the program's identifiers; the canonical slugs are a separate output", async () => {
    expect(await p.outputs()).toEqual({
      allowedModels: ["vendor-a/model-x", "vendor-b/model-m"],
      allowedModelsCanonical: ["vendor-a/model-x-20260115", "vendor-b/model-m-20260201"],
    });
  });

  it("an update of another field previews no change on the exported model lists", async () => {
    p.write(PROGRAM(20));
    const res = await p.preview();
    expect(res.code).toBe(0);
    expect(res.output).toMatch(/~ +limitUsd *: +10 => 20/);
    expect(res.output).not.toMatch(/allowedModels.*=>|model-x-20260115" =>|=> "vendor-a\/model-x"/);
    expect(res.output).not.toMatch(/~ +allowedModels/);
    await p.up();
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
    expect((await p.outputs()).allowedModels).toEqual(["vendor-a/model-x", "vendor-b/model-m"]);
  });
});
