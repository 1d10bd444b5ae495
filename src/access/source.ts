/**
 * Where `guardrails-access` reads layers: the live service (the provider's credentials), or a
 * stack's state (state-source.ts). Both answer the same `OrgRead` (src/core/data-sources), so
 * `explain` and `who` combine them the same way.
 */
import type { Connection } from "../core/connection";
import { readAccessFacts } from "../core/data-sources/access-facts";
import type { AccessFactsRead, AccessSubject } from "../core/data-sources/access-org";
import { type OrgAccessRead, readOrgAccess } from "../core/data-sources/access-org-read";
import type { SourceKind } from "./answers";

/** A source of layers. */
export interface AccessSource {
  kind: SourceKind;
  /** One subject's facts. */
  facts(subject: AccessSubject, workspaceId?: string): Promise<AccessFactsRead>;
  /** Every subject's layers, read once. */
  org(workspaceId?: string): Promise<OrgAccessRead>;
  /** What this source cannot know, said in words for the answer. */
  notes: string[];
  /** Whether an id was read from a secret (a stack's state): counted, never shown. */
  hides?: (id: string) => boolean;
}

/** The live service: one subject's facts in 11 to 15 calls; the workspace once for `who` (access-org-read.ts). */
export function serviceSource(conn: Connection): AccessSource {
  return {
    kind: "service",
    facts: (subject, ws) => readAccessFacts(conn, subject, ws),
    org: (ws) => readOrgAccess(conn, ws),
    notes: [],
  };
}
