/**
 * A rule's value at run time: the pack config's when it names it, else the option's, validated
 * as an option (a bad value is a `PolicyOptionsError` naming the property and where it came from).
 */
import type { PolicyConfigSchema } from "@pulumi/policy";
import { issuesToFailures } from "../core/args/messages";
import { type GuardrailsPolicyOptions, PolicyOptionsError, type RuleOption, ruleValueSchemas } from "./options";
import { POLICY_RULES } from "./rules";

/** The rule's value: the pack config's when it has one, else the option's; validated. */
export function ruleValue<K extends RuleOption>(
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

/** A rule's `configSchema`: its one option. */
export const configSchema = (key: RuleOption): PolicyConfigSchema => ({
  properties: { [key]: POLICY_RULES[key].config },
});
