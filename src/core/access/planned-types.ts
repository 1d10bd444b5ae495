/** What a caller hands `plannedAccess` (planned.ts) and what it gets back, as plain data. */
import type { AccessFacts, Subject } from "./types";
import type { ResourceTypeName } from "../kinds";

/** One resource of the stack as planned: its kind's type name, a key unique in the set, a display name and its props. */
export interface PlannedResource {
  type: ResourceTypeName;
  /** Unique among the resources (a URN): what a set's `target` names. */
  key: string;
  /** What a reviewer knows it by (a guardrail's or policy's name, else its logical name). */
  name: string;
  props: Readonly<Record<string, unknown>>;
  /**
   * A member or key set: the key of the guardrail resource its `guardrailId` names, read by the
   * caller (an id, or the dependency of an id known only after apply); null when that cannot be
   * told (a secret id, several candidates, a guardrail outside the resources).
   */
  target?: string | null;
}

/** What the caller knows beyond the resources. */
export interface PlannedOptions {
  /** A value that cannot be read at preview (not known until apply, or secret). @default containsUnknown */
  opaque?: (v: unknown) => boolean;
  /** The member owning each key (the service has no key -> owner lookup); a key not here has its owner's layers unknown. */
  keyOwners?: Readonly<Record<string, string>>;
  /**
   * Subjects (`subjectKey`) known to hold no guardrail assignment when no set of the resources lists
   * them (the summary: an id a set lists on the other side of the preview). Any other unlisted
   * subject's own guardrail is a layer this stack does not manage.
   */
  unassigned?: ReadonlySet<string>;
  /** Model identifiers to canonical slugs, as the diff pairs them (AccessFacts `modelAliases`). */
  modelAliases?: Readonly<Record<string, string>>;
}

/** One subject's planned facts, and the layers that cannot be known at preview (plain words, no secret). */
export interface PlannedSubject {
  facts: AccessFacts;
  unknown: string[];
}

/** A subject's key: `member:<id>` or `key:<hash>`. */
export const subjectKey = (s: Subject): string => ("member" in s ? `member:${s.member}` : `key:${s.key}`);
