/**
 * The Python program of a stack's native resources, from its state (`pulumi stack export`), for
 * `guardrails-export --from-state <file> --language python` (issue 42). After `pulumi import`,
 * Pulumi's `--generate-code` asks the project's language host to write the program; the Python
 * host this repository's tests build (sdk v3.68.0) answers `GenerateProgram not implemented`, and
 * so may others. The state holds what the program must say: `Read` records exactly the args a
 * program writes to match (docs/faces/native.md), so the program printed here previews with no
 * change. What it holds is program-walk.ts's; this file only spells it.
 *
 * Args become keyword arguments in the Python SDK's names (`limitUsd` is `limit_usd`), nested
 * objects dicts with snake_case keys (the SDK's `...ArgsDict`), a set's `guardrailId` the
 * guardrail's `.id`, a secret `pulumi.Output.secret(...)`, protect `opts=pulumi.ResourceOptions(protect=True)`.
 */
import { quoted, u8Escape, variables } from "./program-text";
import { type PackageSchema, type Value, walkState } from "./program-walk";

/** `limitUsd` as the Python SDK spells it: `limit_usd` (`enforceZdrVendorA`: `enforce_zdr_vendor_a`). */
export const snakeCase = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield pulumi guardrails __debug__".split(
    " ",
  ),
);

/** A value as a Python literal; objects as dicts with the SDK's snake_case keys. */
function literal(v: Value): string {
  if (v.kind === "list") return `[${v.items.map(literal).join(", ")}]`;
  if (v.kind === "object") return `{${v.entries.map(([k, e]) => `"${snakeCase(k)}": ${literal(e)}`).join(", ")}}`;
  if (typeof v.value === "boolean") return v.value ? "True" : "False";
  return typeof v.value === "number" ? String(v.value) : quoted(v.value, u8Escape);
}

/** The program, and a note per resource left out. */
export function renderPythonProgram(state: unknown, schema: PackageSchema): { text: string; notes: string[] } {
  const { resources, notes } = walkState(state, schema);
  const names = variables(
    resources.map((r) => r.name),
    PY_KEYWORDS,
  );
  const lines = ["import pulumi", "import pulumi_guardrails as guardrails", ""];
  resources.forEach((r, i) => {
    const kwargs = r.args.map((a) => {
      const value = a.ref !== undefined ? `${names[a.ref]}.id` : literal(a.value);
      return `    ${snakeCase(a.key)}=${a.secret ? `pulumi.Output.secret(${value})` : value},`;
    });
    if (r.protect) kwargs.push("    opts=pulumi.ResourceOptions(protect=True),");
    lines.push(`${names[i]} = guardrails.${r.cls}(`, `    ${quoted(r.name, u8Escape)},`, ...kwargs, ")");
  });
  return { text: `${lines.join("\n")}\n`, notes };
}
