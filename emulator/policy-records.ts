/**
 * Guardrail Policies as the emulator stores and serves them (docs/api-contract.md rules 22 to
 * 31): the three kinds with their path segment and setting names, the stored records, and the
 * summary, detail and short records the API answers. The emulator's own types, shared with nothing.
 */

/**
 * The three kinds: `policy_type` on the wire, the path segment, the guardrail settings each holds
 * (rule 31), and `serviceOnly`: settings of the service's config that this package does not
 * manage (guardrail-policies.openapi.json's `Guardrail*PolicyConfig`), taken and answered as given
 * and not enforced, so a client that wipes them on an update is caught.
 */
export const POLICY_KINDS = {
  budget: {
    segment: "budget",
    fields: ["limit_usd", "reset_interval", "include_byok_in_budgets"],
    serviceOnly: [],
  },
  model_availability: {
    segment: "model-availability",
    fields: [
      "allowed_models",
      "allowed_providers",
      "ignored_models",
      "ignored_providers",
      "enforce_zdr_vendor_a",
      "enforce_zdr_vendor_b",
      "enforce_zdr_vendor_c",
      "enforce_zdr_other",
      "enforce_zdr",
      "enable_free_model_publication",
      "enable_free_model_training",
      "enable_paid_model_training",
      "allowed_data_regions",
    ],
    serviceOnly: [
      "platform_banned_authors",
      "platform_banned_models",
      "platform_banned_providers",
      "require_eu_data_region",
      "allow_safety_retention_google",
      "allow_safety_retention_other",
      "enforce_first_party_harness_models",
    ],
  },
  moderation: {
    segment: "moderation",
    fields: ["content_filter_builtins", "content_filters"],
    serviceOnly: [
      "pii_filters",
      "armor",
      "content_filter_patterns",
      "content_filter_blocks_requests",
      "enable_model_armor_injection_protection",
      "lakera_injection_protection_mode",
      "model_armor_injection_confidence_level",
      "model_armor_injection_protection_mode",
      "broadcast_model_armor_flagged_requests",
      "platform_moderated_providers",
      "platform_image_moderated_providers",
    ],
  },
} as const;

export type PolicyType = keyof typeof POLICY_KINDS;
export const POLICY_TYPES = Object.keys(POLICY_KINDS) as PolicyType[];

/** A setting config: the kind's wire names, every one present (null when unset). */
export type PolicyConfig = Record<string, unknown>;

/** A workspace policy as stored. `reference` is derived from `is_legacy_mapped` (rule 29). */
export interface StoredPolicy {
  id: string;
  name: string;
  policy_type: PolicyType;
  workspace_id: string;
  config: PolicyConfig;
  member_ids: string[];
  api_key_hashes: string[];
  opted_out_member_ids: string[];
  opted_out_api_key_hashes: string[];
  is_workspace_default: boolean;
  /** Rules 30 and 31: true while a guardrail's writes flow into it. */
  is_legacy_mapped: boolean;
  legacy_guardrail_ids: string[];
  replaced_legacy_guardrail_ids: string[];
  created_at: string;
  updated_at: string | null;
}

/** A workspace-wide ("account") policy as stored (rule 28). */
export interface StoredAccountPolicy {
  id: string;
  name: string;
  policy_type: PolicyType;
  config: PolicyConfig;
  workspace_ids: string[];
  opted_out_workspace_ids: string[];
  /** Choice (rule 28): covers every workspace but `opted_out_workspace_ids`. */
  is_default: boolean;
  created_at: string;
  updated_at: string | null;
}

/** The short record a create or update answers (rule 23). */
export function policyRecord(p: StoredPolicy) {
  return { id: p.id, name: p.name, policy_type: p.policy_type, config: p.config };
}

/** A list row (rule 23, with the legacy fields of rule 30). */
export function policySummary(p: StoredPolicy) {
  return {
    ...policyRecord(p),
    member_count: p.member_ids.length,
    api_key_count: p.api_key_hashes.length,
    updated_at: p.updated_at,
    is_workspace_default: p.is_workspace_default,
    is_legacy_mapped: p.is_legacy_mapped,
    legacy_guardrail_ids: [...p.legacy_guardrail_ids],
    replaced_legacy_guardrail_ids: [...p.replaced_legacy_guardrail_ids],
  };
}

/** A get's record (rule 23); `overridden` comes from the other policies of the workspace (rule 27). */
export function policyDetail(p: StoredPolicy, overridden: { members: string[]; keys: string[] }) {
  return {
    ...policyRecord(p),
    workspace_id: p.workspace_id,
    member_ids: [...p.member_ids],
    api_key_hashes: [...p.api_key_hashes],
    opted_out_member_ids: [...p.opted_out_member_ids],
    opted_out_api_key_hashes: [...p.opted_out_api_key_hashes],
    overridden_member_ids: overridden.members,
    overridden_api_key_hashes: overridden.keys,
    is_workspace_default: p.is_workspace_default,
    is_account_policy: false,
    reference: p.is_legacy_mapped ? "legacy_mapping" : null,
    is_legacy_mapped: p.is_legacy_mapped,
    legacy_guardrail_ids: [...p.legacy_guardrail_ids],
    replaced_legacy_guardrail_ids: [...p.replaced_legacy_guardrail_ids],
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/** The workspaces an account policy covers, given every workspace (rule 28's choice). */
export function coveredWorkspaces(p: StoredAccountPolicy, all: readonly string[]): string[] {
  const out = new Set(p.opted_out_workspace_ids);
  return (p.is_default ? all : p.workspace_ids).filter((w) => !out.has(w) && all.includes(w));
}

/** A workspace-wide policy's record (rule 28). */
export function accountRecord(p: StoredAccountPolicy, all: readonly string[]) {
  return {
    id: p.id,
    name: p.name,
    policy_type: p.policy_type,
    config: p.config,
    created_at: p.created_at,
    updated_at: p.updated_at,
    workspace_ids: [...p.workspace_ids],
    opted_out_workspace_ids: [...p.opted_out_workspace_ids],
    workspace_count: coveredWorkspaces(p, all).length,
    is_default: p.is_default,
    is_synced: false,
    is_workspace_default_synced: false,
  };
}
