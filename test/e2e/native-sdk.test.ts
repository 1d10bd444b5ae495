/**
 * Issue 26: the generated TypeScript SDK, as a user installs it. A program imports
 * `pulumi-guardrails/native` from the packed package and creates a Guardrail (typed args:
 * enums, filter objects) under the real CLI, with the plugin `pulumi-resource-guardrails` on
 * PATH. The engine uses that plugin and downloads none; a data source answers; a second `up`
 * changes nothing; the explicit provider keeps its key a secret in state.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../support/spawn-emulator";
import { useProgram } from "./harness";

const PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import * as guardrails from "pulumi-guardrails/native";

const g = new guardrails.Guardrail("eng", {
  name: "Engineering",
  limitUsd: 5,
  resetInterval: guardrails.ResetInterval.Daily,
  allowedDataRegions: [guardrails.DataRegion.Europe, "us"],
  contentFilterBuiltins: [{ slug: guardrails.BuiltinFilterSlug.Email, action: guardrails.FilterAction.Redact }],
  contentFilters: [{ pattern: "secret-[0-9]+", action: "block", label: "SECRET" }],
});
// The explicit provider's key comes from the stack config, as a secret.
const explicit = new guardrails.Provider("explicit", {
  baseUrl: new pulumi.Config("guardrails").require("baseUrl"),
  apiKey: new pulumi.Config("app").requireSecret("key"),
});
const other = new guardrails.Guardrail("other", { name: "Other" }, { provider: explicit });
const read = guardrails.getGuardrailOutput({ id: g.id });

export const id = g.id;
export const guardrailId = g.guardrailId;
export const builtins = g.contentFilterBuiltins;
export const regions = g.allowedDataRegions;
export const createdAt = g.createdAt;
export const readName = read.name;
export const otherId = other.id;
`;

describe("the native face's TypeScript SDK (pulumi-guardrails/native)", () => {
  const p = useProgram("native-sdk-e2e", { destroy: true });

  it("creates guardrails from a TypeScript program through the plugin on PATH, downloading no plugin", async () => {
    p.env.PATH = `${join(REPO_ROOT, "src/native/bin")}:${p.env.PATH}`;
    await p.pulumi(["config", "set", "--secret", "app:key", p.apiKey], { check: true });
    p.write(PROGRAM);
    const up = await p.up();
    expect(up.output).not.toMatch(/download|installing plugin/i);
    const out = await p.outputs();
    expect(out.guardrailId).toBe(out.id);
    expect(out.readName).toBe("Engineering");
    expect(out.builtins).toEqual([{ slug: "email", action: "redact", label: "[EMAIL]" }]);
    expect([...out.regions].sort()).toEqual(["europe", "us"]);
    expect(out.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(out.otherId).toMatch(/^[0-9a-f-]{36}$/);

    const { json, text } = await p.exportState();
    const types = json.deployment.resources.map((r: { type: string }) => r.type);
    expect(types.filter((t: string) => t === "guardrails:index:Guardrail")).toHaveLength(2);
    expect(types).toContain("pulumi:providers:guardrails");
    expect(text).not.toContain(p.apiKey);
    const provider = json.deployment.resources.find((r: { urn: string }) => r.urn.endsWith("::explicit"));
    expect(provider.inputs.apiKey).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    });
  });

  it("a second up of the same program changes nothing", async () => {
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
  });
});
