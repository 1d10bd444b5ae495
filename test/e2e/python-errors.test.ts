/**
 * Issue 42 under the real CLI: a Python program on the native face reads its failures in Python.
 * A bad `limit_usd` fails naming `limit_usd` (the provider cannot know the program's language,
 * so it names every language's form), and a nested filter failure shows no `value {<nil>}`. Two
 * previews of one program. (The SDK's deprecation warnings: test/unit/python-sdk-inputs.test.ts;
 * a failing check ends the run before the program's own warnings reach the CLI.)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../support/spawn-emulator";
import { languageHostDir, pythonVenv } from "../helpers/languages";
import { useProgram } from "./harness";

/** Which mistake the program makes comes from its environment: one program, two runs. */
const PROGRAM = `import os
import pulumi_guardrails as guardrails

if os.environ["MISTAKE"] == "limit":
    guardrails.Guardrail("bad", name="Bad", limit_usd=-5, reset_interval="monthly")
else:
    guardrails.Guardrail("nested", name="Nested", content_filter_builtins=[{"slug": "email", "action": "flag"}])
`;

describe("a Python program's failures in Python (issue 42)", () => {
  const p = useProgram("python-errors");

  beforeAll(async () => {
    writeFileSync(join(p.dir, "Pulumi.yaml"), "name: python-errors\nruntime: python\n");
    writeFileSync(join(p.dir, "__main__.py"), PROGRAM);
    const bin = await pythonVenv(inject("e2e").work);
    p.env.VIRTUAL_ENV = join(bin, "..");
    p.env.PATH = `${[bin, join(REPO_ROOT, "src/native/bin"), languageHostDir("python")].join(":")}:${p.env.PATH}`;
    p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
  }, 600_000);

  it("a bad limit_usd names limit_usd", async () => {
    p.env.MISTAKE = "limit";
    const res = await p.preview();
    expect(res.code).not.toBe(0);
    expect(res.output).toContain("limitUsd (limit_usd in Python, LimitUsd in Go): must be >= 0 (got -5)");
  }, 600_000);

  it("a nested failure names its path in every language, with no value {<nil>}", async () => {
    p.env.MISTAKE = "nested";
    const res = await p.preview();
    expect(res.code).not.toBe(0);
    expect(res.output).toMatch(
      /contentFilterBuiltins\[0\]\.action \(content_filter_builtins\[0\]\.action in Python, ContentFilterBuiltins\[0\]\.Action in Go\): "flag" is supported only for/,
    );
    expect(res.output).not.toContain("<nil>");
  }, 600_000);
});
