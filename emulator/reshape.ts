/**
 * `PATCH /__emulator/guardrails/{id}`: overwrite a stored guardrail's raw fields by hand, so a
 * test can make it hold what the real service may send and the API would never write
 * (docs/api-contract.md rules 10-12): any optional key absent, `workspace_id: null`, a new
 * builtin slug, action, `reset_interval` or `scan_scope`, extra fields. GET and list then serve
 * it exactly as stored. Only `id`, `name` and `created_at` stay: rule 10 says every reader may
 * count on them.
 */
import { z } from "zod";
import { badRequest } from "./http-error";
import type { StoredGuardrail } from "./records";

/** Keys that must stay, as strings: the three rule 10 promises. */
const KEPT = ["id", "name", "created_at"] as const;

/** `{set: {field: any JSON}, remove: [field, ...]}`; both optional, a field in at most one. */
export const reshapeBody = z.strictObject({
  set: z.record(z.string(), z.unknown()).optional(),
  remove: z.array(z.string().min(1)).optional(),
});

export function reshapeGuardrail(g: StoredGuardrail, change: z.infer<typeof reshapeBody>): StoredGuardrail {
  const set = change.set ?? {};
  const remove = change.remove ?? [];
  const problems: string[] = [];
  if ("id" in set) problems.push("set.id: the id cannot change");
  for (const key of ["name", "created_at"] as const)
    if (key in set && typeof set[key] !== "string")
      problems.push(`set.${key}: must be a string (rule 10: always present)`);
  for (const key of remove) {
    if ((KEPT as readonly string[]).includes(key))
      problems.push(`remove: "${key}" cannot be removed (rule 10: id, name and created_at are always present)`);
    if (key in set) problems.push(`remove: "${key}" is also in set`);
  }
  if (problems.length > 0) throw badRequest(problems.join("; "));
  const target = g as Record<string, unknown>;
  for (const key of remove) delete target[key];
  for (const [key, value] of Object.entries(set)) {
    // JSON.parse gives own "__proto__" keys; assigning one would change the prototype instead.
    if (key === "__proto__")
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    else target[key] = value;
  }
  return g;
}
