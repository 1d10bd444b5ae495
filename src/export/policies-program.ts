/**
 * The Pulumi program (TypeScript) of steps 1 and 2 of the move from guardrails to policies
 * (docs/guides/moving-to-policies.md), from a `PolicyMove`. Step 2 runs only once the stack's
 * config says `moveWorkspaceDefaults: true`, so step 1 can be applied and checked on its own.
 * Every value is written as JSON, which is TypeScript, so nothing the service sends can break
 * out of its literal.
 */
import type { PlannedPolicy, PolicyMove } from "./to-policies";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** One `new guardrails.<Type>(...)` statement, `indent` spaces in. */
function resource(p: PlannedPolicy, indent: string): string {
  const args = Object.entries(p.args).map(
    ([k, v]) => `${indent}  ${IDENT.test(k) ? k : JSON.stringify(k)}: ${JSON.stringify(v)},`,
  );
  return [`${indent}new guardrails.${p.type}(${JSON.stringify(p.resourceName)}, {`, ...args, `${indent}});`].join("\n");
}

/** A comment line: the text cannot end the comment or start a new line. */
const comment = (indent: string, text: string) => `${indent}// ${text.replace(/[\r\n\u2028\u2029]/g, " ")}`;

/** The program's text, ending with a newline. */
export function renderPoliciesProgram(move: PolicyMove): string {
  const out = [
    "// Written by guardrails-export --policies-program: steps 1 and 2 of",
    "// docs/guides/moving-to-policies.md (pulumi-guardrails). Each step leaves no member or key less",
    "// restricted: apply one, check `pulumi preview` and the PR summary, then the next.",
    "//   1. `pulumi up`: a policy per part of each guardrail, assigned to the same members and keys.",
    "//   2. `pulumi config set moveWorkspaceDefaults true && pulumi up`: the workspace default policies.",
    "//   3. In the guardrails' program: remove their members and keys, `pulumi up`.",
    "//   4. There: delete the guardrails, `pulumi up`.",
    // The program's imports, built so this module's own import walls do not read them as arrows.
    ["import * as pulumi from ", JSON.stringify("@pulumi/pulumi"), ";"].join(""),
    ["import * as guardrails from ", JSON.stringify("pulumi-guardrails"), ";"].join(""),
    "",
    "// Step 1.",
  ];
  for (const p of move.policies) {
    out.push(comment("", `${p.type} of guardrail ${JSON.stringify(String(p.args.name))} (${p.guardrailId})`));
    out.push(resource(p, ""));
  }
  if (move.defaults.length > 0) {
    out.push(
      "",
      "// Step 2: the workspace default guardrails as default policies. Who holds a guardrail is",
      "// opted out of each kind their guardrail does not set: the default guardrail never applied to them.",
      'if (new pulumi.Config().getBoolean("moveWorkspaceDefaults")) {',
    );
    for (const p of move.defaults) {
      out.push(
        comment("  ", `${p.type}: default of workspace ${String(p.args.workspaceId)} (guardrail ${p.guardrailId})`),
      );
      out.push(resource(p, "  "));
    }
    out.push("}");
  }
  for (const n of move.notes) out.push(comment("", `note: ${n}`));
  return `${out.join("\n")}\n`;
}
