/**
 * The Go program of a stack's native resources, from its state, for `guardrails-export
 * --from-state <file> --language go` (issue 42), against the Go SDK (sdk/go, imported as the
 * docs do). Go needs each value's type, and the walk (program-walk.ts) gives it from the schema;
 * the names are the generated SDK's: `pulumi.String`, `pulumi.Float64`, `pulumi.Bool` and their
 * `...Array`s; an enum `guardrails.ResetInterval("monthly")` and `guardrails.DataRegionArray{...}`;
 * an object `guardrails.BuiltinFilterArgs{...}` in a `guardrails.BuiltinFilterArray{...}`; fields
 * the camelCase key with its first letter upper. A secret is `pulumi.ToSecret(x).(<its Output>)`,
 * protect `pulumi.Protect(true)`, a set's `guardrailId` its guardrail's `.ID()`. Only a resource
 * another names gets a variable (Go refuses unused ones); every error is returned.
 */
import { quoted, referenced, u8Escape, variables } from "./program-text";
import { type PackageSchema, type Shape, type Value, walkState } from "./program-walk";

/** Go's keywords and predeclared names, and the program's own: a variable of any gets a `_`. */
const GO_RESERVED = new Set(
  "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32 uint64 uintptr true false iota nil any comparable append cap clear close complex copy delete imag len make max min new panic print println real recover main pulumi guardrails ctx err".split(
    " ",
  ),
);

/** `scanScope` as a Go field: `ScanScope`. */
const field = (key: string) => key.charAt(0).toUpperCase() + key.slice(1);

const SCALAR = { string: "String", number: "Float64", boolean: "Bool" } as const;

/** The Go type a literal of `shape` is written as (`pulumi.StringArray`, `guardrails.BuiltinFilterArgs`). */
function typeOf(shape: Shape): string {
  switch (shape.kind) {
    case "enum":
      return `guardrails.${shape.name}`;
    case "object":
      return `guardrails.${shape.name}Args`;
    case "array": {
      const items = shape.items;
      if (items.kind === "enum" || items.kind === "object") return `guardrails.${items.name}Array`;
      if (items.kind === "array")
        throw new Error("the schema has a list of lists, which this command cannot write in Go");
      return `pulumi.${SCALAR[items.kind]}Array`;
    }
    default:
      return `pulumi.${SCALAR[shape.kind]}`;
  }
}

/** The Output type `pulumi.ToSecret` answers for a literal of `shape`. */
const outputOf = (shape: Shape) => `${typeOf(shape).replace(/Args$/, "")}Output`;

/** A value as a Go literal of its type. */
function literal(v: Value): string {
  const type = typeOf(v.shape);
  if (v.kind === "list") return `${type}{${v.items.map(literal).join(", ")}}`;
  if (v.kind === "object") return `${type}{${v.entries.map(([k, e]) => `${field(k)}: ${literal(e)}`).join(", ")}}`;
  // A number as JavaScript prints it (`1e+21`, `0.1`) is a Go float literal too.
  return `${type}(${typeof v.value === "string" ? quoted(v.value, u8Escape) : String(v.value)})`;
}

/** The program (package main), and a note per resource left out. */
export function renderGoProgram(state: unknown, schema: PackageSchema): { text: string; notes: string[] } {
  const { resources, notes } = walkState(state, schema);
  const names = variables(
    resources.map((r) => r.name),
    GO_RESERVED,
  );
  const used = referenced(resources.map((r) => r.args));
  const lines = [
    "package main",
    "",
    "import (",
    '\t"github.com/pulumi-guardrails/pulumi-guardrails/sdk/go/guardrails"',
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ")",
    "",
    "func main() {",
    "\tpulumi.Run(func(ctx *pulumi.Context) error {",
  ];
  if (resources.length > 0) lines.push("\t\tvar err error");
  resources.forEach((r, i) => {
    const fields = r.args.map((a) => {
      const value = a.ref !== undefined ? `${names[a.ref]}.ID()` : literal(a.value);
      const output = a.ref !== undefined ? "pulumi.IDOutput" : outputOf(a.value.shape);
      return `\t\t\t${field(a.key)}: ${a.secret ? `pulumi.ToSecret(${value}).(${output})` : value},`;
    });
    const opts = r.protect ? ", pulumi.Protect(true)" : "";
    const target = used.has(i) ? `${names[i]}, err :=` : "_, err =";
    lines.push(
      `\t\t${target} guardrails.New${r.cls}(ctx, ${quoted(r.name, u8Escape)}, &guardrails.${r.cls}Args{`,
      ...fields,
      `\t\t}${opts})`,
      "\t\tif err != nil {",
      "\t\t\treturn err",
      "\t\t}",
    );
  });
  lines.push("\t\treturn nil", "\t})", "}");
  return { text: `${lines.join("\n")}\n`, notes };
}
