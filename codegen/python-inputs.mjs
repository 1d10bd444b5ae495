// What codegen/generate-sdk.mjs does to the Python SDK after Pulumi's generator, so that a program
// written as the docs write it passes `mypy --strict` (issue 42):
//   - an enum input takes the enum's plain strings too: `pulumi.Input['ResetInterval']` becomes
//     `pulumi.Input[Union['ResetInterval', Literal['daily', 'weekly', 'monthly']]]`. A `Literal`
//     and not `str`: a typo (`"montly"`) still fails the type check, as the enum class would.
//     The runtime sends a plain string as it sends the enum's value, so only the types change.
//   - an `...Args` class's nested input takes the `...ArgsDict` form too, as the resource's
//     keyword arguments already do: `pulumi.Input['BuiltinFilterArgs']` becomes
//     `pulumi.Input[Union['BuiltinFilterArgs', 'BuiltinFilterArgsDict']]`.
// The generator (pkg/v3 python codegen) writes neither: enums as the enum class alone, and the
// dict form only in a resource's keyword arguments, not in its `...Args` class.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The enum types of a package schema: Python class name -> its values. */
export function enumsOf(schema) {
  return Object.entries(schema.types)
    .filter(([, t]) => Array.isArray(t.enum))
    .map(([token, t]) => [token.split(":").pop(), t.enum.map((e) => e.value)]);
}

const quote = (v) => `'${String(v).replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The text of one generated module with the wider input types. */
export function widenInputs(text, enums, dictNames) {
  let out = text;
  for (const [name, values] of enums) {
    const literal = `Union['${name}', Literal[${values.map(quote).join(", ")}]]`;
    out = out
      .replaceAll(`pulumi.Input['${name}']`, `pulumi.Input[${literal}]`)
      .replaceAll(`pulumi.Input[Optional['${name}']]`, `pulumi.Input[Optional[${literal}]]`);
  }
  for (const args of dictNames)
    out = out.replaceAll(`pulumi.Input['${args}']`, `pulumi.Input[Union['${args}', '${args}Dict']]`);
  if (out !== text && !/^from typing import .*\bLiteral\b/m.test(out))
    out = out.replace(/^from typing import (.*)$/m, (_, names) => `from typing import Literal, ${names}`);
  return out;
}

/** Rewrites every module of the Python package folder `pkg` (`sdk/python/pulumi_guardrails`). */
export function widenPythonInputs(pkg, schema) {
  const enums = enumsOf(schema);
  const inputs = readFileSync(join(pkg, "_inputs.py"), "utf8");
  const dictNames = [...inputs.matchAll(/^class (\w+Args)Dict\(TypedDict\):/gm)].map((m) => m[1]);
  for (const file of readdirSync(pkg).filter((f) => f.endsWith(".py"))) {
    const path = join(pkg, file);
    const text = readFileSync(path, "utf8");
    const wide = widenInputs(text, enums, dictNames);
    if (wide !== text) writeFileSync(path, wide);
  }
}
