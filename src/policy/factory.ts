/**
 * `guardrailsPolicies(options)`: CrossGuard policies for an organization's rules over
 * guardrails and Guardrail Policies, ready for `new PolicyPack(name, { policies })`. Every rule is always in the returned list (so a pack config can switch any of them on or
 * change its level); a rule whose option is not given starts `disabled`. A pack config entry
 * such as `{"guardrails-max-limit-usd": {"enforcementLevel": "advisory", "maxLimitUsd": 500}}`
 * overrides the level (the engine does) and the option's value (we do, validated as options).
 */
import type { Policies, ReportViolation, ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";
import { parsePolicyOptions, type EnforcementLevel, type GuardrailsPolicyOptions, type RuleOption } from "./options";
import { GUARDRAIL_RULES, RULE_FIELD, type RuleFinding } from "./guardrail-rules";
import { configSchema, ruleValue } from "./rule-value";
import { POLICY_RULES } from "./rules";
import { memberSetPolicy, workspaceDefaultPolicy } from "./stack-policies";
import { effectiveAccessPolicy } from "./effective-rule";
import { setTargetPolicy } from "./set-targets";
import { checkedAtUp, plainProps, typeNotKnown, unknownMessage } from "./props";
import {
  kindOf,
  settingsNoun,
  provenancePolicy,
  unrecorded,
  unrecordedMessage,
  type ProvenanceRecords,
} from "./provenance";
import { quoteName, showValues } from "./quote";

export { POLICY_RULES } from "./rules";

/** CrossGuard policies for `options` (see `GuardrailsPolicyOptions`); throws `PolicyOptionsError` on a bad option. */
export function guardrailsPolicies(options: GuardrailsPolicyOptions = {}): Policies {
  const opts = parsePolicyOptions(options);
  const levelOf = (key: RuleOption): EnforcementLevel => {
    const given = opts[key];
    if (given === undefined || given === false) return "disabled";
    return opts.levels?.[key] ?? opts.enforcement ?? "mandatory";
  };
  // What only a remediation sees (the provider, the secrets), for this call's rules.
  const records: ProvenanceRecords = new Map();
  const policies: Policies = [provenancePolicy(records)];
  for (const key of Object.keys(GUARDRAIL_RULES) as (keyof typeof GUARDRAIL_RULES)[]) {
    policies.push(resourcePolicy(key, opts, levelOf(key), records));
  }
  // The settings rules hold where a set sends its ids too (set-targets.ts).
  const settings = Object.keys(GUARDRAIL_RULES) as RuleOption[];
  policies.push(setTargetPolicy(new Map(settings.map((k) => [POLICY_RULES[k].name, levelOf(k)])), records));
  policies.push(memberSetPolicy(opts, levelOf("requireMemberSet"), records));
  policies.push(workspaceDefaultPolicy(opts, levelOf("requireWorkspaceDefault"), records));
  policies.push(effectiveAccessPolicy(opts, levelOf("effectiveAccess"), records));
  return policies;
}

function resourcePolicy(
  key: keyof typeof GUARDRAIL_RULES,
  opts: GuardrailsPolicyOptions,
  enforcementLevel: EnforcementLevel,
  records: ProvenanceRecords,
): ResourceValidationPolicy {
  const rule = POLICY_RULES[key];
  const check = GUARDRAIL_RULES[key] as (
    props: Record<string, unknown>,
    value: unknown,
    show: ReturnType<typeof showValues>,
  ) => RuleFinding;
  // Every resource reaches it (no `__pulumiType`): a guardrail is what the package's provider
  // manages, under whatever type token the program gave it (issue 24, finding 9).
  const validateResource = (args: ResourceValidationArgs, report: ReportViolation) => {
    const record = records.get(args.urn);
    const unplaced = unrecorded(args.type, record);
    const kind = kindOf(args.type, record);
    // A workspace's default guardrail holds the same settings, so every rule holds it too; a
    // Guardrail Policy holds the rules whose setting is of its kind.
    const noun = settingsNoun(kind, RULE_FIELD[key], plainProps(args.props));
    if (!unplaced && !noun) return;
    const value = ruleValue(key, opts, args.getConfig as () => Record<string, unknown>);
    if (value === false) return;
    if (unplaced || !noun) return report(unrecordedMessage(args.type, args.name, rule.name));
    const props = plainProps(args.props);
    const finding = typeNotKnown(kind, props, RULE_FIELD[key]) ?? check(props, value, showValues(record?.secretKeys));
    for (const v of finding.violations) report(`${noun} ${quoteName(args.name)}: ${v}`);
    if (finding.unknown)
      throw checkedAtUp(args.props, finding.unknown, unknownMessage(args.name, finding.unknown, rule.name, noun));
  };
  return {
    name: rule.name,
    description: rule.description,
    enforcementLevel,
    configSchema: configSchema(key),
    validateResource,
  };
}
