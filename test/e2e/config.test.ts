/**
 * Config mistakes are never silent, under the real CLI: a plain-text key and a typo'd key
 * warn at preview; a bad number fails preview quoting the text; a 401 names the key's source;
 * and after a wrong key is corrected, `pulumi refresh --run-program` uses the corrected key
 * where a plain `pulumi refresh` keeps using the config recorded at the last update.
 */
import { describe, expect, it } from "vitest";
import { useProgram } from "./harness";

const PROGRAM = (limit: number) => `
import { Guardrail } from "pulumi-guardrails";
export const id = new Guardrail("cfg", { name: "Config", limitUsd: ${limit}, resetInterval: "daily" }).id;
`;

describe("config that tells the truth", () => {
  const p = useProgram("config-e2e", { create: { keyVia: "config" }, up: PROGRAM(1) });

  it("an unknown guardrails:* key warns with did-you-mean; a bad number fails preview quoting the text", async () => {
    await p.pulumi(["config", "set", "guardrails:maxAtempts", "3"], { check: true });
    const warned = await p.preview();
    expect(warned.code).toBe(0);
    expect(warned.output).toContain(
      "warning: pulumi-guardrails: unknown config key guardrails:maxAtempts is ignored; did you mean guardrails:maxAttempts?",
    );
    await p.pulumi(["config", "rm", "guardrails:maxAtempts"], { check: true });
    await p.pulumi(["config", "set", "guardrails:timeoutMs", "abc"], { check: true });
    const failed = await p.preview();
    await p.pulumi(["config", "rm", "guardrails:timeoutMs"], { check: true });
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain(
      'error: pulumi-guardrails: guardrails:timeoutMs must be a positive integer (got "abc")',
    );
    expect(failed.output).not.toContain("NaN");
    // The key pasted into the wrong setting is never quoted back (issue 24; the harness also
    // checks every transcript for the key).
    p.env.GUARDRAILS_TIMEOUT_MS = p.apiKey;
    const pasted = await p.preview();
    delete p.env.GUARDRAILS_TIMEOUT_MS;
    expect(pasted.code).not.toBe(0);
    expect(pasted.output).toContain(
      "error: pulumi-guardrails: the env var GUARDRAILS_TIMEOUT_MS must be a positive integer (got a value shaped like an API key, not shown;",
    );
    expect(pasted.output).not.toContain(p.apiKey);
  });

  it("after a wrong key is corrected, refresh --run-program uses it; plain refresh names the recorded key's source", async () => {
    await p.pulumi(["config", "set", "--secret", "guardrails:apiKey", "wrong-key-0000"], { check: true });
    p.write(PROGRAM(2));
    const refused = await p.pulumi(["up", "--yes", "--skip-preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toContain("The service refused the API key from stack config guardrails:apiKey");
    await p.pulumi(["config", "set", "--secret", "guardrails:apiKey", p.apiKey], { check: true });
    // CLI 3.248: a plain refresh configures the provider from the config recorded in the state.
    const stale = await p.pulumi(["refresh", "--yes", "--skip-preview"]);
    expect(stale.code).not.toBe(0);
    expect(stale.output).toContain("The service refused the API key from stack config guardrails:apiKey");
    expect(stale.output).toContain("run `pulumi refresh --run-program` or `pulumi up`");
    await p.pulumi(["refresh", "--yes", "--skip-preview", "--run-program"], { check: true });
    await p.up();
  });

  it("a plain-text key warns, naming the fix", async () => {
    await p.pulumi(["config", "set", "guardrails:apiKey", p.apiKey], { check: true });
    const res = await p.preview();
    expect(res.code).toBe(0);
    expect(res.output).toContain("warning: pulumi-guardrails: guardrails:apiKey is plain text");
    expect(res.output).toContain("pulumi config set --secret guardrails:apiKey <key>");
    await p.pulumi(["config", "set", "--secret", "guardrails:apiKey", p.apiKey], { check: true });
  });
});
