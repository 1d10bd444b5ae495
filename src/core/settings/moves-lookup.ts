/**
 * `guardrails:movesLookup` (GUARDRAILS_MOVES_LOOKUP): when a set's `check` looks up where the ids
 * it adds sit now (core/assignments/moves.ts), which costs one walk of the organization's
 * assignments per provider process and kind (issue 43). A large organization that accepts silent
 * moves can trade the warning for that walk.
 */
import { shownSetting } from "../client/redaction";
import { UserError } from "../user-error";

/** `full`: every check that adds ids (preview and up); `preview-only`: a preview's only; `off`: never. */
export const MOVES_LOOKUP_VALUES = ["full", "preview-only", "off"] as const;
export type MovesLookup = (typeof MOVES_LOOKUP_VALUES)[number];

/** Settings that take one of a few words, by config key suffix and env var. */
export const CHOICE_SETTINGS = { movesLookup: "GUARDRAILS_MOVES_LOOKUP" } as const;

/**
 * One of MOVES_LOOKUP_VALUES (any case, blanks around ignored) from its text, or an error quoting
 * the text (never a key) and naming where it came from. `undefined` when not set.
 */
export function parseMovesLookup(
  text: string | undefined,
  source: string,
  keys: readonly (string | undefined)[] = [],
): MovesLookup | undefined {
  if (text === undefined || text === "") return undefined;
  const t = text.trim().toLowerCase();
  const found = MOVES_LOOKUP_VALUES.find((v) => v === t);
  if (found) return found;
  throw new UserError(`${source} must be one of ${MOVES_LOOKUP_VALUES.join(", ")} (got ${shownSetting(text, keys)})`);
}

/** The setting from the stack's text, else its env var; undefined when neither sets it. */
export function resolveMovesLookup(
  stackText: string | undefined,
  env: NodeJS.ProcessEnv,
  keys: readonly (string | undefined)[],
): MovesLookup | undefined {
  return stackText !== undefined
    ? parseMovesLookup(stackText, "guardrails:movesLookup", keys)
    : parseMovesLookup(env.GUARDRAILS_MOVES_LOOKUP, "the env var GUARDRAILS_MOVES_LOOKUP", keys);
}
