/**
 * The answers of `guardrails-access` (issue 41) as plain data, the `--json` shape: `explain` for
 * one member or key, `who` for every subject of a workspace. Every combination is
 * src/core/access's (`effectiveAccess`, `explain`); this file only says how sure each answer is.
 *
 * How sure: adding a layer never widens effective access (docs/effective-access.md), so a layer
 * that is not known can only turn an "allowed" into a "denied", never the other way round, when
 * the unknown layers are only added ones (a key's owner). A key whose owner is not given is
 * therefore "denied" for certain when its own layers deny, and otherwise only "allowed as far as
 * is known" (`certain: false`): never claimed to reach what its owner's layers may deny. From a
 * stack's state, layers the stack does not manage are not known in either direction (a direct
 * policy the stack does not manage takes its subject off the workspace default, rule 27), so no
 * verdict read from a state is certain.
 */
import {
  type AccessFacts,
  type AccessQuery,
  type EffectiveAccess,
  effectiveAccess,
  explain,
  type LayerRef,
  type Reason,
} from "../core/access";
import type { AccessSubject } from "../core/data-sources/access-org";

/** Where the layers were read: the live service, or a stack's state (only the layers it manages). */
export type SourceKind = "service" | "state";

/** One subject's verdict on a query. */
export interface SubjectVerdict {
  /** Allowed by every layer known. */
  allowed: boolean;
  /** false when a layer not known could change it (a key's owner; a stack's unmanaged layers). */
  certain: boolean;
  /** What decides: every denying reason, or when allowed the reasons that permit. */
  deciding: Reason[];
}

/** What `explain` answers (`--json`). */
export interface ExplainAnswer {
  command: "explain";
  source: SourceKind;
  workspaceId: string;
  subject: { memberId: string } | { keyHash: string; ownerMemberId: string | null };
  /** false for a key whose owner was not given: its owner's layers are left out. */
  ownerKnown: boolean;
  /** The query, or null when none was given (then `verdict` is null and `access` is the answer). */
  query: AccessQuery | null;
  verdict: SubjectVerdict | null;
  /** What applies to every request let through: ZDR groups enforced, budgets. */
  conditions: string[];
  layers: LayerRef[];
  access: EffectiveAccess;
  /** What could not be known, said in words. */
  notes: string[];
}

/** One row of `who`. */
export interface WhoRow extends SubjectVerdict {
  /** A member id or key hash; null for "any other" member or key (those no listing names). */
  id: string | null;
  /** For a key: whether its owner is known (never, from the service). */
  ownerKnown: boolean;
}

/** What `who` answers (`--json`). */
export interface WhoAnswer {
  command: "who";
  source: SourceKind;
  workspaceId: string;
  query: AccessQuery;
  members: WhoRow[];
  keys: WhoRow[];
  notes: string[];
}

/** A verdict from a subject's facts; `sure` is whether every layer it could have is known. */
export function verdictOf(facts: AccessFacts, query: AccessQuery, sure: { ownerKnown: boolean; source: SourceKind }) {
  const access = effectiveAccess(facts);
  const v = explain(access, query);
  // Only added layers are unknown for a key's owner: a denial stands (adding never widens).
  const certain = sure.source === "service" && (sure.ownerKnown || !v.allowed);
  return { access, conditions: v.conditions, verdict: { allowed: v.allowed, certain, deciding: v.deciding } };
}

/** The subject as the answer names it. */
export const subjectShown = (s: AccessSubject): ExplainAnswer["subject"] =>
  "keyHash" in s ? { keyHash: s.keyHash, ownerMemberId: s.ownerMemberId ?? null } : { memberId: s.memberId };

/** Whether a query names anything. */
export const asks = (q: AccessQuery) => q.model !== undefined || q.provider !== undefined || q.region !== undefined;
