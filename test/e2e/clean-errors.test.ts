/**
 * Issue 14: errors read cleanly under the real CLI. A 401, a configuration error and a
 * validation error are each said once, in one line naming the resource, with no stack trace
 * and no `X: Name: X` echo; golden files pin the CLI's Diagnostics text. Issue 24: a 401 is
 * explained in full once per run, a plain preview without a key fails, and a secret arg's
 * value is never quoted.
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
  if (anonymous)
    output = output.replace(/Guardrail \(g[01]\)/g, "Guardrail (g?)").replace(/guardrail "G[01]"/g, 'guardrail "G?"');
  const section = output.slice(output.indexOf("Diagnostics:"), output.search(/^(Resources|Outputs):/m));
  const blocks = section
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://127.0.0.1:<port>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .split(/\n(?= {2}\S)/)
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
    // The key is proved once, before the first read (issue 38, class 7): the first resource says
    // why in full, naming the key's source; the other points back to it.
    expectSaidOnceWithoutTrace(
      res.output,
      "pulumi-guardrails checked the key and URL before any change, and it failed",
    );
    expectSaidOnceWithoutTrace(res.output, "the key or URL check failed (the first error of this run says why)");
    expect(res.output).toContain("401 Unauthorized (check the API key): missing, malformed or unknown API key");
    expect(res.output).not.toContain("wrong-key-0000");
    // Explained in full once; the other resource names itself and points back (issue 24).
    expect(
      res.output.slice(res.output.indexOf("Diagnostics:")).split("The service refused the API key from").length - 1,
    ).toBe(1);
    // Which resource fails first (and so carries the full message) varies from run to run.
    await expect(diagnostics(res.output, true)).toMatchFileSnapshot("golden/errors-401.txt");
  });

  it("a configuration error: a plain preview without a key fails, saying how to fix it once", async () => {
    const key = p.env.GUARDRAILS_API_KEY;
    p.env.GUARDRAILS_API_KEY = "";
    // No refresh: nothing calls the service, so before issue 24 this preview passed and `up` failed.
    const res = await p.pulumi(["preview"]);
    p.env.GUARDRAILS_API_KEY = key;
    expect(res.code).not.toBe(0);
    expectSaidOnceWithoutTrace(
      res.output,
      "set the API key: `pulumi config set --secret guardrails:apiKey <key>` or the env var GUARDRAILS_API_KEY",
    );
    await expect(diagnostics(res.output, true)).toMatchFileSnapshot("golden/errors-config.txt");
  });

  it("a validation error: one line naming the resource, the property and the rule", async () => {
    p.write(PROGRAM(-5));
    const res = await p.preview();
    p.write(PROGRAM(1));
    expect(res.code).not.toBe(0);
    expectSaidOnceWithoutTrace(res.output, "property limitUsd value {-5} has a problem: must be >= 0 (got -5)");
    expect(res.output.replace(/resource 'g[01]'/, "resource '<g>'")).toMatch(
      /^error: pulumi-nodejs:dynamic\/guardrails:Guardrail resource '<g>': property limitUsd value \{-5\} has a problem: must be >= 0 \(got -5\)$/m,
    );
  });

  it("a secret arg's value is never quoted: the property and the rule only (issue 24)", async () => {
    p.write(`
import * as pulumi from "@pulumi/pulumi";
import { Guardrail } from "pulumi-guardrails";
new Guardrail("g0", { name: "G0", limitUsd: pulumi.secret(-7), resetInterval: "daily", contentFilters: [{ pattern: pulumi.secret("TOPSECRET-PAT("), action: "block" }] });
new Guardrail("g1", { name: "G1", limitUsd: 1, resetInterval: "daily" });
`);
    const res = await p.preview();
    p.write(PROGRAM(1));
    expect(res.code).not.toBe(0);
    // The engine quotes the input at a failure's property itself, so a secret's failure names it in the reason.
    expect(res.output).toMatch(
      /^error: pulumi-nodejs:dynamic\/guardrails:Guardrail resource 'g0' has a problem: limitUsd: must be >= 0$/m,
    );
    expect(res.output).toMatch(
      /^error: pulumi-nodejs:dynamic\/guardrails:Guardrail resource 'g0' has a problem: contentFilters\[0\]\.pattern: must be a regular expression that compiles$/m,
    );
    expect(res.output).not.toContain("TOPSECRET");
    expect(res.output).not.toMatch(/-7\b/);
  });
});
