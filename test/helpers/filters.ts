/**
 * Builtin content filters the tests share. A builtin filter has the same keys in the program's
 * args and on the wire, so one list serves both.
 */

/** Email addresses redacted and SSNs blocked: what `requireBuiltinFilters: ["email", "ssn"]` asks. */
export const EMAIL_REDACT_SSN_BLOCK = [
  { slug: "email", action: "redact" },
  { slug: "ssn", action: "block" },
];
