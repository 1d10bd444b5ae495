/**
 * What the Guardrail Policies data sources answer (policies.ts), in the program's names: types
 * only, so the lookups and the faces share one description of each answer.
 */
import type { OutputValue, PolicyFieldName } from "../fields/fields";
import type { PolicyKind } from "../fields/policy-kinds";
import type { PolicyTypeWord } from "./args";

/** A policy's settings in the program's names: the fields of its kind, null where unset. */
export type PolicySettingsInfo = Partial<{ [K in PolicyFieldName<PolicyKind>]: OutputValue<K> | null }>;

/** What the three kinds' lists and details share. */
interface PolicyCommonInfo {
  id: string;
  /** The kind: `budget`, `modelAccess` (the API's `model_availability`) or `moderation`. */
  policyType: PolicyTypeWord;
  name: string;
  /** Whether it is the workspace's default for its kind (the API's `is_workspace_default`). */
  workspaceDefault: boolean;
  /** Whether the service keeps it in sync with a guardrail (`is_legacy_mapped`); null when it does not say. */
  legacyMapped: boolean | null;
  /** The guardrails it was migrated from (`legacy_guardrail_ids`), sorted. */
  legacyGuardrailIds: string[];
  /** The guardrails it replaced (`replaced_legacy_guardrail_ids`), sorted. */
  replacedLegacyGuardrailIds: string[];
  updatedAt: string | null;
}

/** A row of `getPolicies`: a policy's summary (its assignees counted, not listed). */
export type PolicySummaryInfo = PolicyCommonInfo &
  PolicySettingsInfo & {
    /** How many members it is assigned to directly (`member_count`). */
    memberCount: number;
    /** How many API keys it is assigned to directly (`api_key_count`). */
    keyCount: number;
  };

/** What `getPolicies` answers: the policies, sorted by kind (budget, modelAvailability, moderation), name, id. */
export interface PoliciesFound {
  /** The workspace's id (a slug given is answered as the id). */
  workspaceId: string;
  policies: PolicySummaryInfo[];
  /** Their ids, in the same order. */
  ids: string[];
}

/** What `getPolicy` answers: one policy with its assignments, opt-outs and legacy fields (lists sorted). */
export type PolicyInfo = PolicyCommonInfo &
  PolicySettingsInfo & {
    workspaceId: string;
    /** The members it is assigned to directly (`member_ids`). */
    memberUserIds: string[];
    /** The API keys it is assigned to directly (`api_key_hashes`). */
    keyHashes: string[];
    /** Members that do not inherit it as the default (`opted_out_member_ids`); null when the service does not say. */
    optedOutMemberUserIds: string[] | null;
    /** API keys that do not inherit it as the default (`opted_out_api_key_hashes`). */
    optedOutKeyHashes: string[];
    /** Members with another policy of the kind of their own (`overridden_member_ids`); null when not said. */
    overriddenMemberUserIds: string[] | null;
    /** API keys with another policy of the kind of their own (`overridden_api_key_hashes`). */
    overriddenKeyHashes: string[];
    /** `legacy_mapping`, `account_default`, or null (rule 29). */
    reference: string | null;
  };

/** One member's or key's state for one kind (rule 25), ids sorted. */
export interface SubjectAssignmentInfo {
  /** The policies of the kind assigned to it directly. */
  policyIds: string[];
  /** The workspace defaults of the kind it inherits. */
  workspaceDefaultPolicyIds: string[];
  /** Whether it opted out of the kind's workspace default. */
  optedOut: boolean;
}

/** A workspace-wide ("account") policy covering the workspace. */
export type WorkspaceWidePolicyInfo = PolicySettingsInfo & {
  id: string;
  name: string;
  /** The kind in the program's words, or the service's `policy_type` for one this package does not know. */
  policyType: string;
  /** Whether it covers every workspace but the opted-out ones (the API's `is_default`). */
  allWorkspaces: boolean;
  /** The workspaces it names (`workspace_ids`), sorted; null when the service does not say. */
  workspaceIds: string[] | null;
  updatedAt: string | null;
};

/** What `getSubjectPolicies` answers. */
export interface SubjectPoliciesFound {
  workspaceId: string;
  /** The member asked about (absent when a key was). */
  memberId?: string;
  /** The API key asked about (absent when a member was). */
  keyHash?: string;
  budget: SubjectAssignmentInfo;
  modelAccess: SubjectAssignmentInfo;
  moderation: SubjectAssignmentInfo;
  /** The workspace-wide policies covering the workspace, sorted by kind, name, id; absent with `workspaceWide: false`. */
  workspaceWidePolicies?: WorkspaceWidePolicyInfo[];
}
