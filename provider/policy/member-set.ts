/**
 * `requireMemberSet`, a stack rule: every guardrail has a `GuardrailMemberAssignment` with at
 * least one member. A set belongs to a guardrail through its `guardrailId` input's
 * dependency on it (`guardrailId: guardrail.id`, as `declareGuardrails` writes it), which the
 * engine knows even while the id itself is unknown; a set given a literal id cannot be tied
 * to a resource of the stack.
 */
import type { PolicyResource } from "@pulumi/policy";
import { GUARDRAIL_TYPE, MEMBER_ASSIGNMENT_TYPE } from "./type-tokens";
import { plainProps, read } from "./props";

export interface MemberSetFinding {
  /** [guardrail's program name, violation] pairs. */
  violations: { name: string; urn: string; message: string }[];
  /** A set whose members are not known yet: the rule is checked at `up`. */
  unknown?: { resource: PolicyResource; name: string };
}

export function memberSetFindings(resources: readonly PolicyResource[]): MemberSetFinding {
  const sets = resources.filter((r) => r.type === MEMBER_ASSIGNMENT_TYPE);
  const finding: MemberSetFinding = { violations: [] };
  for (const g of resources.filter((r) => r.type === GUARDRAIL_TYPE)) {
    const own = sets.filter((s) => (s.propertyDependencies?.guardrailId ?? s.dependencies ?? []).some((d) => d.urn === g.urn));
    if (own.length === 0) {
      finding.violations.push({ name: g.name, urn: g.urn, message: "has no GuardrailMemberAssignment; every guardrail needs a member set (pass guardrailId: <guardrail>.id)" });
      continue;
    }
    let anyMember = false;
    let unknownSet: PolicyResource | undefined;
    for (const s of own) {
      const members = read<Record<string, unknown>>(plainProps(s.props), "members");
      if (members.unknown) unknownSet ??= s;
      else if (Object.values(members.value ?? {}).some((v) => v === true)) anyMember = true;
    }
    if (anyMember) continue;
    if (unknownSet) finding.unknown ??= { resource: unknownSet, name: g.name };
    else finding.violations.push({ name: g.name, urn: g.urn, message: "has a member set with no members; every guardrail needs at least one member" });
  }
  return finding;
}
