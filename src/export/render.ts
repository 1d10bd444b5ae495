/**
 * YAML text of an exported declarative file. Deterministic: the same guardrails give the
 * same bytes, so a second export is no diff in Git.
 */
import { stringify } from "yaml";

/** Where the editor finds the JSON Schema, from the folder of the files. */
export const DEFAULT_SCHEMA_REF = "../node_modules/pulumi-guardrails/schema/guardrails.schema.json";

/**
 * One file: the `yaml-language-server` line that points editors at the JSON Schema, then
 * `guardrails:` with each stable id and its settings, in the order given, then
 * `workspaceDefaults:` with each workspace id and its default guardrail's settings, then (issue
 * 40) `policies:` and `workspaceWidePolicies:`.
 */
export function renderGuardrailFile(
  guardrails: ReadonlyArray<readonly [string, Record<string, unknown>]>,
  schemaRef: string = DEFAULT_SCHEMA_REF,
  workspaceDefaults: ReadonlyArray<readonly [string, Record<string, unknown>]> = [],
  policies?: { policies: Record<string, unknown>; workspaceWidePolicies: Record<string, unknown> },
): string {
  const hasPolicies =
    policies !== undefined &&
    (Object.keys(policies.policies).length > 0 || Object.keys(policies.workspaceWidePolicies).length > 0);
  // `guardrails:` is left out only of a file that holds workspace defaults or policies alone.
  const data = {
    ...(guardrails.length > 0 || (workspaceDefaults.length === 0 && !hasPolicies)
      ? { guardrails: Object.fromEntries(guardrails) }
      : {}),
    ...(workspaceDefaults.length > 0 ? { workspaceDefaults: Object.fromEntries(workspaceDefaults) } : {}),
    ...(hasPolicies && Object.keys(policies.policies).length > 0 ? { policies: policies.policies } : {}),
    ...(hasPolicies && Object.keys(policies.workspaceWidePolicies).length > 0
      ? { workspaceWidePolicies: policies.workspaceWidePolicies }
      : {}),
  };
  const body = stringify(
    data,
    // No line folding: a long description or regex stays on one line, as the service holds it.
    { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false },
  );
  return `# yaml-language-server: $schema=${schemaRef}\n${body}`;
}
