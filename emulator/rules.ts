/**
 * The emulator's own catalogue of the service's rules: enumerations, labels and bounds, written
 * from docs/api-contract.md and never shared with the client. Where the contract's rules 10-16
 * (what the real service does) are wider than the spec, the emulator answers like the service.
 */
import type { BuiltinFilterRecord, CustomFilterRecord } from "./records";

/** `reset_interval` values the service accepts on a write (spec, Limits). */
export const RESET_INTERVALS = ["daily", "weekly", "monthly"] as const;

/** Builtin content filter slugs the service accepts on a write: the spec's eight plus `secrets` (rule 11). */
export const BUILTIN_SLUGS = [
  "email",
  "phone",
  "ssn",
  "credit-card",
  "ip-address",
  "secrets",
  "person-name",
  "address",
  "regex-prompt-injection",
] as const;
export type BuiltinSlug = (typeof BUILTIN_SLUGS)[number];

/** The only builtin that takes a `scan_scope` (docs/api-contract.md, Records). */
export const SCOPED_BUILTIN = "regex-prompt-injection";

/**
 * Actions of builtin and custom filters. The spec limits `flag` to the prompt-injection builtin;
 * the service now takes it on every builtin (rule 11), and so does the emulator.
 */
export const ACTIONS = ["block", "redact", "flag"] as const;

/** Where the prompt-injection builtin looks; `all_messages` when not given. */
export const SCAN_SCOPES = ["user_only", "all_messages"] as const;
export const DEFAULT_SCAN_SCOPE = "all_messages";

/** `allowed_data_regions` values (rule 13). */
export const DATA_REGIONS = ["global", "europe", "us"] as const;

/** The label the service puts on each builtin: the slug in capitals, dashes as underscores. */
export function builtinLabel(slug: string): string {
  return slug === "regex-prompt-injection" ? "[PROMPT_INJECTION]" : `[${slug.toUpperCase().replace(/-/g, "_")}]`;
}

/** Bounds from the spec's Limits table and the contract. */
export const LIMITS = {
  nameMax: 200,
  descriptionMax: 1000,
  customLabelMax: 100,
  pageSizeMax: 100,
  pageSizeDefault: 50,
  /** The per-request maximum of bulk bodies when none is configured (rule 8). */
  bulkDefault: 500,
} as const;

/** The service's ids: a UUID in canonical text form, any version. */
export const UUID_PATTERN = /^[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;

export function compiles(pattern: string): boolean {
  try {
    void new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** What breaks the builtin rules in one list: a scan scope off the prompt-injection builtin, a slug twice. */
export function builtinProblems(
  items: ReadonlyArray<{ slug: string; scan_scope?: string | undefined }>,
): Array<{ path: [number, string]; message: string }> {
  const problems: Array<{ path: [number, string]; message: string }> = [];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.scan_scope !== undefined && item.slug !== SCOPED_BUILTIN)
      problems.push({
        path: [i, "scan_scope"],
        message: `only ${SCOPED_BUILTIN} takes a scan_scope (${item.slug} does not)`,
      });
    if (seen.has(item.slug))
      problems.push({ path: [i, "slug"], message: `duplicate slug "${item.slug}": list each builtin once` });
    seen.add(item.slug);
  });
  return problems;
}

/** A write's builtin filters as the service stores them: the scan scope defaulted, the label added. */
export function storedBuiltins(
  items: readonly { slug: string; action: string; scan_scope?: string | undefined }[] | null | undefined,
): BuiltinFilterRecord[] | null {
  if (!items) return null;
  return items.map((b) => ({
    slug: b.slug,
    action: b.action,
    ...(b.slug === SCOPED_BUILTIN ? { scan_scope: b.scan_scope ?? DEFAULT_SCAN_SCOPE } : {}),
    label: builtinLabel(b.slug),
  }));
}

/** A write's custom filters as stored (a null label left out). */
export function storedCustomFilters(
  items: readonly { pattern: string; action: string; label?: string | null | undefined }[] | null | undefined,
): CustomFilterRecord[] | null {
  if (!items) return null;
  return items.map((f) => ({ pattern: f.pattern, action: f.action, ...(f.label != null ? { label: f.label } : {}) }));
}
