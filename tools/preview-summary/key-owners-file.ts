/**
 * `--key-owners FILE` of the summary CLI: a JSON object from each API key hash to the member who
 * owns it (the service has no key -> owner lookup), so that a key's effective access counts its
 * owner's layers; or exit 2 naming what is wrong, before anything is summarised.
 */
import { readFileSync, statSync } from "node:fs";

/** A key-owners file is small: one line per key of the organization. */
const MAX_BYTES = 16 * 1024 * 1024;

export function readKeyOwners(path: string | undefined): Record<string, string> {
  const fail = (why: string): never => {
    process.stderr.write(`guardrails-preview-summary: --key-owners ${why}\n`);
    process.exit(2);
  };
  if (!path || path.startsWith("--")) return fail('needs a file: a JSON object {"<key hash>": "<member user id>"}');
  let json: unknown;
  try {
    const stat = statSync(path);
    // A FIFO or device would be read until it ends: perhaps never.
    if (!stat.isFile()) return fail(`${path} is not a regular file`);
    const size = stat.size;
    if (size > MAX_BYTES) return fail(`${path} is ${size} bytes, over the ${MAX_BYTES}-byte limit`);
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return fail(code ? `cannot read ${path} (${code})` : `${path} is not JSON`);
  }
  if (!json || typeof json !== "object" || Array.isArray(json))
    return fail(
      `${path} must hold a JSON object {"<key hash>": "<member user id>"} (got ${Array.isArray(json) ? "a list" : typeof json})`,
    );
  const owners: Record<string, string> = Object.create(null);
  for (const [key, member] of Object.entries(json as Record<string, unknown>)) {
    if (typeof member !== "string" || member.trim() === "")
      return fail(`${path}: the owner of key ${JSON.stringify(key.slice(0, 80))} must be a member user id string`);
    owners[key] = member;
  }
  return owners;
}
