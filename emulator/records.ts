/**
 * The records the emulator stores and serves, in the service's snake_case (docs/api-contract.md,
 * Records). The emulator's own types: nothing here is shared with the client.
 */

export interface BuiltinFilterRecord {
  slug: string;
  action: string;
  scan_scope?: string;
  label: string;
}

export interface CustomFilterRecord {
  pattern: string;
  action: string;
  label?: string;
}

/** A guardrail as created and updated through the API: every key present. (A type, not an interface, so it fits `StoredGuardrail`.) */
export type GuardrailRecord = {
  id: string;
  name: string;
  workspace_id: string | null;
  created_at: string;
  updated_at: string | null;
  description: string | null;
  allowed_models: string[] | null;
  allowed_providers: string[] | null;
  ignored_models: string[] | null;
  ignored_providers: string[] | null;
  limit_usd: number | null;
  reset_interval: string | null;
  enforce_zdr_vendor_a: boolean | null;
  enforce_zdr_vendor_b: boolean | null;
  enforce_zdr_vendor_c: boolean | null;
  enforce_zdr_other: boolean | null;
  enforce_zdr: boolean | null;
  content_filter_builtins: BuiltinFilterRecord[] | null;
  content_filters: CustomFilterRecord[] | null;
  include_byok_in_budgets: boolean;
  allowed_data_regions: string[] | null;
  enable_free_model_publication: boolean | null;
  enable_free_model_training: boolean | null;
  enable_paid_model_training: boolean | null;
};

/**
 * A stored guardrail. The admin endpoint may reshape one by hand into anything rules 10-12 let the
 * real service send (keys absent, `workspace_id: null`, new enum values, extra fields), so the
 * emulator serves whatever is stored, as it is, and only `id`, `name` and `created_at` are sure.
 */
export type StoredGuardrail = Partial<GuardrailRecord> &
  Pick<GuardrailRecord, "id" | "name" | "created_at"> &
  Record<string, unknown>;

/** The keys a guardrail made by the API holds, for filling in guardrails of an older state file. */
export const NEW_IN_RULE_13 = {
  include_byok_in_budgets: false,
  allowed_data_regions: null,
  enable_free_model_publication: null,
  enable_free_model_training: null,
  enable_paid_model_training: null,
} as const;

export interface MemberAssignmentRecord {
  id: string;
  user_id: string;
  organization_id: string;
  guardrail_id: string;
  assigned_by: string | null;
  created_at: string;
}

export interface KeyAssignmentRecord {
  id: string;
  key_hash: string;
  guardrail_id: string;
  key_name: string;
  key_label: string;
  assigned_by: string | null;
  created_at: string;
}
