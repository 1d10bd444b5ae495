/**
 * Pulumi marks values that are not known yet during preview (outputs of resources still to
 * be created) with a sentinel string. `check` must pass them without a false failure, and
 * `diff` must treat them as "may change".
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/**
 * The engine's sentinels for values not known during preview, one per kind (`UNKNOWN` is the
 * string one), as the policy SDK deserializes them; part of the Pulumi wire protocol, so they
 * do not change.
 */
const UNKNOWN_SENTINELS: ReadonlySet<unknown> = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  UNKNOWN,
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

/** Whether a value is any of the engine's unknown sentinels (what a policy sees for an unknown of any kind). */
export function isAnyUnknown(value: unknown): boolean {
  return UNKNOWN_SENTINELS.has(value);
}

/** Whether a value holds an unknown anywhere inside it. */
export function containsUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  // An array's values are its items.
  if (value && typeof value === "object") return Object.values(value).some(containsUnknown);
  return false;
}
