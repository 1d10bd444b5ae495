/**
 * Effective access (issue 41): the plain data a caller hands in (the facts of one member or key
 * in one workspace) and the plain data it gets back (what every layer together leaves it, each
 * part with the layers it comes from). The rules are in docs/effective-access.md.
 */
import type { PolicyKind } from "../fields/policy-kinds";

/** A layer's settings, by the program's names (a guardrail's, or a policy's `config`: rule 31). */
export interface LayerSettings {
  allowedModels?: readonly string[] | null;
  ignoredModels?: readonly string[] | null;
  allowedProviders?: readonly string[] | null;
  ignoredProviders?: readonly string[] | null;
  enforceZdrVendorA?: boolean | null;
  enforceZdrVendorB?: boolean | null;
  enforceZdrVendorC?: boolean | null;
  enforceZdrOther?: boolean | null;
  /** Deprecated; fills each per-vendor flag the layer leaves unset (spec rule 2). */
  enforceZdr?: boolean | null;
  enableFreeModelTraining?: boolean | null;
  enablePaidModelTraining?: boolean | null;
  enableFreeModelPublication?: boolean | null;
  allowedDataRegions?: readonly string[] | null;
  contentFilterBuiltins?: readonly BuiltinFilter[] | null;
  contentFilters?: readonly CustomFilter[] | null;
  limitUsd?: number | null;
  resetInterval?: string | null;
  includeByokInBudgets?: boolean | null;
}

/** A builtin content filter as a layer holds it (docs/api-contract.md, Records). */
export interface BuiltinFilter {
  slug: string;
  action: string;
  /** `regex-prompt-injection` only; absent means `all_messages`. */
  scanScope?: string | null | undefined;
}

/** A custom content filter as a layer holds it. */
export interface CustomFilter {
  pattern: string;
  action: string;
  label?: string | null | undefined;
}

/** What a layer is, so a caller can say which one decides. */
export type LayerKind =
  | "workspace-default-guardrail"
  | "member-guardrail"
  | "key-guardrail"
  | "policy"
  | "workspace-default-policy"
  | "workspace-wide-policy";

/** A layer named: its kind, id and name, and for a policy its kind and the subject it reached. */
export interface LayerRef {
  kind: LayerKind;
  id: string;
  name: string | null;
  /** A policy's kind (budget, model availability, moderation). */
  policyKind?: PolicyKind;
  /** For a policy reached through a subject: the member or the key (a key's own, or its owner's). */
  via?: "member" | "key";
}

/** A layer: where it comes from and what it sets. */
export interface Layer {
  ref: LayerRef;
  settings: LayerSettings;
}

/** A guardrail as the facts name it. */
export interface GuardrailFacts {
  id: string;
  name: string | null;
  settings: LayerSettings;
}

/** A workspace policy of one kind with its assignments (docs/api-contract.md rules 23 and 27). */
export interface PolicyFacts {
  id: string;
  name: string | null;
  kind: PolicyKind;
  settings: LayerSettings;
  memberIds: readonly string[];
  keyHashes: readonly string[];
  isWorkspaceDefault: boolean;
  optedOutMemberIds: readonly string[];
  optedOutKeyHashes: readonly string[];
  /** Rule 30: still kept in sync with the guardrails named in `legacyGuardrailIds`. */
  isLegacyMapped?: boolean;
  legacyGuardrailIds?: readonly string[];
}

/** A workspace-wide policy and the workspaces it covers (rule 28). */
export interface WorkspaceWideFacts {
  id: string;
  name: string | null;
  kind: PolicyKind;
  settings: LayerSettings;
  workspaceIds: readonly string[];
  optedOutWorkspaceIds: readonly string[];
  /** Covers every workspace but the opted-out ones. */
  isDefault: boolean;
}

/** The subject: a member, or a key with the member who owns it (null: none known). */
export type Subject = { member: string } | { key: string; ownerMember: string | null };

/**
 * Everything known of one subject in one workspace. Guardrails are the ones of this workspace;
 * `policies` are the workspace's policies of every kind (their assignments decide which apply).
 */
export interface AccessFacts {
  subject: Subject;
  workspaceId: string;
  /** The workspace's default guardrail; null when it was never written (it restricts nothing: rule 19). */
  workspaceDefault: GuardrailFacts | null;
  /** The member's guardrail here; for a key, its owner's. */
  memberGuardrail: GuardrailFacts | null;
  /** A key's own guardrail; always null for a member. */
  keyGuardrail: GuardrailFacts | null;
  policies: readonly PolicyFacts[];
  workspaceWide: readonly WorkspaceWideFacts[];
  /**
   * Model identifiers to canonical slugs, as the diff pairs them (guardrail/model-lists.ts
   * `knownCanonical`): an identifier not in the map stands for itself. Nothing else is guessed.
   */
  modelAliases?: Readonly<Record<string, string>>;
}

/** An allow list every layer together leaves: null when no layer restricts; `[]` allows nothing. */
export interface AllowList {
  allowed: string[] | null;
  /** The layers holding a list, with it (resolved, sorted): each alone denies what it leaves out. */
  restrictedBy: Array<{ layer: LayerRef; ids: string[] }>;
}

/** An ignore (deny) list: every entry of every layer, with the layers that list it. */
export interface DenyList {
  entries: Array<{ id: string; from: LayerRef[] }>;
}

/** A flag that restricts when any layer says so (a ZDR group). */
export interface Enforced {
  enforced: boolean;
  by: LayerRef[];
}

/**
 * A training or publication permission: false when any layer says false (those layers decide);
 * else null: no layer forbids, and the account's own privacy settings decide. A layer saying true
 * grants nothing beyond the account's setting, so it is only recorded (`onIn`).
 */
export interface Permission {
  value: false | null;
  decidedBy: LayerRef[];
  onIn: LayerRef[];
}

/** A builtin filter every layer together applies: the strongest action, the widest scope. */
export interface EffectiveBuiltin {
  slug: string;
  action: string;
  scanScope?: string;
  /** The layers holding this slug, and those whose action is the strongest. */
  from: LayerRef[];
  actionFrom: LayerRef[];
}

/** One budget: each applies on its own (rule 27), with the layer it comes from. */
export interface EffectiveBudget {
  limitUsd: number | null;
  resetInterval: string | null;
  includeByokInBudgets: boolean;
  from: LayerRef;
}

/** The ZDR groups (the spec's per-vendor flags, docs/api-contract.md "Vendor names"). */
export const ZDR_GROUPS = ["enforceZdrVendorA", "enforceZdrVendorB", "enforceZdrVendorC", "enforceZdrOther"] as const;
export type ZdrGroup = (typeof ZDR_GROUPS)[number];

/** The training and publication permissions. */
export const PERMISSIONS = [
  "enableFreeModelTraining",
  "enablePaidModelTraining",
  "enableFreeModelPublication",
] as const;
export type PermissionName = (typeof PERMISSIONS)[number];

/** What every layer together leaves one subject in one workspace. */
export interface EffectiveAccess {
  subject: Subject;
  workspaceId: string;
  layers: LayerRef[];
  allowedModels: AllowList;
  ignoredModels: DenyList;
  allowedProviders: AllowList;
  ignoredProviders: DenyList;
  zdr: Record<ZdrGroup, Enforced>;
  permissions: Record<PermissionName, Permission>;
  allowedDataRegions: AllowList;
  builtinFilters: EffectiveBuiltin[];
  /** Every custom filter of every layer: all apply. */
  customFilters: Array<CustomFilter & { from: LayerRef }>;
  /** `regex-prompt-injection`'s scope: null when no layer turns it on. */
  promptInjection: { scanScope: string; from: LayerRef[] } | null;
  budgets: EffectiveBudget[];
  modelAliases: Readonly<Record<string, string>>;
}
