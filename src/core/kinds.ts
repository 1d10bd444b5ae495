/**
 * The package's resource kinds, each declared once (issue 39). A row holds every name a kind
 * goes by: its type name, its tokens on both faces, the `internal` member users' state calls,
 * the policy pack's word for it, its docs page, and for a member or key set its state key, arg
 * name, noun and wire word. Every list keyed by kind elsewhere derives from this table or is a
 * `Record<ResourceTypeName, ...>`, so a kind missing from it does not compile; the import-graph
 * test refuses a file outside this one that spells two of the type names.
 *
 * Plain data at the bottom of the core: it imports nothing. Every string here is held by users
 * (state, tokens, programs, messages): a row's names never change once released.
 */

/** Every dynamic resource's token starts so, whichever package made it. */
export const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic";
/** This package's dynamic resource tokens start so: another package's `x:index:Guardrail` is not ours. */
export const PACKAGE_TYPE_PREFIX = `${DYNAMIC_TYPE_PREFIX}/guardrails:` as const;
/** The native face's package name: its tokens are `guardrails:index:<Type>`. */
export const NATIVE_PACKAGE = "guardrails";
/** The native face's token prefix (its one module, `index`). */
export const NATIVE_TYPE_PREFIX = `${NATIVE_PACKAGE}:index:` as const;

/** What differs for a member or key set: the names its state, program and service give it. */
export interface SetSpec {
  /**
   * The key of the id map in the resource's inputs and in users' state. Stored state depends
   * on it, so it never follows the client's URL word (`wire`).
   */
  readonly stateKey: string;
  /** The user's arg name (`memberUserIds` / `keyHashes`). */
  readonly argName: string;
  /** Singular noun for messages; the holder rule's word (core/holders.ts). */
  readonly noun: string;
  /** The client's word for the collection (its URL segment, core/client `AssigneeKind`). */
  readonly wire: string;
  /** Why the service may skip an id, for messages about ids that did not land. */
  readonly skipReason: string;
}

/** What a workspace policy kind's wire calls it (docs/api-contract.md rules 22-23). */
export interface PolicySpec {
  /** The field table's word for the kind (its `policy` column): which settings the resource takes. */
  readonly fields: "budget" | "modelAvailability" | "moderation";
  /** The records' `policy_type`. */
  readonly policyType: string;
  /** The path segment of its operations (`/guardrails/policies/<segment>`). */
  readonly segment: string;
  /** The API's words for it in messages (`budget policy`). */
  readonly noun: string;
}

/** One resource kind: every name it goes by. */
export interface KindSpec {
  /** The dynamic face's token, `pulumi-nodejs:dynamic/guardrails:<Type>` (the SDK builds it from `dynamic.Resource`'s args). */
  readonly dynamicToken: string;
  /** The native face's token, `guardrails:index:<Type>`. */
  readonly nativeToken: string;
  /** The member of `require("pulumi-guardrails/internal")` users' dynamic state calls (dynamic/shim.ts). */
  readonly internal: string;
  /** The policy pack's word for the kind (policy/provenance.ts `Kind`). */
  readonly policyKind: string;
  /** Whether it holds a guardrail's settings (a guardrail the preview reviews, a set's `guardrailId` may name). */
  readonly settings: boolean;
  /** Its reference page. */
  readonly docsPage: string;
  /** For a member or key set, what differs between the two. */
  readonly set?: SetSpec;
  /** For a workspace policy (issue 40), what its wire calls it. */
  readonly policy?: PolicySpec;
}

const dynamicToken = <T extends string>(t: T) => `${PACKAGE_TYPE_PREFIX}${t}` as const;
const nativeToken = <T extends string>(t: T) => `${NATIVE_TYPE_PREFIX}${t}` as const;

/** The kinds, by type name (the last part of a token). */
export const KINDS = {
  Guardrail: {
    dynamicToken: dynamicToken("Guardrail"),
    nativeToken: nativeToken("Guardrail"),
    internal: "guardrail",
    policyKind: "guardrail",
    settings: true,
    docsPage: "docs/resources/guardrail.md",
  },
  GuardrailMemberAssignment: {
    dynamicToken: dynamicToken("GuardrailMemberAssignment"),
    nativeToken: nativeToken("GuardrailMemberAssignment"),
    internal: "memberAssignment",
    policyKind: "memberAssignment",
    settings: false,
    docsPage: "docs/resources/member-assignment.md",
    set: {
      stateKey: "members",
      argName: "memberUserIds",
      noun: "member",
      wire: "members",
      skipReason: "not members of the organization",
    },
  },
  GuardrailKeyAssignment: {
    dynamicToken: dynamicToken("GuardrailKeyAssignment"),
    nativeToken: nativeToken("GuardrailKeyAssignment"),
    internal: "keyAssignment",
    policyKind: "keyAssignment",
    settings: false,
    docsPage: "docs/resources/key-assignment.md",
    set: {
      stateKey: "keys",
      argName: "keyHashes",
      noun: "key",
      wire: "keys",
      skipReason: "not API keys of the organization",
    },
  },
  // A guardrail's settings, so every guardrail rule holds it too (policy/factory.ts), but no member set.
  WorkspaceDefaultGuardrail: {
    dynamicToken: dynamicToken("WorkspaceDefaultGuardrail"),
    nativeToken: nativeToken("WorkspaceDefaultGuardrail"),
    internal: "workspaceDefaultGuardrail",
    policyKind: "workspaceDefault",
    settings: true,
    docsPage: "docs/resources/workspace-default-guardrail.md",
  },
  // Guardrail Policies (issue 40): one workspace's policy of one kind, with its assignments.
  BudgetPolicy: {
    dynamicToken: dynamicToken("BudgetPolicy"),
    nativeToken: nativeToken("BudgetPolicy"),
    internal: "budgetPolicy",
    policyKind: "budgetPolicy",
    settings: false,
    docsPage: "docs/resources/budget-policy.md",
    policy: { fields: "budget", policyType: "budget", segment: "budget", noun: "budget policy" },
  },
  ModelAccessPolicy: {
    dynamicToken: dynamicToken("ModelAccessPolicy"),
    nativeToken: nativeToken("ModelAccessPolicy"),
    internal: "modelAccessPolicy",
    policyKind: "modelAccessPolicy",
    settings: false,
    docsPage: "docs/resources/model-access-policy.md",
    policy: {
      fields: "modelAvailability",
      policyType: "model_availability",
      segment: "model-availability",
      noun: "model availability policy",
    },
  },
  ModerationPolicy: {
    dynamicToken: dynamicToken("ModerationPolicy"),
    nativeToken: nativeToken("ModerationPolicy"),
    internal: "moderationPolicy",
    policyKind: "moderationPolicy",
    settings: false,
    docsPage: "docs/resources/moderation-policy.md",
    policy: { fields: "moderation", policyType: "moderation", segment: "moderation", noun: "moderation policy" },
  },
  // A workspace-wide ("account") policy of any kind, with the workspaces it covers (issue 40).
  // No `policy` part: it belongs to the organization, not to one workspace.
  WorkspaceWidePolicy: {
    dynamicToken: dynamicToken("WorkspaceWidePolicy"),
    nativeToken: nativeToken("WorkspaceWidePolicy"),
    internal: "workspaceWidePolicy",
    policyKind: "workspaceWidePolicy",
    settings: false,
    docsPage: "docs/resources/workspace-wide-policy.md",
  },
} as const satisfies Record<string, KindSpec>;

/** The package's resource types, by the last part of a token. */
export type ResourceTypeName = keyof typeof KINDS;
/** A kind's row, with its literal names. */
export type KindRow<T extends ResourceTypeName = ResourceTypeName> = (typeof KINDS)[T];
/** The kinds that are member or key sets. */
export type SetTypeName = {
  [T in ResourceTypeName]: KindRow<T> extends { set: SetSpec } ? T : never;
}[ResourceTypeName];
/** A set kind's names, with their literal types. */
export type SetOf<T extends SetTypeName = SetTypeName> = KindRow<T>["set"];
/** The kinds that are workspace policies. */
export type PolicyTypeName = {
  [T in ResourceTypeName]: KindRow<T> extends { policy: PolicySpec } ? T : never;
}[ResourceTypeName];
/** The members of `require("pulumi-guardrails/internal")` that users' state calls. */
export type InternalName = KindRow["internal"];
/** The policy pack's words for the kinds. */
export type PolicyKind = KindRow["policyKind"];
/** A set's state key (`members` / `keys`). */
export type SetStateKey = SetOf["stateKey"];
/** A set's noun (`member` / `key`). */
export type SetNoun = SetOf["noun"];

/** The type names, in the table's order. */
export const TYPE_NAMES = Object.keys(KINDS) as ResourceTypeName[];
/** Whether a string is one of the type names. */
export const isTypeName = (s: string): s is ResourceTypeName => Object.hasOwn(KINDS, s);
/** The set kinds, in the table's order. */
export const SET_TYPE_NAMES = TYPE_NAMES.filter((t): t is SetTypeName => "set" in KINDS[t]);

/** The workspace policy kinds, in the table's order. */
export const POLICY_TYPE_NAMES = TYPE_NAMES.filter((t): t is PolicyTypeName => "policy" in KINDS[t]);

/** A table over every kind, built from each row. */
export function byKind<V>(
  f: <T extends ResourceTypeName>(type: T, kind: KindRow<T>) => V,
): Record<ResourceTypeName, V> {
  return Object.fromEntries(TYPE_NAMES.map((t) => [t, f(t, KINDS[t])])) as Record<ResourceTypeName, V>;
}
/** The set kind whose state key (or noun) is this one. */
export const setKindOf = (by: { stateKey: SetStateKey } | { noun: SetNoun }): SetTypeName =>
  SET_TYPE_NAMES.find((t) =>
    "stateKey" in by ? KINDS[t].set.stateKey === by.stateKey : KINDS[t].set.noun === by.noun,
  )!;
