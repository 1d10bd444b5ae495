/**
 * The stack rules over guardrails: `requireMemberSet` (memberSetFindings) and
 * `requireWorkspaceDefault` (workspaceDefaultFindings), each a CrossGuard stack policy.
 */
import type { ReportViolation, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import { memberSetFindings } from "./member-set";
import type { EnforcementLevel, GuardrailsPolicyOptions } from "./options";
import { checkedAtUp, unknownMessage } from "./props";
import { kindOf, type ProvenanceRecords, unrecorded, unrecordedMessage } from "./provenance";
import { quoteName } from "./quote";
import { configSchema, ruleValue } from "./rule-value";
import { POLICY_RULES } from "./rules";
import { workspaceDefaultFindings } from "./workspace-default";

export function memberSetPolicy(
  opts: GuardrailsPolicyOptions,
  enforcementLevel: EnforcementLevel,
  records: ProvenanceRecords,
): StackValidationPolicy {
  const rule = POLICY_RULES.requireMemberSet;
  const validateStack = (args: StackValidationArgs, report: ReportViolation) => {
    if (ruleValue("requireMemberSet", opts, args.getConfig as () => Record<string, unknown>) === false) return;
    for (const r of args.resources)
      if (unrecorded(r.type, records.get(r.urn))) report(unrecordedMessage(r.type, r.name, rule.name), r.urn);
    const finding = memberSetFindings(args.resources, (r) => kindOf(r.type, records.get(r.urn)));
    for (const v of finding.violations) report(`guardrail ${quoteName(v.name)}: ${v.message}`, v.urn);
    if (finding.unknown)
      throw checkedAtUp(
        finding.unknown.resource.props,
        finding.unknown.key,
        unknownMessage(finding.unknown.name, finding.unknown.what, rule.name),
      );
  };
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel,
    configSchema: configSchema("requireMemberSet"),
    validateStack,
  };
}

export function workspaceDefaultPolicy(
  opts: GuardrailsPolicyOptions,
  enforcementLevel: EnforcementLevel,
  records: ProvenanceRecords,
): StackValidationPolicy {
  const rule = POLICY_RULES.requireWorkspaceDefault;
  const validateStack = (args: StackValidationArgs, report: ReportViolation) => {
    // No workspace listed anywhere: nothing to require (a pack config's `all` enables this rule
    // too, and a pack that never listed a workspace must not fail on it).
    const config = (args.getConfig() ?? {}) as Record<string, unknown>;
    if (opts.requireWorkspaceDefault === undefined && !Object.hasOwn(config, "requireWorkspaceDefault")) return;
    const workspaces = ruleValue("requireWorkspaceDefault", opts, args.getConfig as () => Record<string, unknown>);
    for (const r of args.resources)
      if (unrecorded(r.type, records.get(r.urn))) report(unrecordedMessage(r.type, r.name, rule.name), r.urn);
    const finding = workspaceDefaultFindings(args.resources, workspaces, (r) => kindOf(r.type, records.get(r.urn)));
    for (const w of finding.missing)
      report(
        `workspace ${quoteName(w)}: its default guardrail is not managed in this stack; declare it (workspaceDefaults: in the guardrail files, or a WorkspaceDefaultGuardrail whose workspaceId is its id or slug), or drop it from requireWorkspaceDefault`,
      );
    if (finding.unknown) {
      const { resource, key } = finding.unknown;
      throw checkedAtUp(
        resource.props,
        key,
        `workspace default guardrail ${quoteName(resource.name)}: which workspace it manages is not known until it exists; ${rule.name} is checked at up`,
      );
    }
  };
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel,
    configSchema: configSchema("requireWorkspaceDefault"),
    validateStack,
  };
}
