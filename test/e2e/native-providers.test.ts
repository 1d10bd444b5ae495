/**
 * Issue 38, class 5: the native plugin refuses a second `Configure` that changes its settings
 * (test/provider/native-configure-once.test.ts). This proves, under the real CLI, that the
 * engine never sends one: the default provider and two explicit providers with different
 * settings each run in a plugin process of their own, configured once, through up, preview,
 * refresh and destroy, with resources and invokes on each. The plugin's trace
 * (GUARDRAILS_NATIVE_TRACE) records every Configure with its process id, names only.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useProgram } from "./harness";

const PLUGIN_DIR = join(__dirname, "../../src/native/bin");

const PROGRAM = `
const pulumi = require("@pulumi/pulumi");
const baseUrl = new pulumi.Config("guardrails").require("baseUrl");
const apiKey = pulumi.secret(process.env.E2E_KEY);
const a = new pulumi.ProviderResource("guardrails", "a", { baseUrl, apiKey, maxAttempts: 2 });
const b = new pulumi.ProviderResource("guardrails", "b", { baseUrl, apiKey, maxAttempts: 3, timeoutMs: 20000 });
const guardrail = (name, provider) =>
  new pulumi.CustomResource("guardrails:index:Guardrail", name, { name }, { provider });
const made = [guardrail("by-default"), guardrail("by-a", a), guardrail("by-b", b)];
const count = (provider) =>
  pulumi.runtime.invoke("guardrails:index:getGuardrails", { nameRegex: "^by-" }, { provider }).then((r) => r.ids.length);
// Read once the three exist.
exports.counts = pulumi.all(made.map((g) => g.id)).apply(() => Promise.all([count(undefined), count(a), count(b)]));
`;

/** Configure lines of the trace, by plugin process id. */
function configuresByPid(trace: string): Map<string, number> {
  const by = new Map<string, number>();
  for (const m of trace.matchAll(/^native: Configure pid=(\d+) /gm)) by.set(m[1]!, (by.get(m[1]!) ?? 0) + 1);
  return by;
}

describe("several providers of the native face under the real CLI", () => {
  const p = useProgram("native-providers");

  it("each plugin process is configured once, through up, preview, refresh and destroy", async () => {
    const trace = join(p.dir, "native-trace.log");
    writeFileSync(trace, "");
    Object.assign(p.env, {
      PATH: `${PLUGIN_DIR}:${p.env.PATH}`,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      GUARDRAILS_NATIVE_TRACE: trace,
      E2E_KEY: p.apiKey,
    });
    writeFileSync(join(p.dir, "Pulumi.yaml"), "name: native-providers\nruntime: nodejs\n");
    writeFileSync(join(p.dir, "package.json"), JSON.stringify({ name: "native-providers", main: "index.js" }));
    writeFileSync(join(p.dir, "index.js"), PROGRAM);

    await p.up();
    expect((await p.outputs()).counts).toEqual([3, 3, 3]);
    await p.pulumi(["preview", "--expect-no-changes"], { check: true });
    await p.refresh();
    await p.destroy();

    const by = configuresByPid(readFileSync(trace, "utf8"));
    // Three providers in each of four commands (the CLI may start more for its own reads).
    expect(by.size).toBeGreaterThanOrEqual(12);
    expect([...by.values()].every((n) => n === 1)).toBe(true);
  });
});
