/**
 * Bearer-key checks. Keys are compared as SHA-256 digests with `timingSafeEqual`, against
 * every configured key without an early exit, so timing says nothing about a key's prefix.
 */
import { createHash, timingSafeEqual } from "node:crypto";

export type Credential = "management" | "plain";

/** A known key: its kind and, for a workspace-scoped management key (docs/api-contract.md rule 26), its workspace. */
export interface Identity {
  kind: Credential;
  workspace?: string;
}

const digest = (key: string) => createHash("sha256").update(key, "utf8").digest();

export class KeyRing {
  private readonly entries: Array<{ digest: Buffer; kind: Credential; workspace?: string }>;

  constructor(managementKeys: string[], plainKeys: string[]) {
    this.entries = [
      ...managementKeys.map((k) => ({ digest: digest(k), kind: "management" as const })),
      ...plainKeys.map((k) => ({ digest: digest(k), kind: "plain" as const })),
    ];
  }

  /**
   * Admin: a management key scoped to one workspace (rule 26). It acts as a management key on
   * guardrail operations; on policy operations it defaults to its workspace and gets 403 for any other.
   */
  addWorkspaceKey(key: string, workspace: string): void {
    this.entries.push({ digest: digest(key), kind: "management", workspace });
  }

  /** The kind of the key in an `Authorization` header, or null when missing, malformed or unknown. */
  identify(header: string | undefined): Credential | null {
    return this.identity(header)?.kind ?? null;
  }

  /** The key in an `Authorization` header with its scope, or null when missing, malformed or unknown. */
  identity(header: string | undefined): Identity | null {
    const match = /^Bearer ([^\s]+)$/.exec(header ?? "");
    if (!match?.[1]) return null;
    const candidate = digest(match[1]);
    let found: Identity | null = null;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, candidate) && found === null)
        found = entry.workspace === undefined ? { kind: entry.kind } : { kind: entry.kind, workspace: entry.workspace };
    }
    return found;
  }
}
