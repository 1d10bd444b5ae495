/**
 * Bearer-key checks. Keys are compared as SHA-256 digests with `timingSafeEqual`, against
 * every configured key without an early exit, so timing says nothing about a key's prefix.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export type Credential = "management" | "plain";

const digest = (key: string) => createHash("sha256").update(key, "utf8").digest();

export class KeyRing {
  private readonly entries: Array<{ digest: Buffer; kind: Credential }>;

  constructor(managementKeys: string[], plainKeys: string[]) {
    this.entries = [
      ...managementKeys.map((k) => ({ digest: digest(k), kind: "management" as const })),
      ...plainKeys.map((k) => ({ digest: digest(k), kind: "plain" as const })),
    ];
  }

  /** The kind of the key in an `Authorization` header, or null when missing, malformed or unknown. */
  identify(header: string | undefined): Credential | null {
    const match = /^Bearer ([^\s]+)$/.exec(header ?? "");
    if (!match?.[1]) return null;
    const candidate = digest(match[1]);
    let found: Credential | null = null;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, candidate) && found === null) found = entry.kind;
    }
    return found;
  }
}
