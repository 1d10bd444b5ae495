/**
 * The sealed part of an import id (issue 38, class 2: every copy of a secret is a secret).
 * `guardrails-migrate-to-native` carries what a dynamic-face state managed in the import id
 * (a set's ids, a guardrail's model identifiers). When those values were secret, writing them
 * in the id would put them in plain text in the import file, the CLI's output and the
 * backend's pending-operation records. So the migration seals them: AES-256-GCM under a key
 * made for that one run, which reaches the plugin only through the environment of the
 * `pulumi import` it starts (`GUARDRAILS_IMPORT_SEAL`) and is never written anywhere. Once the
 * run ends the key is gone, and what the id holds is noise. A sealed part is bound to the
 * resource id it was sealed for (`boundTo`, the AES-GCM associated data), so one moved into
 * another resource's id does not open. The id itself names which args were secret
 * (`"secret": [names]`, each an arg of its resource kind), never their values. Pure but for
 * the environment read.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { shown } from "./args/messages";
import { UserError } from "./user-error";

/** The environment variable that hands the plugin the run's key (base64 of 32 bytes). */
export const SEAL_ENV = "GUARDRAILS_IMPORT_SEAL";

/** A new key for one migration run, as the environment carries it. */
export function newSealKey(): string {
  return randomBytes(32).toString("base64");
}

/**
 * What a sealed part is bound to: the id of the resource it was sealed for, as the import
 * records it (`<guardrail id>` for a guardrail, `<guardrail id>/members` for a set), lower case.
 */
export const boundTo = (resourceId: string): Buffer =>
  Buffer.from(`pulumi-guardrails import ${resourceId.toLowerCase()}`);

/**
 * `value` as JSON, sealed under `key` for the resource `resourceId` (the associated data):
 * base64url of iv (12), tag (16) and ciphertext.
 */
export function sealJson(value: unknown, key: string, resourceId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(key, "base64"), iv);
  cipher.setAAD(boundTo(resourceId));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/**
 * The value `sealJson` sealed for `resourceId`, with the key from `GUARDRAILS_IMPORT_SEAL`.
 *
 * @throws UserError when the key is absent or is not the one the value was sealed with, or
 * the value was sealed for another resource.
 */
export function unsealJson(sealed: string, resourceId: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const key = Buffer.from(env[SEAL_ENV] ?? "", "base64");
  const raw = Buffer.from(sealed, "base64url");
  if (key.length !== 32 || raw.length < 29)
    throw new UserError(
      `the import id holds a sealed part, which only the guardrails-migrate-to-native run that wrote it can open (its key is in ${SEAL_ENV}); run guardrails-migrate-to-native again`,
    );
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    decipher.setAAD(boundTo(resourceId));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8"));
  } catch {
    throw new UserError(
      `the import id's sealed part does not open with the key in ${SEAL_ENV} (another run's, altered, or sealed for another resource's id); run guardrails-migrate-to-native again`,
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
 * Why an import id's `secret` list cannot be recorded, or undefined: a name that is not one of
 * `args` (the resource kind's args) would mark an output no arg has, or a prototype's name
 * (`__proto__`) would turn the outputs themselves into a secret envelope.
 */
export function secretNamesProblem(
  names: readonly string[],
  args: readonly string[],
  typeName: string,
): string | undefined {
  const stray = names.find((n) => !args.includes(n));
  return stray === undefined ? undefined : `secret names ${shown(stray)}, which is not an arg of ${typeName}`;
}

/**
 * An import id's JSON object with its sealed part (`sealed`) opened and merged in; `secret`
 * kept as is. A sealed part opens only for `resourceId`, the id it was sealed for, and may not
 * repeat a key the plain part has.
 */
export function opened(
  o: Record<string, unknown>,
  resourceId: string,
  refuse: (why: string) => never,
): Record<string, unknown> {
  if (o.sealed === undefined) return o;
  const { sealed, ...rest } = o;
  if (typeof sealed !== "string") return refuse("sealed must be a string");
  let inner: unknown;
  try {
    inner = unsealJson(sealed, resourceId);
  } catch (err) {
    return refuse((err as Error).message);
  }
  if (!inner || typeof inner !== "object" || Array.isArray(inner)) return refuse("the sealed part is not an object");
  for (const k of Object.keys(inner)) if (k in rest || k === "sealed") return refuse("the sealed part repeats a key");
  return { ...rest, ...(inner as Record<string, unknown>) };
}
