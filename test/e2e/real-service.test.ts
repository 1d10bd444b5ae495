/**
 * The real service's shapes and fields under the real pulumi CLI (docs/api-contract.md rules
 * 10-14): a guardrail changed by hand into values the program does not know is refreshed,
 * shown as drift and restored; the five fields of rule 13 are created, updated in place and
 * repaired after drift; a limit without an interval fails the preview before any call.
 */
import { describe, expect, it } from "vitest";
import { reshapeGuardrail } from "../helpers/emulator";
import { useProgram } from "./harness";

const program = (extra = "") => `
import { Guardrail } from "pulumi-guardrails";
export const id = new Guardrail("eng", {
  name: "Engineering",
  limitUsd: 100,
  resetInterval: "monthly",
  contentFilterBuiltins: [{ slug: "email", action: "redact" }],
  ${extra}
}).id;
`;

const NEW_FIELDS = `includeByokInBudgets: true, allowedDataRegions: ["europe", "us"], enableFreeModelPublication: false, enableFreeModelTraining: false, enablePaidModelTraining: true,`;

describe("the real service's shapes and fields under the real CLI", () => {
  const p = useProgram("real-service-e2e");

  it("1. a guardrail changed by hand to values the program does not know: refresh reads it, preview shows the drift, up restores the program", async () => {
    p.write(program());
    await p.up();
    const id = (await p.outputs()).id as string;
    await reshapeGuardrail(p.emulator.url, id, {
      set: {
        reset_interval: "hourly",
        content_filter_builtins: [{ slug: "secrets", action: "flag", label: "[SECRETS]" }],
        brand_new_field: { x: 1 },
      },
      remove: ["description", "allowed_providers"],
    });
    const refreshed = await p.refresh();
    expect(refreshed.code).toBe(0);
    const preview = await p.preview();
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/~ resetInterval\s*: "hourly" => "monthly"/);
    expect(preview.stdout).toMatch(/secrets/);
    await p.up();
    expect((await p.api("GET", `/guardrails/${id}`)).body.data).toMatchObject({
      reset_interval: "monthly",
      content_filter_builtins: [{ slug: "email", action: "redact" }],
    });
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("2. the five fields of rule 13: created, updated in place, drift repaired", async () => {
    p.write(program(NEW_FIELDS));
    await p.up();
    const id = (await p.outputs()).id as string;
    expect((await p.api("GET", `/guardrails/${id}`)).body.data).toMatchObject({
      include_byok_in_budgets: true,
      allowed_data_regions: ["europe", "us"],
      enable_free_model_publication: false,
      enable_free_model_training: false,
      enable_paid_model_training: true,
    });
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });

    p.write(
      program(
        NEW_FIELDS.replace(`["europe", "us"]`, `["global"]`).replace(
          "includeByokInBudgets: true",
          "includeByokInBudgets: false",
        ),
      ),
    );
    await p.clearLog();
    await p.up();
    const log = await p.log();
    expect(log.counts.updateGuardrail).toBe(1);
    expect(log.counts.createGuardrail ?? 0).toBe(0);
    expect((await p.api("GET", `/guardrails/${id}`)).body.data).toMatchObject({
      include_byok_in_budgets: false,
      allowed_data_regions: ["global"],
    });

    await p.api("PATCH", `/guardrails/${id}`, { enable_paid_model_training: false, allowed_data_regions: ["us"] });
    await p.refresh();
    const preview = await p.preview();
    expect(preview.stdout).toMatch(/~ enablePaidModelTraining\s*: false => true/);
    expect(preview.stdout).toMatch(/allowedDataRegions/);
    await p.up();
    expect((await p.api("GET", `/guardrails/${id}`)).body.data).toMatchObject({
      enable_paid_model_training: true,
      allowed_data_regions: ["global"],
    });
    await p.pulumi(["preview", "--expect-no-changes", "--refresh"], { check: true });
  });

  it("3. a limit without an interval fails the preview naming both args, before any call", async () => {
    p.write(`
import { Guardrail } from "pulumi-guardrails";
new Guardrail("capped", { name: "Capped", limitUsd: 10 });
`);
    await p.clearLog();
    const res = await p.preview();
    expect(res.code).not.toBe(0);
    expect(res.output).toContain("limitUsd and resetInterval go together");
    const log = await p.log();
    expect(log.total).toBe(0);
  });
});
