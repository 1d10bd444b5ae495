/**
 * Pulumi marks values that are not known yet during preview (outputs of resources still to
 * be created) with a sentinel string. `check` must pass them without a false failure, and
 * `diff` must treat them as "may change".
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** Whether a value holds an unknown anywhere inside it. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
