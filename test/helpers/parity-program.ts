/**
 * One description of a Pulumi program over the package's three resource kinds, written out as
 * the program of either face: the dynamic face's resource classes (`pulumi-guardrails`), or the
 * native face's generated SDK (`pulumi-guardrails/native`), with the same class names and args.
 * Both programs come from the same data, so a parity run compares the faces and not two
 * hand-written programs.
 */
export type Face = "dynamic" | "native";
export type Kind =
  | "Guardrail"
  | "GuardrailMemberAssignment"
  | "GuardrailKeyAssignment"
  | "WorkspaceDefaultGuardrail"
  | "BudgetPolicy"
  | "ModelAccessPolicy"
  | "ModerationPolicy"
  | "WorkspaceWidePolicy";
export const KINDS: readonly Kind[] = [
  "Guardrail",
  "GuardrailMemberAssignment",
  "GuardrailKeyAssignment",
  "WorkspaceDefaultGuardrail",
  "BudgetPolicy",
  "ModelAccessPolicy",
  "ModerationPolicy",
  "WorkspaceWidePolicy",
];

/** Another resource's id (`guardrailId: idOf("eng")`). */
export interface IdRef {
  $id: string;
}
/** A value wrapped in `pulumi.secret(...)`. */
export interface SecretValue {
  $secret: Value;
}
export type Value = string | number | boolean | null | IdRef | SecretValue | Value[] | { [k: string]: Value };

export const idOf = (name: string): IdRef => ({ $id: name });
export const secret = (value: Value): SecretValue => ({ $secret: value });

/** One resource of a program: its kind, its Pulumi name and its args in the program's names. */
export interface ResourceSpec {
  kind: Kind;
  name: string;
  args: Record<string, Value>;
}

const isRef = (v: Value): v is IdRef => typeof v === "object" && v !== null && !Array.isArray(v) && "$id" in v;
const isSecret = (v: Value): v is SecretValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "$secret" in v;

/** A program variable per resource name (`eng-members` -> `r_eng_members`). */
const variable = (name: string) => `r_${name.replace(/[^A-Za-z0-9]/g, "_")}`;

/** A value as TypeScript source. */
export function source(v: Value): string {
  if (isRef(v)) return `${variable(v.$id)}.id`;
  if (isSecret(v)) return `pulumi.secret(${source(v.$secret)})`;
  if (Array.isArray(v)) return `[${v.map(source).join(", ")}]`;
  if (v !== null && typeof v === "object")
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${source(x)}`)
      .join(", ")} }`;
  return JSON.stringify(v);
}

/** How one face writes the program's head and one resource. */
interface FaceWriter {
  head: string;
  resource(r: ResourceSpec): string;
}

const DYNAMIC: FaceWriter = {
  head: `import * as pulumi from "@pulumi/pulumi";\nimport { ${KINDS.join(", ")} } from "pulumi-guardrails";\nvoid pulumi;
void [${KINDS.join(", ")}];`,
  resource: (r) => `new ${r.kind}(${JSON.stringify(r.name)}, ${source(r.args)})`,
};

const NATIVE: FaceWriter = {
  // The generated SDK, as a user writes it (every e2e program has the packed package installed).
  head: `import * as pulumi from "@pulumi/pulumi";\nimport * as guardrails from "pulumi-guardrails/native";\nvoid pulumi;`,
  resource: (r) => `new guardrails.${r.kind}(${JSON.stringify(r.name)}, ${source(r.args)})`,
};

/**
 * The program of `face` for `resources` (each declared before a resource that refers to it),
 * exporting every resource's id as `ids` (by Pulumi name).
 */
export function programText(face: Face, resources: readonly ResourceSpec[]): string {
  const writer = face === "dynamic" ? DYNAMIC : NATIVE;
  const lines = resources.map((r) => `const ${variable(r.name)} = ${writer.resource(r)};`);
  const ids = resources.map((r) => `${JSON.stringify(r.name)}: ${variable(r.name)}.id`).join(", ");
  return `${writer.head}\n\n${lines.join("\n")}\n\nexport const ids = { ${ids} };\n`;
}
