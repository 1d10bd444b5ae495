// The organization of examples/org (README.md there), in TypeScript on the native provider:
// three guardrails, an exclusive member set, a key set and a guardrail looked up by name.
import * as pulumi from "@pulumi/pulumi";
import * as guardrails from "pulumi-guardrails/native";

const config = new pulumi.Config();

// Product engineers: two vendors' models through two providers, zero data retention,
// personal data redacted, prompt injection flagged, EU and US processing only.
const engineering = new guardrails.Guardrail("engineering", {
  name: "Engineering",
  description: "Product engineers",
  allowedModels: ["vendor-a/model-x", "vendor-b/model-m"],
  allowedProviders: ["provider-a", "provider-b"],
  enforceZdrVendorA: true,
  enforceZdrVendorB: true,
  contentFilterBuiltins: [
    { slug: guardrails.BuiltinFilterSlug.Email, action: guardrails.FilterAction.Redact },
    {
      slug: guardrails.BuiltinFilterSlug.RegexPromptInjection,
      action: guardrails.FilterAction.Flag,
      scanScope: guardrails.ScanScope.UserOnly,
    },
  ],
  allowedDataRegions: [guardrails.DataRegion.Europe, guardrails.DataRegion.Us],
  limitUsd: 500,
  resetInterval: guardrails.ResetInterval.Monthly,
});

// Research: everything but one model and one provider; no training or publication of prompts.
const research = new guardrails.Guardrail("research", {
  name: "Research",
  ignoredModels: ["vendor-c/model-q"],
  ignoredProviders: ["provider-z"],
  enforceZdrVendorC: true,
  enforceZdrOther: false,
  enableFreeModelTraining: false,
  enablePaidModelTraining: false,
  enableFreeModelPublication: false,
  contentFilters: [{ pattern: "\\bproject-[a-z]+\\b", action: guardrails.FilterAction.Redact, label: "CODENAME" }],
  limitUsd: 1000,
  resetInterval: guardrails.ResetInterval.Weekly,
  includeByokInBudgets: true,
});

// Customer support, in its own workspace: a small model, EU processing, card and ID data kept out.
const support = new guardrails.Guardrail("support", {
  name: "Support",
  description: "Customer support agents",
  workspaceId: "00000000-0000-4000-8000-000000000002",
  allowedModels: ["vendor-a/model-x-mini"],
  contentFilterBuiltins: [
    { slug: guardrails.BuiltinFilterSlug.Ssn, action: guardrails.FilterAction.Block },
    { slug: guardrails.BuiltinFilterSlug.CreditCard, action: guardrails.FilterAction.Redact },
    { slug: guardrails.BuiltinFilterSlug.Phone, action: guardrails.FilterAction.Redact },
  ],
  contentFilters: [{ pattern: "internal only", action: guardrails.FilterAction.Block }],
  allowedDataRegions: [guardrails.DataRegion.Europe],
  limitUsd: 50,
  resetInterval: guardrails.ResetInterval.Daily,
});

// The engineering guardrail's whole membership (exclusive: members added by hand are removed).
new guardrails.GuardrailMemberAssignment("engineering-members", {
  guardrailId: engineering.id,
  memberUserIds: config.requireObject<string[]>("engineeringMembers"),
  exclusive: true,
});

// The support bots' API keys (additive: other keys on the guardrail are left alone).
new guardrails.GuardrailKeyAssignment("support-keys", {
  guardrailId: support.id,
  keyHashes: ["a1b2c3d4e5f60718", "b2c3d4e5f6071829"],
});

// A guardrail this program does not manage (the finance team owns it), looked up by name.
const finance = guardrails.getGuardrailOutput({ name: "Finance" });

export const engineeringId = engineering.id;
export const researchId = research.id;
export const supportId = support.id;
export const financeId = finance.id;
export const financeLimitUsd = finance.limitUsd;
