/**
 * Field lists and values that several test files spell the same way: the guardrail's wire list
 * fields (in the contract's order) and a pair of content filters of every kind.
 */

/** The four model and provider lists, on the wire. */
export const MODEL_LISTS = ["allowed_models", "allowed_providers", "ignored_models", "ignored_providers"] as const;

/** Every array field rule 3 of the contract covers (null or non-empty; `[]` is a 400). */
export const RULE3_LISTS = [...MODEL_LISTS, "content_filter_builtins", "content_filters"] as const;

/** Every list the service may answer as `[]`: the rule 3 fields and the data regions. */
export const ANSWERED_LISTS = [...RULE3_LISTS, "allowed_data_regions"] as const;

/** Content filters of every kind, as a program (or the SDK) writes them: a builtin with and without a scope, a pattern. */
export const FILTERS = {
  contentFilterBuiltins: [
    { slug: "email" as const, action: "redact" as const },
    { slug: "regex-prompt-injection" as const, action: "flag" as const, scanScope: "user_only" as const },
  ],
  contentFilters: [{ pattern: "secret-\\d+", action: "block" as const, label: "[SECRET]" }],
};
