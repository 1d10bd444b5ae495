/**
 * The settings of a policy's `config` this package does not manage (the service's `pii_filters`,
 * `armor`, `platform_banned_*`, a setting of another kind), kept raw and bounded: an update
 * replaces `config` whole (docs/api-contract.md rule 24), so its PUT carries them back as read.
 */
import { z } from "zod";
import { spec } from "../fields/fields";
import { POLICY_FIELDS, type PolicyKind } from "../fields/policy-kinds";
import { WIRE_TEXT_MAX } from "./wire";

/** The most a policy's unmanaged settings may hold, as JSON: they are kept for one update's PUT. */
export const UNMANAGED_CONFIG_MAX = 64 * 1024;
/** How deep an unmanaged setting may nest. */
const UNMANAGED_DEPTH_MAX = 16;

/** The first bound a JSON value breaks (a string or key longer than a wire text, nesting), named by path, never by value. */
function boundProblem(v: unknown, path: string, depth: number): string | undefined {
  if (depth > UNMANAGED_DEPTH_MAX) return `${path}: nested deeper than ${UNMANAGED_DEPTH_MAX} levels`;
  if (typeof v === "string")
    return v.length > WIRE_TEXT_MAX
      ? `${path}: must be at most ${WIRE_TEXT_MAX} characters (got ${v.length})`
      : undefined;
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) {
      const p = boundProblem(x, `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
    return undefined;
  }
  if (v === null || typeof v !== "object") return undefined;
  for (const [k, x] of Object.entries(v)) {
    if (k.length > WIRE_TEXT_MAX) return `${path}: a key longer than ${WIRE_TEXT_MAX} characters (${k.length})`;
    const p = boundProblem(x, `${path}.${k}`, depth + 1);
    if (p) return p;
  }
  return undefined;
}

/**
 * The `config` keys a kind's fields do not name, as the service sent them: the service's own
 * settings this package does not manage (`pii_filters`, `armor`, `platform_banned_*`, a setting
 * of another kind). An update replaces `config` whole (rule 24), so its PUT carries these back
 * as they were. Bounded: every string and key as a wire text, nesting, and the whole as JSON.
 */
export const unmanagedConfig = (kind: PolicyKind) => {
  const known = new Set<string>(POLICY_FIELDS[kind].map((k) => spec(k).wire));
  return z
    .unknown()
    .transform((c) =>
      c !== null && typeof c === "object" && !Array.isArray(c)
        ? Object.fromEntries(Object.entries(c).filter(([k]) => !known.has(k)))
        : {},
    )
    .superRefine((extra, ctx) => {
      const problem = boundProblem(extra, "config", 0);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
      else if (JSON.stringify(extra).length > UNMANAGED_CONFIG_MAX)
        ctx.addIssue({
          code: "custom",
          message: `the settings this package does not manage exceed ${UNMANAGED_CONFIG_MAX} characters as JSON`,
        });
    });
};
