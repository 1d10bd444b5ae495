/**
 * Issue 14: errors read cleanly under the real CLI. A 401, a configuration error and a
 * validation error are each said once, in one line naming the resource, with no stack trace
 * and no `X: Name: X` echo; golden files pin the CLI's Diagnostics text.
 */
import { describe, expect, it } from "vitest";
import { useProgram } from "./harness";

const PROGRAM = (limit: number) => `
import { Guardrail } from "pulumi-guardrails";
new Guardrail("g0", { name: "G0", limitUsd: ${limit}, resetInterval: "daily" });
new Guardrail("g1", { name: "G1", limitUsd: ${limit}, resetInterval: "daily" });
`;

/** The CLI's Diagnostics section, with ports and ids made stable and resources in name order. */
function diagnostics(output: string, anonymous = false): string {
  if (anonymous) output = output.replace(/Guardrail \(g[01]\)/g, "Guardrail (g?)");
  const section = output.slice(output.indexOf("Diagnostics:"), output.search(/^(Resources|Outputs):/m));
  const blocks = section
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://127.0.0.1:<port>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .split(/\n(?=  \S)/)
    .slice(1)
    .map((b) => b.trimEnd());
  return `Diagnostics:\n${blocks.sort().join("\n")}\n`;
}

function expectSaidOnceWithoutTrace(output: string, message: string) {
  // The CLI sums up in a Diagnostics section when it has one; a check failure it prints alone.
  const diag = output.includes("Diagnostics:") ? output.slice(output.indexOf("Diagnostics:")) : output;
  expect(diag.split(message).length - 1).toBe(1);
  expect(output).not.toMatch(/^\s+at /m); // no stack-trace frame anywhere in the run's output
  expect(output).not.toMatch(/(\w*Error): (.+): \1: \2/); // no `X: Name: X` echo
  expect(output).not.toContain(".ts:"); // no source-mapped path to a file the package does not ship
}

describe("errors said once, in one line", () => {
  const p = useProgram("clean-errors", { create: { keyVia: "env" }, up: PROGRAM(1), destroy: true });

  it("a 401 at refresh: one line per resource with the operation and the service's message", async () => {
    const key = p.env.GUARDRAILS_API_KEY;
    p.env.GUARDRAILS_API_KEY = "wrong-key-0000";
    const res = await p.pulumi(["refresh", "--yes", "--skip-preview"]);
    p.env.GUARDRAILS_API_KEY = key;
    expect(res.code).not.toBe(0);
    for (const g of ["G0", "G1"]) expectSaidOnceWithoutTrace(res.output, `guardrail "${g}": GET`);
    expect(res.output).toContain("401 Unauthorized (check the API key): missing, malformed or unknown API key");
    await expect(diagnostics(res.output)).toMatchFileSnapshot("golden/errors-401.txt");
  });

  it("a configuration error: how to fix it is said once per run", async () => {
    const key = p.env.GUARDRAILS_API_KEY;
    p.env.GUARDRAILS_API_KEY = "";
    const res = await p.pulumi(["preview", "--refresh"]);
    p.env.GUARDRAILS_API_KEY = key;
    expect(res.code).not.toBe(0);
    expectSaidOnceWithoutTrace(res.output, "set the API key: `pulumi config set --secret guardrails:apiKey <key>` or the env var GUARDRAILS_API_KEY");
    // Which resource fails first (and so carries the full message) varies from run to run.
    await expect(diagnostics(res.output, true)).toMatchFileSnapshot("golden/errors-config.txt");
  });

  it("a validation error: one line naming the resource, the property and the rule", async () => {
    p.write(PROGRAM(-5));
    const res = await p.preview();
    p.write(PROGRAM(1));
    expect(res.code).not.toBe(0);
    expectSaidOnceWithoutTrace(res.output, "property limitUsd value {-5} has a problem: must be >= 0 (got -5)");
    expect(res.output.replace(/resource 'g[01]'/, "resource '<g>'")).toMatch(/^error: pulumi-nodejs:dynamic\/guardrails:Guardrail resource '<g>': property limitUsd value \{-5\} has a problem: must be >= 0 \(got -5\)$/m);
  });
});
