/**
 * Where the member and key sets send their ids, for the organization's settings rules (issue
 * 38: anything that moves a member or key is a loosening until proven otherwise). The settings
 * rules judge each guardrail and workspace default of the stack, so a set whose `guardrailId`
 * names one of them is covered by that guardrail's own findings; a set that names a guardrail
 * outside the stack moves its ids to settings no rule reads. A `guardrailId` not known yet
 * (preview) counts when it is computed from guardrails of the stack alone; otherwise the rule is
 * checked at up. A literal id is judged only when every guardrail's id of the stack is known.
 */
import type { PolicyResource, ReportViolation, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import type { EnforcementLevel } from "./options";
import { checkedAtUp, plainProps, read } from "./props";
import { holdsSettings, isSetKind, kindOf, type Kind, type ProvenanceRecords } from "./provenance";
import { quoteName } from "./quote";

/** The name of the stack policy that follows the settings rules to where the sets send their ids. */
export const SET_TARGETS_POLICY = "guardrails-sets-on-checked-guardrails";

/**
 * The stack policy: a member or key set whose guardrailId names a guardrail outside the stack
 * is reported, at the strictest level of the settings rules (`levels`, by policy name) enabled;
 * off when none is.
 */
export function setTargetPolicy(
  levels: ReadonlyMap<string, EnforcementLevel>,
  records: ProvenanceRecords,
): StackValidationPolicy {
  const rules = [...levels].filter(([, l]) => l !== "disabled").map(([name]) => name);
  const all = new Set(levels.values());
  const enforcementLevel = all.has("mandatory") ? "mandatory" : all.has("advisory") ? "advisory" : "disabled";
  const validateStack = (args: StackValidationArgs, report: ReportViolation) => {
    const finding = setTargetFindings(args.resources, (r) => kindOf(r.type, records.get(r.urn)));
    for (const s of finding.unchecked) {
      const keys = kindOf(s.type, records.get(s.urn)) === "keyAssignment";
      report(
        `${keys ? "key set" : "member set"} ${quoteName(s.name)}: its guardrailId names a guardrail outside this stack, so ${rules.length ? rules.join(", ") : "the organization's rules"} cannot check the settings its ${keys ? "keys" : "members"} join; manage that guardrail in this stack (pulumi import), or point the set at one that is`,
        s.urn,
      );
    }
    if (finding.unknown)
      throw checkedAtUp(
        finding.unknown.props,
        "guardrailId",
        `${quoteName(finding.unknown.name)}: which guardrail its guardrailId names is not known until the resources it depends on exist; ${SET_TARGETS_POLICY} is checked at up`,
      );
  };
  return {
    name: SET_TARGETS_POLICY,
    description: "Each member and key set sends its ids to a guardrail of the stack, which the settings rules check.",
    enforcementLevel,
    validateStack,
  };
}

export interface SetTargetFinding {
  /** Sets whose known `guardrailId` names no guardrail of the stack. */
  unchecked: PolicyResource[];
  /** A set whose `guardrailId` is not known yet and may name a guardrail outside the stack: checked at up. */
  unknown?: PolicyResource;
}

/** The sets of the stack whose guardrail the settings rules cannot check. */
export function setTargetFindings(
  resources: readonly PolicyResource[],
  kindOf: (r: PolicyResource) => Kind | undefined,
): SetTargetFinding {
  const checked = resources.filter((r) => holdsSettings(kindOf(r)));
  const ids = checked.map(idOf);
  // A guardrail whose id this view does not show (not created yet, or state of an earlier version)
  // could be the one a literal id names: no finding on a guess; at up every id is known.
  const unreadable = ids.some((id) => id === undefined);
  const finding: SetTargetFinding = { unchecked: [] };
  for (const s of resources) {
    const kind = kindOf(s);
    if (!isSetKind(kind)) continue;
    const value = read<unknown>(plainProps(s.props), "guardrailId");
    if (value.unknown) {
      const deps = s.propertyDependencies?.guardrailId ?? [];
      if (deps.length === 0 || !deps.every((d) => checked.includes(d))) finding.unknown ??= s;
      continue;
    }
    const id = typeof value.value === "string" ? value.value.trim().toLowerCase() : undefined;
    if ((id !== undefined && ids.includes(id)) || unreadable) continue;
    finding.unchecked.push(s);
  }
  return finding;
}

/** A guardrail's (or a workspace default's) id from its outputs, lower case; undefined before it exists. */
function idOf(g: PolicyResource): string | undefined {
  const id = read<unknown>(plainProps(g.props), "guardrailId");
  return !id.unknown && typeof id.value === "string" ? id.value.trim().toLowerCase() : undefined;
}
