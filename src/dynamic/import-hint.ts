/**
 * Pulumi cannot import into a dynamic-provider resource: the provider's code travels in the
 * resource's own inputs, and an import has none yet, so the engine's read fails inside
 * Pulumi with "Cannot read properties of undefined (reading 'toJavaScript')". The resource
 * classes refuse the `import` option up front and show the form that works (issue 14).
 * `pulumi import` on the command line runs no program, so this package never sees it;
 * docs/resources/guardrail.md says to use `adoptId` there too.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceTypeName } from "../core/kinds";
import { UserError } from "../core/user-error";

const SET_FIX = `Drop the \`import\` option: an assignment set needs no import. List the ids that are already assigned; the next \`pulumi up\` records them without a write.`;

const POLICY_FIX =
  "Import it with the native provider (`guardrails:index:<Kind>`, import id `<workspaceId>/<policyId>`), or drop the `import` option and delete the policy on the service so the next `pulumi up` creates it from the program.";

/** What to do instead of importing, per kind. */
const FIX: Record<ResourceTypeName, (name: string, id: string) => string> = {
  Guardrail: (name, id) =>
    `Drop the \`import\` option and adopt the existing guardrail by its id: new Guardrail(${JSON.stringify(name)}, { ...args, adoptId: ${JSON.stringify(id)} }). The next \`pulumi up\` takes it over and sets it to the program's args.`,
  WorkspaceDefaultGuardrail: () =>
    "Drop the `import` option: a workspace's default guardrail needs no import. The next `pulumi up` reads it and sets what differs from the program's args.",
  GuardrailMemberAssignment: () => SET_FIX,
  GuardrailKeyAssignment: () => SET_FIX,
  BudgetPolicy: () => POLICY_FIX,
  ModelAccessPolicy: () => POLICY_FIX,
  ModerationPolicy: () => POLICY_FIX,
  WorkspaceWidePolicy: (_name, id) =>
    `Import it with the native provider (\`guardrails:index:WorkspaceWidePolicy\`, import id the policy's id: ${JSON.stringify(id)}), or drop the \`import\` option and delete the policy on the service so the next \`pulumi up\` creates it from the program.`,
};

/** Throws a clean program error (no stack trace) when `opts.import` is set. */
export function refuseImportOption(
  kind: ResourceTypeName,
  name: string,
  opts: pulumi.CustomResourceOptions | undefined,
): void {
  if (opts?.import === undefined) return;
  const id = typeof opts.import === "string" ? opts.import : "<id>";
  const limit = `${kind} "${name}": the \`import\` resource option (and \`pulumi import\`) cannot work for this package's resources: they are Pulumi dynamic-provider resources, and Pulumi can only import resources of a provider plugin.`;
  const fix = FIX[kind](name, id);
  throw new UserError(`${limit} ${fix}`);
}
