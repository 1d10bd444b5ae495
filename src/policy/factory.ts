/**
 * `guardrailsPolicies(options)`: CrossGuard policies for an organization's rules over
 * guardrails and Guardrail Policies, ready for `new PolicyPack(name, { policies })`. Every rule is always in the returned list (so a pack config can switch any of them on or
 * change its level); a rule whose option is not given starts `disabled`. A pack config entry
 * such as `{"guardrails-max-limit-usd": {"enforcementLevel": "advisory", "maxLimitUsd": 500}}`
 * overrides the level (the engine does) and the option's value (we do, validated as options).
 */
import type {
  Policies,
  PolicyConfigSchema,
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import {
  PolicyOptionsError,
  ZDR_GROUPS,
  parsePolicyOptions,
  ruleValueSchemas,
  type EnforcementLevel,
  type GuardrailsPolicyOptions,
  type RuleOption,
} from "./options";
import { GUARDRAIL_RULES, RULE_FIELD, type RuleFinding } from "./guardrail-rules";
import { memberSetFindings } from "./member-set";
import { workspaceDefaultFindings } from "./workspace-default";
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
import { BUILTIN_SLUGS, RESET_INTERVALS } from "../core/fields/constants";
import { issuesToFailures } from "../core/args/messages";

/** Policy name and description of each rule, keyed by option name. */
export const POLICY_RULES: Record<
  RuleOption,
  { name: string; description: string; config: PolicyConfigSchema["properties"][string] }
> = {
  maxLimitUsd: {
    name: "guardrails-max-limit-usd",
    description: "Each guardrail has a spending limit at or under the organization's ceiling.",
    config: { type: "number", minimum: 0 },
  },
  requireResetInterval: {
    name: "guardrails-require-reset-interval",
    description: "Each guardrail has a spending limit that resets, at least as often as the organization requires.",
    config: { enum: [true, false, ...RESET_INTERVALS] },
  },
  requireZdr: {
    name: "guardrails-require-zdr",
    description: "Each guardrail enforces zero-data retention for the organization's vendor groups.",
    config: { type: "array", items: { type: "string", enum: [...ZDR_GROUPS] }, minItems: 1 },
  },
  requireBuiltinFilters: {
    name: "guardrails-require-builtin-filters",
    description: "Each guardrail carries the organization's builtin content filters.",
    config: { type: "array", items: { type: "string", enum: [...BUILTIN_SLUGS] }, minItems: 1 },
  },
  forbidModels: {
    name: "guardrails-forbid-models",
    description: "No guardrail allows a model the organization forbids.",
    config: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
  },
  allowProviders: {
    name: "guardrails-allow-providers",
    description: "Each guardrail allows only the organization's providers.",
    config: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
  },
  requireMemberSet: {
    name: "guardrails-require-member-set",
    description: "Each guardrail has a member set with at least one member.",
    config: { type: "boolean" },
  },
  requireWorkspaceDefault: {
    name: "guardrails-require-workspace-default",
    description: "Each of the organization's workspaces has its default guardrail managed in the stack.",
    config: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1 },
  },
};

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
  return policies;
}

/** The rule's value: the pack config's when it has one, else the option's; validated. */
function ruleValue<K extends RuleOption>(
  key: K,
  opts: GuardrailsPolicyOptions,
  getConfig: () => Record<string, unknown>,
): NonNullable<GuardrailsPolicyOptions[K]> {
  const rule = POLICY_RULES[key];
  const config = getConfig() ?? {};
  const fromConfig = Object.hasOwn(config, key);
  const raw = fromConfig ? config[key] : opts[key];
  const where = fromConfig ? `policy pack config of ${rule.name}` : "guardrailsPolicies options";
  if (raw === undefined)
    throw new PolicyOptionsError(
      [
        {
          property: key,
          reason: `is required when ${rule.name} is enabled; set it in the options or in the pack config`,
        },
      ],
      where,
    );
  const parsed = ruleValueSchemas[key].safeParse(raw, { reportInput: true });
  if (!parsed.success)
    throw new PolicyOptionsError(
      issuesToFailures(parsed.error).map((f) => ({
        property: f.property ? `${key}${f.property.startsWith("[") ? "" : "."}${f.property}` : key,
        reason: f.reason,
      })),
      where,
    );
  return parsed.data as NonNullable<GuardrailsPolicyOptions[K]>;
}

const configSchema = (key: RuleOption) => ({ properties: { [key]: POLICY_RULES[key].config } });

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

function memberSetPolicy(
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

function workspaceDefaultPolicy(
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
