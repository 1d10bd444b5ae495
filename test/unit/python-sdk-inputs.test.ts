/**
 * Issue 42: the generated Python SDK reads as Python (codegen/python-inputs.mjs): enum inputs take
 * their plain strings, `...Args` classes take the `...ArgsDict` form, and docs and deprecation
 * warnings name args as Python does. That a program type-checks is docs-examples.test.ts's (mypy).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a codegen script in JavaScript, with no declarations
import { pythonDocNames, widenInputs } from "../../codegen/python-inputs.mjs";
// @ts-expect-error: a codegen script in JavaScript, with no declarations
import { goDocNames, goNames } from "../../codegen/go-doc-names.mjs";

const SDK = join(__dirname, "../../sdk/python/pulumi_guardrails");
const read = (file: string) => readFileSync(join(SDK, file), "utf8");

describe("the Python SDK as generated (issue 42)", () => {
  it("GuardrailArgs takes the plain strings of an enum and the dict form of a filter", () => {
    const args = read("guardrail.py").slice(0, read("guardrail.py").indexOf("class Guardrail(pulumi.CustomResource)"));
    expect(args).toContain(
      "reset_interval: pulumi.Input[Optional[Union['ResetInterval', Literal['daily', 'weekly', 'monthly']]]] = None",
    );
    expect(args).toContain("pulumi.Input[Union['DataRegion', Literal['global', 'europe', 'us']]]");
    expect(args).toContain("pulumi.Input[Union['BuiltinFilterArgs', 'BuiltinFilterArgsDict']]");
    expect(args).not.toMatch(/pulumi\.Input\['(ResetInterval|DataRegion)'\]/);
    // The getters keep the class alone: the runtime reads them to turn a dict's snake_case keys
    // (`scan_scope`) into the schema's (`scanScope`), and a Union there stops it.
    expect(args).toContain(
      "def content_filter_builtins(self) -> pulumi.Input[Optional[Sequence[pulumi.Input['BuiltinFilterArgs']]]]:",
    );
    expect(args).not.toMatch(/def \w+\(self[^\n]*BuiltinFilterArgsDict/);
  });

  it("the enforce_zdr deprecation warning names the Python args", () => {
    expect(read("guardrail.py")).toContain(
      'pulumi.log.warn("""enforce_zdr is deprecated: Use the four `enforce_zdr_*` per-vendor-group args.',
    );
    for (const file of ["guardrail.py", "_inputs.py", "outputs.py", "workspace_default_guardrail.py"])
      expect(read(file)).not.toMatch(/`(enforceZdr\*?|limitUsd|memberUserIds)`/);
  });
});

describe("python-inputs.mjs", () => {
  it("widens an enum input and a nested Args input, importing Literal once", () => {
    const text =
      "from typing import Any, Union\nx: pulumi.Input['Color']\ny: pulumi.Input[Optional['Color']]\nz: pulumi.Input['PartArgs']\n";
    expect(widenInputs(text, [["Color", ["red", "it's"]]], ["PartArgs"])).toBe(
      "from typing import Literal, Any, Union\n" +
        "x: pulumi.Input[Union['Color', Literal['red', 'it\\'s']]]\n" +
        "y: pulumi.Input[Optional[Union['Color', Literal['red', 'it\\'s']]]]\n" +
        "z: pulumi.Input[Union['PartArgs', 'PartArgsDict']]\n",
    );
    expect(widenInputs("from typing import Any\nx = 1\n", [["Color", ["red"]]], [])).toBe(
      "from typing import Any\nx = 1\n",
    );
  });

  it("renames only backquoted names it knows, a glob too", () => {
    const names = new Map([
      ["enforceZdr", "enforce_zdr"],
      ["limitUsd", "limit_usd"],
    ]);
    expect(pythonDocNames("`enforceZdr*`, `limitUsd`, limitUsd, `modelAccess`", names)).toBe(
      "`enforce_zdr_*`, `limit_usd`, limitUsd, `modelAccess`",
    );
  });
});

describe("the Go SDK's doc comments name args as Go does (issue 42)", () => {
  it("the deprecation of enforceZdr names the Go fields, in comments only", () => {
    const text = readFileSync(join(__dirname, "../../sdk/go/guardrails/guardrail.go"), "utf8");
    const deprecated = text.split("\n").filter((l) => l.includes("// Deprecated: Use the four"));
    expect(deprecated.length).toBeGreaterThan(0);
    for (const line of deprecated) expect(line).toContain("`EnforceZdr*`");
    expect(text).not.toMatch(/\/\/.*`enforceZdr\*`/);
    // The struct tags keep the wire's names.
    expect(text).toContain('`pulumi:"enforceZdr"`');
    // An enum's value keeps its spelling: `modelAccess` is a policyType, not only a field.
    const kinds = readFileSync(join(__dirname, "../../sdk/go/guardrails/getPolicy.go"), "utf8");
    expect(kinds).toContain("`budget`, `modelAccess`");
    expect(kinds).not.toContain("`ModelAccess`");
  });

  it("renames backquoted names in comment lines only, a glob too", () => {
    const names = goNames(['\tLimitUsd *float64 `pulumi:"limitUsd"`\n\tEnforceZdr *bool `pulumi:"enforceZdr"`']);
    expect([...names]).toEqual([
      ["limitUsd", "LimitUsd"],
      ["enforceZdr", "EnforceZdr"],
    ]);
    names.set("reference", "Reference");
    expect(
      goDocNames(
        '\t// Use `enforceZdr*` or `limitUsd`, not `modelAccess` (the API\'s `reference`).\nx := "`limitUsd`"\n',
        names,
      ),
    ).toBe('\t// Use `EnforceZdr*` or `LimitUsd`, not `modelAccess` (the API\'s `reference`).\nx := "`limitUsd`"\n');
  });
});
