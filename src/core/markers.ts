/**
 * Pulumi's markers in property values: the sentinels of values not known during preview and
 * the envelope of a secret. They are part of Pulumi's wire protocol (`sdk/go/common/resource/
 * properties.go`), so they never change, and this is the one module that spells them (a wall
 * in test/unit/import-graph.test.ts keeps it so). Plain data: no @pulumi package.
 */

/**
 * The string Pulumi puts in a value not known yet during preview (an output of a resource
 * still to be created). `check` must pass it without a false failure, and `diff` must treat
 * it as "may change".
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/**
 * The engine's sentinels for values not known during preview, one per kind (`UNKNOWN` is the
 * string one), as the policy SDK deserializes them.
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

/**
 * The key under which Pulumi signs a value of a special kind: a secret, and also an asset, an
 * archive, a resource reference or an output value, each with its own signature as the key's value.
 */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";

/**
 * The signature of a secret: `{[SIG_KEY]: SECRET_SIG, value}` on the wire and in the engine's
 * answers; `ciphertext` (or, with `--show-secrets`, `plaintext`) in place of `value` in a state export.
 */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Whether a value is a secret in Pulumi's envelope. */
export function isSecretEnvelope(value: unknown): boolean {
  return !!value && typeof value === "object" && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/**
 * Whether a value is signed at all (`SIG_KEY` present, whatever the signature). Where a value
 * is only read, never sent back (a preview's or an export's JSON), a reader that cannot judge
 * a signed value of another kind treats it as it treats a secret: not quoted.
 */
export function isSigned(value: unknown): boolean {
  return !!value && typeof value === "object" && SIG_KEY in value;
}

/** A value as a secret, for the engine to encrypt in state and show as `[secret]`; a secret already stays as it is. */
export function asSecret(value: unknown): unknown {
  return isSecretEnvelope(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}
