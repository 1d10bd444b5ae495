/**
 * Enumerations fixed by the spec and docs/api-contract.md, read by the program's arg schemas,
 * the client's wire schemas and the policy pack. The emulator keeps its own copy
 * (emulator/rules.ts) and reads nothing from src/: the conformance suite keeps the two agreeing.
 */

/** Values of `reset_interval`. */
export const RESET_INTERVALS = ["daily", "weekly", "monthly"] as const;
export type ResetInterval = (typeof RESET_INTERVALS)[number];

/** Values of `allowed_data_regions` (docs/api-contract.md rule 13). */
export const DATA_REGIONS = ["global", "europe", "us"] as const;

/** Builtin content filter slugs that detect personal data: `block` or `redact` only (spec). */
export const PII_SLUGS = ["email", "phone", "ssn", "credit-card", "ip-address", "person-name", "address"] as const;

/** The one builtin that may `flag` and that takes a `scan_scope`. */
export const PROMPT_INJECTION_SLUG = "regex-prompt-injection" as const;

/** Every builtin content filter slug. */
export const BUILTIN_SLUGS = [...PII_SLUGS, PROMPT_INJECTION_SLUG] as const;
export type BuiltinSlug = (typeof BUILTIN_SLUGS)[number];

/** Actions a content filter can take. */
export const FILTER_ACTIONS = ["block", "redact", "flag"] as const;
export type FilterAction = (typeof FILTER_ACTIONS)[number];

/** Where the prompt-injection builtin looks. The service's default is `all_messages`. */
export const SCAN_SCOPES = ["user_only", "all_messages"] as const;
export type ScanScope = (typeof SCAN_SCOPES)[number];

/** Name length bounds (spec, Limits). */
export const NAME_MAX = 200;
/** Description length bound (spec, Limits). */
export const DESCRIPTION_MAX = 1000;
/** Custom filter label length bound (docs/api-contract.md). */
export const FILTER_LABEL_MAX = 100;
/**
 * Largest request body the service accepts, in bytes (413 past it). The spec gives no figure;
 * this is the emulator's, and `check` holds programs to it so a huge pattern fails at preview.
 */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;
/** Largest page a list operation serves (docs/api-contract.md, Pagination). */
export const MAX_PAGE_SIZE = 100;
/**
 * Ids per bulk assign/unassign request the provider sends when `guardrails:maxBulk` is not set:
 * the per-request maximum the service is known to accept (docs/api-contract.md rule 8).
 */
export const DEFAULT_MAX_BULK = 500;

/** Whether a regular expression compiles. */
export function regexCompiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** A UUID in canonical text form (any version); the service's ids and workspace ids. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids that are UUIDs (workspaces, guardrails) compare case-insensitively. */
export const sameUuid = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? "").toLowerCase() === (b ?? "").toLowerCase();
