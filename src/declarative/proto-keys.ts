/**
 * Keys named `__proto__` in a parsed file. YAML and JSON keep one as an own key, but the schema
 * (zod) skips it, so its entry would vanish without a word: a workspace keyed `__proto__` would
 * lose its policies. Each is a problem instead.
 */
import type { z } from "zod";

/** Deepest nesting searched; the schema bounds a real file's depth far below it. */
const MAX_DEPTH = 64;

/** One issue per `__proto__` key in `js`, at its path. */
export function protoKeyIssues(
  js: unknown,
  path: PropertyKey[] = [],
  out: z.core.$ZodIssue[] = [],
): z.core.$ZodIssue[] {
  if (!js || typeof js !== "object" || path.length > MAX_DEPTH) return out;
  for (const [key, value] of Object.entries(js)) {
    if (key === "__proto__")
      out.push({
        code: "custom",
        path: [...path, key],
        input: undefined,
        message: 'cannot be a key ("__proto__" is dropped when read); rename it',
      });
    else protoKeyIssues(value, [...path, key], out);
  }
  return out;
}
