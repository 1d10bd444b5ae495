/**
 * The status strings an assignment set's state map holds for ids that are not assigned to its
 * guardrail. They show in CLI diffs (`~ user_bob: "on guardrail Engineering (3f2b8c1e…)" => true`)
 * and the PR summary reads them back, so this module is shared and imports only plain text
 * helpers: the summary must not load the client to know them.
 */
import { blankLayout } from "../text/controls";

/** Status of an id assigned here that the program does not list (exclusive mode removes it). */
export const FOREIGN = "assigned here, not in the program";

/** Status of an id the program lists that is on no competing guardrail. */
export const NOT_ASSIGNED = "not assigned";

/**
 * Status of an id whose fate a failed `up` could not learn: a bulk call that took it lost its
 * answer (or was answered short) and the read that would have settled it failed too. Never
 * a guess either way: the next update reads the service before it writes, and a refresh
 * replaces the mark with what it finds (issue 38).
 */
export const UNCONFIRMED = "unconfirmed: an up failed before the service said; the next up reads it first";

/**
 * The same mark on a foreign id (one the program never listed) that an exclusive set was
 * removing: it keeps what was known, that the id is not the program's, so a switch to additive
 * releases it as it releases every foreign id, and a refresh or a migration never counts it
 * among the program's (issue 38).
 */
export const UNCONFIRMED_FOREIGN =
  "unconfirmed, not in the program: an up failed before the service said; the next up reads it first";

/**
 * Reads a mark back: undefined for any other status, and whether the id is foreign. Tolerant:
 * any status that begins with "unconfirmed" is a mark, of an id of the program's unless it says
 * "not in the program" (0.5.0-dev wrote UNCONFIRMED alone, for ids of either kind).
 */
export function parseUnconfirmed(status: unknown): { foreign: boolean } | undefined {
  if (typeof status !== "string" || !/^unconfirmed\b/.test(status)) return undefined;
  return { foreign: /^unconfirmed\W+not in the program\b/.test(status) };
}

/** A foreign id, sure or marked: held here (or maybe), never the program's; exclusive mode removes it. */
export function isForeign(status: unknown): boolean {
  return status === FOREIGN || parseUnconfirmed(status)?.foreign === true;
}

/** Longest guardrail name a status quotes; names come from the service, so they are bounded. */
export const STATUS_NAME_MAX = 60;

/**
 * A service-given name made safe for a one-line status: control and formatting characters
 * become spaces, runs of white space fold, and a long name is cut with an ellipsis.
 */
export function statusName(name: string): string {
  const flat = blankLayout(name).replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length > STATUS_NAME_MAX ? `${chars.slice(0, STATUS_NAME_MAX - 1).join("")}…` : flat;
}

/**
 * Status of an id that sits on another guardrail: by name and short id where the name is
 * known (`on guardrail Engineering (3f2b8c1e…)`), else by id (`on guardrail <uuid>`, the only
 * form earlier versions wrote).
 */
export function onGuardrail(guardrailId: string, name?: string | null): string {
  const shown = name ? statusName(name) : "";
  return shown ? `on guardrail ${shown} (${guardrailId.slice(0, 8)}…)` : `on guardrail ${guardrailId}`;
}

/** Reads an `onGuardrail` status back: the name when it has one, and the (possibly short) id. */
export function parseOnGuardrail(status: string): { name?: string; id: string } | undefined {
  const named = /^on guardrail (.+) \(([^()\s]+)…\)$/.exec(status);
  if (named) return { name: named[1]!, id: named[2]! };
  const bare = /^on guardrail (\S+)$/.exec(status);
  return bare ? { id: bare[1]! } : undefined;
}

/**
 * What a set's preview records for an id it is about to take off another guardrail (issue 24,
 * finding 19): `from guardrail Legacy Sales (3f2b8c1e…)`, read from an `onGuardrail` status.
 */
export function movesFrom(status: string): string {
  return status.replace(/^on /, "from ");
}

/** Reads a `movesFrom` value back, as `parseOnGuardrail` reads a status. */
export function parseMovesFrom(value: string): { name?: string; id: string } | undefined {
  return value.startsWith("from ") ? parseOnGuardrail(`on ${value.slice(5)}`) : undefined;
}
