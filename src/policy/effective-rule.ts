/**
 * `effectiveAccess`, a stack rule (issue 41): "no member outside group G can reach model M",
 * judged at preview from the layers the stack plans. The stack's resources are read into planned
 * resources and every subject's facts come from core/access `plannedAccess`, as the PR summary's
 * do; no second copy of the rules. It fails closed: a layer that cannot be known at preview (a
 * value known only after apply, a secret list, a set whose guardrail cannot be told, a member's
 * own guardrail the stack does not assign, an unmanaged workspace default guardrail) is a
 * violation naming it, never a pass. docs/effective-access.md, "In the policy pack".
 */
import type { PolicyResource, ReportViolation, StackValidationArgs, StackValidationPolicy } from "@pulumi/policy";
import {
  type EffectiveAccess,
  effectiveAccess,
  type PlannedResource,
  type PlannedSubject,
  plannedAccess,
} from "../core/access";
import { KINDS, TYPE_NAMES } from "../core/kinds";
import { idOf, targetOf } from "./member-set";
import { modelMatches } from "./model-ids";
import type { EnforcementLevel, GuardrailsPolicyOptions } from "./options";
import { containsUnknownValue, plainProps } from "./props";
import { kindOf, type ProvenanceRecords, unrecorded, unrecordedMessage } from "./provenance";
import { quoteName } from "./quote";
import { configSchema, ruleValue } from "./rule-value";
import { POLICY_RULES } from "./rules";

/** What a secret input reads as: never an id or a setting the rule can name. */
const SECRET = Object.freeze({ secret: true });
const opaque = (v: unknown) => v === SECRET || containsUnknownValue(v);
/** Everyone of a workspace without a guardrail of their own: no member id can be empty. */
const ANYONE = "";
/** Unknowns that only add restrictions where they apply: a workspace default policy the stack does not hold. */
const onlyRestricts = (u: string) => /^the workspace default .* policy of /.test(u);

/**
 * The stack's resources as planned resources: kind by the provenance record, props as `propsOf`
 * gives them (secret inputs opaque), a set's guardrail as `requireMemberSet` reads it (by id, or
 * while the id is not known by its one dependency: the engine's own objects, so never copies).
 */
function plannedOf(
  resources: readonly PolicyResource[],
  kind: (r: PolicyResource) => string | undefined,
  propsOf: (r: PolicyResource) => Record<string, unknown>,
) {
  const guardrails = resources.filter((r) => kind(r) === KINDS.Guardrail.policyKind);
  const ids = new Map(guardrails.map((g) => [g, idOf(g)] as const));
  const out: PlannedResource[] = [];
  for (const r of resources) {
    const type = TYPE_NAMES.find((t) => KINDS[t].policyKind === kind(r));
    if (!type) continue;
    const props = propsOf(r);
    const name = typeof props.name === "string" ? props.name : r.name;
    const row = KINDS[type] as { set?: unknown };
    const t = row.set ? targetOf(r, ids) : undefined;
    const target = t && "to" in t && t.to ? t.to.urn : null;
    out.push({ type, key: r.urn, name, props, ...(row.set ? { target } : {}) });
  }
  return out;
}

/**
 * Whether an access lets its subject reach `model` in any form (fail closed: no allow list is a
 * yes). Layer by layer, by model family: two layers allowing the model under different ids (a
 * slug, a dated canonical slug) intersect to nothing by id, while the service resolves both alike.
 */
function reaches(a: EffectiveAccess, model: string): boolean {
  const ignored = new Set(a.ignoredModels.entries.map((e) => e.id));
  return a.allowedModels.restrictedBy.every((l) => l.ids.some((id) => modelMatches(id, model) && !ignored.has(id)));
}

/** Who a subject is, quoted (a member id, a key hash; never a secret: secret lists are opaque). */
const who = (s: PlannedSubject) =>
  "member" in s.facts.subject
    ? s.facts.subject.member === ANYONE
      ? `everyone of workspace ${quoteName(s.facts.workspaceId)} without a guardrail of their own`
      : `member ${quoteName(s.facts.subject.member)}`
    : `key ${quoteName(s.facts.subject.key)}`;

/** The violations of one model's group among the planned subjects. */
export function effectiveFindings(
  subjects: readonly PlannedSubject[],
  model: string,
  onlyMembers: readonly string[],
): string[] {
  const out: string[] = [];
  const m = quoteName(model);
  for (const s of subjects) {
    const subject = s.facts.subject;
    const owner = "member" in subject ? subject.member : subject.ownerMember;
    if (owner !== null && owner !== ANYONE && onlyMembers.includes(owner)) continue;
    const unknown = s.unknown.filter((u) => !onlyRestricts(u));
    const access = effectiveAccess(s.facts);
    if (reaches(access, model)) {
      const layers = access.layers.map((l) => quoteName(l.name ?? l.id)).join(", ") || "no layer restricts it";
      const why = owner === null ? "; its owner is not named (keyOwners), so it may be outside the group" : "";
      out.push(`${who(s)} can reach ${m} (layers: ${layers})${why}`);
    } else if (unknown.length)
      out.push(`${who(s)} cannot be shown not to reach ${m}: ${unknown.map((u) => quoteName(u)).join("; ")}`);
  }
  return out;
}

/** The rule as a CrossGuard stack policy. */
export function effectiveAccessPolicy(
  opts: GuardrailsPolicyOptions,
  enforcementLevel: EnforcementLevel,
  records: ProvenanceRecords,
): StackValidationPolicy {
  const rule = POLICY_RULES.effectiveAccess;
  const validateStack = (args: StackValidationArgs, report: ReportViolation) => {
    const config = (args.getConfig() ?? {}) as Record<string, unknown>;
    if (opts.effectiveAccess === undefined && !Object.hasOwn(config, "effectiveAccess")) return;
    const value = ruleValue("effectiveAccess", opts, args.getConfig as () => Record<string, unknown>);
    for (const r of args.resources)
      if (unrecorded(r.type, records.get(r.urn))) report(unrecordedMessage(r.type, r.name, rule.name), r.urn);
    const masked = (r: PolicyResource) => {
      const secret = records.get(r.urn)?.secretKeys ?? new Set<string>();
      return Object.fromEntries(Object.entries(plainProps(r.props)).map(([k, v]) => [k, secret.has(k) ? SECRET : v]));
    };
    const resources = plannedOf(args.resources, (r) => kindOf(r.type, records.get(r.urn)), masked);
    const workspaces = [...new Set(plannedAccess(resources, { opaque }).workspaces.keys())];
    const planned = plannedAccess(resources, {
      opaque,
      ...(value.keyOwners ? { keyOwners: value.keyOwners } : {}),
      unassigned: new Set([`member:${ANYONE}`]),
      also: workspaces.map((workspaceId) => ({ subject: { member: ANYONE }, workspaceId })),
    });
    const everywhere = [...planned.workspaces.values()].flatMap((w) => w.unknown);
    for (const [model, { onlyMembers }] of Object.entries(value.models)) {
      for (const v of effectiveFindings(planned.subjects, model, onlyMembers)) report(v);
      if (planned.subjects.length === 0 && everywhere.length)
        report(`cannot judge ${quoteName(model)}: ${everywhere.map((u) => quoteName(u)).join("; ")}`);
    }
  };
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel,
    configSchema: configSchema("effectiveAccess"),
    validateStack,
  };
}
