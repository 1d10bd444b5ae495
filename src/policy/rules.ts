/** Each rule of the pack: its policy name, description and pack-config schema, keyed by option name. */
import type { PolicyConfigSchema } from "@pulumi/policy";
import { BUILTIN_SLUGS, RESET_INTERVALS } from "../core/fields/constants";
import { type RuleOption, ZDR_GROUPS } from "./options";

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
  effectiveAccess: {
    name: "guardrails-effective-access",
    description:
      "No member outside a model's group, and no one without a guardrail of their own, can reach the model after every planned layer applies.",
    config: { type: "object" },
  },
};
