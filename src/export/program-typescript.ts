/**
 * The TypeScript program of a stack's native resources, from its state, for `guardrails-export
 * --from-state <file> --language typescript` (issue 42): the native face's SDK as the docs import
 * it (`pulumi-guardrails/native`), `new guardrails.Guardrail("name", {...}, { protect: true })`,
 * args camelCase as in the state, a secret `pulumi.secret(...)`, a set's `guardrailId` its
 * guardrail's `.id`. What it holds is program-walk.ts's; this file only spells it.
 */
import { braceEscape, quoted, referenced, variables } from "./program-text";
import { type PackageSchema, type Value, walkState } from "./program-walk";

/** Reserved words and the program's own imports: a variable of either name gets a `_`. */
const TS_RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield await async of any boolean number string symbol type from get set declare module namespace require undefined NaN Infinity eval arguments pulumi guardrails".split(
    " ",
  ),
);

/** The program's imports; the module names spliced in, so the import graph does not read them as this file's. */
const IMPORTS = [
  `import * as pulumi from ${JSON.stringify("@pulumi/pulumi")};`,
  `import * as guardrails from ${JSON.stringify("pulumi-guardrails/native")};`,
];

/** A value as a TypeScript literal; keys are the schema's, all identifiers. */
function literal(v: Value): string {
  if (v.kind === "list") return `[${v.items.map(literal).join(", ")}]`;
  if (v.kind === "object") return `{ ${v.entries.map(([k, e]) => `${k}: ${literal(e)}`).join(", ")} }`;
  if (typeof v.value === "string") return quoted(v.value, braceEscape);
  return String(v.value);
}

/** The program, and a note per resource left out. */
export function renderTypeScriptProgram(state: unknown, schema: PackageSchema): { text: string; notes: string[] } {
  const { resources, notes } = walkState(state, schema);
  const names = variables(
    resources.map((r) => r.name),
    TS_RESERVED,
  );
  const used = referenced(resources.map((r) => r.args));
  const lines = [...IMPORTS, ""];
  resources.forEach((r, i) => {
    const props = r.args.map((a) => {
      const value = a.ref !== undefined ? `${names[a.ref]}.id` : literal(a.value);
      return `    ${a.key}: ${a.secret ? `pulumi.secret(${value})` : value},`;
    });
    const opts = r.protect ? ", { protect: true }" : "";
    lines.push(
      `${used.has(i) ? `const ${names[i]} = ` : ""}new guardrails.${r.cls}(${quoted(r.name, braceEscape)}, {`,
      ...props,
      `}${opts});`,
    );
  });
  return { text: `${lines.join("\n")}\n`, notes };
}
