/**
 * The sealed part of an import id (issue 38, class 2: every copy of a secret is a secret).
 * `guardrails-migrate-to-native` carries what a dynamic-face state managed in the import id
 * (a set's ids, a guardrail's model identifiers). When those values were secret, writing them
 * in the id would put them in plain text in the import file, the CLI's output and the
 * backend's pending-operation records. So the migration seals them: AES-256-GCM under a key
 * made for that one run, which reaches the plugin only through the environment of the
 * `pulumi import` it starts (`GUARDRAILS_IMPORT_SEAL`) and is never written anywhere. Once the
 * run ends the key is gone, and what the id holds is noise. The id itself names which args
 * were secret (`"secret": [names]`), never their values. Pure but for the environment read.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { UserError } from "./user-error";

/** The environment variable that hands the plugin the run's key (base64 of 32 bytes). */
export const SEAL_ENV = "GUARDRAILS_IMPORT_SEAL";

/** A new key for one migration run, as the environment carries it. */
export function newSealKey(): string {
  return randomBytes(32).toString("base64");
}

/** `value` as JSON, sealed under `key`: base64url of iv (12), tag (16) and ciphertext. */
export function sealJson(value: unknown, key: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(key, "base64"), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/**
 * The value `sealJson` sealed, with the key from `GUARDRAILS_IMPORT_SEAL`.
 *
 * @throws UserError when the key is absent or is not the one the value was sealed with.
 */
export function unsealJson(sealed: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const key = Buffer.from(env[SEAL_ENV] ?? "", "base64");
  const raw = Buffer.from(sealed, "base64url");
  if (key.length !== 32 || raw.length < 29)
    throw new UserError(
      `the import id holds a sealed part, which only the guardrails-migrate-to-native run that wrote it can open (its key is in ${SEAL_ENV}); run guardrails-migrate-to-native again`,
    );
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"));
  } catch {
    throw new UserError(
      `the import id's sealed part does not open with the key in ${SEAL_ENV} (another run's, or altered); run guardrails-migrate-to-native again`,
    );
  }
}

/** Longest arg name an import id's `secret` list may hold, and most names. */
const MAX_NAME = 64;
const MAX_NAMES = 64;

/** Whether `v` is a list of arg names (`secret`), as an import id carries them. */
export const isArgNames = (v: unknown): v is string[] =>
  Array.isArray(v) &&
  v.length <= MAX_NAMES &&
  v.every((n) => typeof n === "string" && n.length <= MAX_NAME && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));

/**
 * An import id's JSON object with its sealed part (`sealed`) opened and merged in; `secret`
 * kept as is. A sealed part may not repeat a key the plain part has.
 */
export function opened(o: Record<string, unknown>, refuse: (why: string) => never): Record<string, unknown> {
  if (o.sealed === undefined) return o;
  const { sealed, ...rest } = o;
  if (typeof sealed !== "string") return refuse("sealed must be a string");
  let inner: unknown;
  try {
    inner = unsealJson(sealed);
  } catch (err) {
    return refuse((err as Error).message);
  }
  if (!inner || typeof inner !== "object" || Array.isArray(inner)) return refuse("the sealed part is not an object");
  for (const k of Object.keys(inner)) if (k in rest || k === "sealed") return refuse("the sealed part repeats a key");
  return { ...rest, ...(inner as Record<string, unknown>) };
}
