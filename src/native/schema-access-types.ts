/**
 * The object types of the effective-access lookups' answers (issue 41,
 * core/data-sources/access-answer.ts) in the package schema, so a Python, Go or YAML program gets
 * typed results: each layer with its kind, id and name, and each part of the combined access
 * with the layers it comes from. schema-access-functions.ts refers to them.
 */
import { PERMISSIONS, ZDR_GROUPS } from "../core/access";

export type Properties = Record<string, Record<string, unknown>>;
export const str = (description: string) => ({ type: "string", description });
export const bool = (description: string) => ({ type: "boolean", description });
export const ref = (token: string, description: string) => ({ $ref: `#/types/${token}`, description });
export const list = (token: string, description: string) => ({
  type: "array",
  items: { $ref: `#/types/${token}` },
  description,
});
const obj = (description: string, properties: Properties, required: string[]) => ({
  type: "object",
  description,
  properties,
  required,
});

/** The object types, by token. */
export const ACCESS_TYPES = {
  layer: "guardrails:index:AccessLayer",
  allowList: "guardrails:index:AccessAllowList",
  restriction: "guardrails:index:AccessListRestriction",
  denyList: "guardrails:index:AccessDenyList",
  denyEntry: "guardrails:index:AccessDenyEntry",
  enforced: "guardrails:index:AccessEnforced",
  zdr: "guardrails:index:AccessZdr",
  permission: "guardrails:index:AccessPermission",
  permissions: "guardrails:index:AccessPermissions",
  builtin: "guardrails:index:AccessBuiltinFilter",
  custom: "guardrails:index:AccessCustomFilter",
  promptInjection: "guardrails:index:AccessPromptInjection",
  budget: "guardrails:index:AccessBudget",
  access: "guardrails:index:EffectiveAccess",
} as const;
const T = ACCESS_TYPES;

const from = (what: string) => list(T.layer, `The layers ${what}.`);
const ZDR_TEXT: Record<(typeof ZDR_GROUPS)[number], string> = {
  enforceZdrVendorA: "vendor-a's models",
  enforceZdrVendorB: "vendor-b's models",
  enforceZdrVendorC: "vendor-c's models",
  enforceZdrOther: "every other model",
};
const PERMISSION_TEXT: Record<(typeof PERMISSIONS)[number], string> = {
  enableFreeModelTraining: "Training on prompts by free models",
  enablePaidModelTraining: "Training on prompts by paid models",
  enableFreeModelPublication: "Publication of prompts by free models",
};

/** Every part of the combined access (docs/effective-access.md, C1 to C9). */
function accessProperties(): Properties {
  const allow = (what: string) => ref(T.allowList, `The ${what} every layer together allows (C1, C5).`);
  const deny = (what: string) => ref(T.denyList, `The ${what} any layer ignores (C2).`);
  return {
    allowedModels: allow("models (canonical slugs)"),
    ignoredModels: deny("models"),
    allowedProviders: allow("providers"),
    ignoredProviders: deny("providers"),
    zdr: ref(T.zdr, "Zero data retention per model group (C3)."),
    permissions: ref(T.permissions, "Training and publication (C4)."),
    allowedDataRegions: allow("data regions"),
    builtinFilters: list(T.builtin, "The builtin content filters, per slug the strongest action (C6), sorted by slug."),
    customFilters: list(T.custom, "Every custom content filter of every layer: all apply (C8)."),
    promptInjection: ref(
      T.promptInjection,
      "`regex-prompt-injection`'s scope, the widest of the layers' (C7); absent when no layer turns it on.",
    ),
    budgets: list(T.budget, "Every budget that applies, each on its own with its layer (C9)."),
    modelAliases: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Model identifiers to the canonical slugs they were compared as; any other stands for itself.",
    },
  };
}

/** The types of a layer and of the allow and ignore lists. */
function listTypes(): Record<string, unknown> {
  return {
    [T.layer]: obj(
      "A layer of a member's or key's access: a guardrail or a Guardrail Policy.",
      {
        kind: str(
          "`workspace-default-guardrail`, `member-guardrail` (for a key: its owner's), `key-guardrail`, `policy` (assigned directly), `workspace-default-policy` (inherited) or `workspace-wide-policy`.",
        ),
        id: str("The guardrail's or policy's id."),
        name: str("Its name; absent when the service gave none."),
        policyType: str("A policy's kind: `budget`, `modelAccess` or `moderation`, as `getPolicy` takes it."),
        via: str("For a policy reached through a subject: `member` or `key` (a key's own, or its owner's)."),
      },
      ["kind", "id"],
    ),
    [T.restriction]: obj(
      "A layer holding an allow list, with it: alone it denies what it leaves out.",
      {
        layer: ref(T.layer, "The layer."),
        ids: { type: "array", items: { type: "string" }, description: "Its list, sorted." },
      },
      ["layer", "ids"],
    ),
    [T.allowList]: obj(
      "An allow list every layer together leaves.",
      {
        restricted: bool("Whether any layer holds a list; false: no restriction, and `allowed` is absent."),
        allowed: {
          type: "array",
          items: { type: "string" },
          description: "What every list together allows, sorted (empty: nothing); absent when `restricted` is false.",
        },
        restrictedBy: list(T.restriction, "Each layer holding a list, with it."),
      },
      ["restricted", "restrictedBy"],
    ),
    [T.denyEntry]: obj(
      "One ignored entry, with the layers that ignore it.",
      { id: str("The model or provider."), from: from("that list it") },
      ["id", "from"],
    ),
    [T.denyList]: obj(
      "An ignore list: every entry of every layer.",
      { entries: list(T.denyEntry, "The entries, sorted.") },
      ["entries"],
    ),
  };
}

/** The types of the combined access's other parts, and the access itself. */
function partTypes(): Record<string, unknown> {
  return {
    [T.enforced]: obj(
      "A zero-data-retention group: enforced when any layer enforces it.",
      { enforced: bool("Whether it is enforced."), by: from("that enforce it") },
      ["enforced", "by"],
    ),
    [T.zdr]: obj(
      "Zero data retention per model group.",
      Object.fromEntries(ZDR_GROUPS.map((g) => [g, ref(T.enforced, `For ${ZDR_TEXT[g]}.`)])),
      [...ZDR_GROUPS],
    ),
    [T.permission]: obj(
      "A training or publication permission.",
      {
        value: bool(
          "false when a layer forbids it; absent when none does, and the account's own privacy settings decide (a layer saying true grants nothing beyond them).",
        ),
        decidedBy: from("that forbid it"),
        onIn: from("that say true (recorded only)"),
      },
      ["decidedBy", "onIn"],
    ),
    [T.permissions]: obj(
      "Training and publication.",
      Object.fromEntries(PERMISSIONS.map((p) => [p, ref(T.permission, `${PERMISSION_TEXT[p]}.`)])),
      [...PERMISSIONS],
    ),
    [T.builtin]: obj(
      "A builtin content filter: the strongest action any layer gives it (`flag` < `redact` < `block`).",
      {
        slug: str("The filter."),
        action: str("The strongest action."),
        scanScope: str("`regex-prompt-injection` only: the widest scope."),
        from: from("holding it"),
        actionFrom: from("whose action is the strongest"),
      },
      ["slug", "action", "from", "actionFrom"],
    ),
    [T.custom]: obj(
      "A custom content filter, with its layer.",
      {
        pattern: str("Its pattern."),
        action: str("Its action."),
        label: str("Its label; absent when none."),
        from: ref(T.layer, "The layer holding it."),
      },
      ["pattern", "action", "from"],
    ),
    [T.promptInjection]: obj(
      "The prompt-injection filter's scope.",
      { scanScope: str("`all_messages` or `last_user_message`."), from: from("that turn it on") },
      ["scanScope", "from"],
    ),
    [T.budget]: obj(
      "A budget: each applies on its own.",
      {
        limitUsd: { type: "number", description: "Its limit in USD; absent when none." },
        resetInterval: str("`daily`, `weekly` or `monthly`; absent when it never resets."),
        includeByokInBudgets: bool("Whether bring-your-own-key spend counts."),
        from: ref(T.layer, "The layer it comes from."),
      },
      ["includeByokInBudgets", "from"],
    ),
    [T.access]: obj(
      "What every layer together leaves a member or key (docs/effective-access.md): each part with the layers it comes from.",
      accessProperties(),
      Object.keys(accessProperties()).filter((k) => k !== "promptInjection"),
    ),
  };
}

/** The object types of both answers, for the schema's `types`. */
export function accessFunctionTypes(): Record<string, unknown> {
  return { ...listTypes(), ...partTypes() };
}
