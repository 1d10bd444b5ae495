/**
 * PLACEHOLDER until the field table's `policy` column lands (fix/pol-client): each policy
 * kind's fields, docs/api-contract.md rule 31. Replaced by fields/policy-kinds.ts's POLICY_FIELDS.
 */
import type { FieldName } from "../fields/fields";

export const POLICY_FIELDS: Record<"budget" | "modelAvailability" | "moderation", readonly FieldName[]> = {
  budget: ["limitUsd", "resetInterval", "includeByokInBudgets"],
  modelAvailability: [
    "allowedModels",
    "allowedProviders",
    "ignoredModels",
    "ignoredProviders",
    "enforceZdrVendorA",
    "enforceZdrVendorB",
    "enforceZdrVendorC",
    "enforceZdrOther",
    "enforceZdr",
    "enableFreeModelTraining",
    "enablePaidModelTraining",
    "enableFreeModelPublication",
    "allowedDataRegions",
  ],
  moderation: ["contentFilterBuiltins", "contentFilters"],
};
