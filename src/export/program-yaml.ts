/**
 * The Pulumi YAML program of a stack's native resources, from its state, for `guardrails-export
 * --from-state <file> --language yaml` (issue 42): its `resources:` section, to put in the
 * project's Pulumi.yaml. Each resource is keyed by its logical name, `type: guardrails:index:...`,
 * `properties` camelCase as in the state, `options: {protect: true}`, a secret
 * `{fn::secret: ...}`, a set's `guardrailId` `${name.id}` when its guardrail's name can be
 * written inside `${...}` (else the id itself, the same value). The YAML host's
 * `--generate-code` writes this too; this command keeps one answer for every language.
 *
 * Every string is double-quoted (program-text.ts), and every `$` doubled: Pulumi YAML reads
 * `${...}` in any string as a reference and `$$` as one `$`. Two resources of one name (of two
 * types) cannot both be keys: refused, naming it. What it holds is program-walk.ts's.
 */
import { escapeInvisible } from "../core/text/controls";
import { StateMigrationError } from "./from-state";
import { quoted, u8Escape } from "./program-text";
import { type PackageSchema, type Value, walkState } from "./program-walk";

/** A string as Pulumi YAML reads it back: quoted, `$` doubled. */
const text = (s: string) =>
  quoted(
    s.replaceAll("$", () => "$$"),
    u8Escape,
  );

/** A value as a YAML flow literal. */
function literal(v: Value): string {
  if (v.kind === "list") return `[${v.items.map(literal).join(", ")}]`;
  if (v.kind === "object") return `{${v.entries.map(([k, e]) => `${k}: ${literal(e)}`).join(", ")}}`;
  return typeof v.value === "string" ? text(v.value) : String(v.value);
}

/**
 * A name `${name.id}` reads as one root: what Pulumi YAML's property access takes without
 * quoting, and not its built-in variable `pulumi` (`${pulumi.cwd}`), which a reference would mean.
 */
const referable = (name: string) => /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && name !== "pulumi";

/** The program's `resources:` section, and a note per resource left out. */
export function renderYamlProgram(state: unknown, schema: PackageSchema): { text: string; notes: string[] } {
  const { resources, notes } = walkState(state, schema);
  const seen = new Set<string>();
  const lines = ["resources:"];
  if (resources.length === 0) lines[0] = "resources: {}";
  for (const r of resources) {
    if (seen.has(r.name))
      throw new StateMigrationError(
        `${escapeInvisible(r.name)}: two resources of this stack have this name, and a Pulumi YAML program keys its resources by name`,
      );
    seen.add(r.name);
    lines.push(`  ${quoted(r.name, u8Escape)}:`, `    type: ${r.token}`);
    if (r.args.length > 0) lines.push("    properties:");
    for (const a of r.args) {
      const target = a.ref === undefined ? undefined : resources[a.ref]!.name;
      const value = target !== undefined && referable(target) ? `"\${${target}.id}"` : literal(a.value);
      lines.push(`      ${a.key}: ${a.secret ? `{"fn::secret": ${value}}` : value}`);
    }
    if (r.protect) lines.push("    options:", "      protect: true");
  }
  return { text: `${lines.join("\n")}\n`, notes };
}
