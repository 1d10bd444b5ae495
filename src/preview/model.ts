/**
 * What the summary reads a preview into, before any Markdown: per guardrail its judged setting
 * changes and what its member and key sets do, with a verdict for each id that changes guardrail.
 */
import type { Direction, Judged } from "../core/fields/loosening";

/** Whether an id that changes guardrail gains anything, and what. */
export interface Verdict {
  direction: Direction;
  /** The changes that loosen or may loosen, for the reviewer to read. */
  gains: Judged[];
  /** How it was judged (or why it could not be), as Markdown: fixed words, any name in it already neutralised. */
  note?: string;
}

/** What a preview does to one guardrail's member or key set. */
export interface SetChanges {
  added: string[];
  removed: string[];
  restored: Array<[string, string]>;
  movedIn: Array<[string, string]>;
  movedOut: Array<[string, string]>;
  /** Added ids the provider found on a guardrail outside this preview (its `moves` input), with that guardrail's name. */
  taken: Array<[string, string]>;
  /** The list is secret and its resource changes: shown as changed, never its contents. */
  secret: boolean;
  /** Per id added, removed or moved: what it gains. */
  verdicts: Map<string, Verdict>;
  /** The ids on the guardrail after the preview, `secret` when the list is; undefined when no set step names it. */
  holders?: string[] | "secret";
}

/** One guardrail's changes: its settings judged, the non-settings (`workspaceId`) as before/after, and its sets. */
export interface GuardrailChange {
  logical: string;
  name: string;
  op: string;
  /** A workspace default guardrail: it holds every member and key of its workspace without an assignment. */
  isDefault: boolean;
  judged: Judged[];
  /** Not a resource of this preview: a guardrail a set leaves or joins, known only by its id (or name). */
  outside?: boolean;
  /** A new guardrail paired with one this preview deletes (a rename without an alias): that one's logical name. */
  succeeds?: string;
  /**
   * A deleted or replaced guardrail: what anyone on it the stack does not list falls back to, as
   * Markdown (a deletion's `judged` compares with it; a replacement's `released` does).
   */
  releases?: string;
  /** A replaced guardrail: what anyone on it the stack does not list loses (the old one is deleted with its assignments). */
  released?: Judged[];
  /**
   * A workspace default that leaves the stack (or its old workspace, when replaced): whether
   * every setting is reset to no restriction (`resetOnDelete`), `unknown` when that is secret.
   */
  resets?: boolean | "unknown";
  /**
   * A workspace default this preview creates, or moves to another workspace: every setting is
   * written over that workspace's current default, which the preview does not show (issue 38).
   */
  takesOver?: boolean;
  other: Array<{ key: string; before: unknown; after: unknown }>;
  sets: Record<"members" | "keys", SetChanges>;
}

/** Worst first: what a reviewer must read first. */
export const DIRECTIONS: readonly Direction[] = ["loosening", "unknown", "tightening", "neutral"];

/** The one direction of a group of changes: it loosens if anything loosens, then may loosen, tightens, neutral. */
export function worst(ds: Iterable<Direction>): Direction {
  const all = new Set(ds);
  return DIRECTIONS.find((d) => all.has(d)) ?? "neutral";
}

/** A verdict from the changes an id sees. */
export function verdictOf(judged: Judged[], note?: string): Verdict {
  return {
    direction: worst(judged.map((j) => j.direction)),
    gains: judged.filter((j) => j.direction === "loosening" || j.direction === "unknown"),
    ...(note ? { note } : {}),
  };
}

const emptySet = (): SetChanges => ({
  added: [],
  removed: [],
  restored: [],
  movedIn: [],
  movedOut: [],
  taken: [],
  secret: false,
  verdicts: new Map(),
});
/** A guardrail with no change yet. */
export const emptyChange = (logical: string, name = logical, op = "same", isDefault = false): GuardrailChange => ({
  logical,
  name,
  op,
  isDefault,
  judged: [],
  other: [],
  sets: { members: emptySet(), keys: emptySet() },
});

/** Whether a set changes at all. */
export const setChanged = (s: SetChanges) =>
  s.secret ||
  s.added.length + s.removed.length + s.restored.length + s.movedIn.length + s.movedOut.length + s.taken.length > 0;
