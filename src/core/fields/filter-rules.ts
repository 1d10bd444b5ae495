/**
 * The builtin content filter rules (spec + docs/api-contract.md), written once for every
 * schema built from the field table (the program's args, the declarative files). The emulator
 * validates requests with its own copy and reads nothing from src/.
 */
import { PII_SLUGS, PROMPT_INJECTION_SLUG } from "./constants";

export interface BuiltinRuleViolation {
  index: number;
  field: "action" | "scanScope" | "slug";
  message: string;
}

/** Every violation in a list of builtins: flag only for prompt injection, scan scope likewise, no duplicate slug. */
export function builtinViolations(
  items: ReadonlyArray<{ slug: string; action: string; scanScope?: string | undefined }>,
): BuiltinRuleViolation[] {
  const out: BuiltinRuleViolation[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const pii = (PII_SLUGS as readonly string[]).includes(item.slug);
    if (pii && item.action === "flag")
      out.push({
        index,
        field: "action",
        message: `"flag" is supported only for ${PROMPT_INJECTION_SLUG}; ${item.slug} takes block or redact`,
      });
    if (pii && item.scanScope !== undefined)
      out.push({ index, field: "scanScope", message: `only ${PROMPT_INJECTION_SLUG} takes a scan scope` });
    if (seen.has(item.slug))
      out.push({ index, field: "slug", message: `duplicate slug "${item.slug}"; list each builtin once` });
    seen.add(item.slug);
  });
  return out;
}
