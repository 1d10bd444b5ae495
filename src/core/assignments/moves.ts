/**
 * Where each id a set is about to add sits now (issue 24, finding 19). Assigning moves a member
 * off any other guardrail of the workspace (a key off any other guardrail), including ones no
 * program manages, and the preview used to show only `+ user_jon: true`. So `check` finds
 * the ids the next `up` will add that sit on a competing guardrail and records them in the
 * checked inputs as `moves: {user_jon: "from guardrail Legacy Sales (3f2b8c1e…)"}`: the
 * preview shows it beside the members, the PR summary reads it, and the `up` warns from it
 * without another call. Best effort: a failed read records nothing (the write reports its own).
 */
import { collect } from "../client/pagination";
import { hasOrgView, orgHolders } from "../client/org-assignments";
import { createdHere } from "../resource/guardrail-reads";
import type { Connection } from "../connection";
import { containsUnknown } from "../markers";
import { secretArgsOf } from "../args/messages";
import type { AssignmentInputs } from "../args/assignment-args";
import type { AssignmentSetKind } from "./kind";
import { heldElsewhere } from "./held-elsewhere";
import { statusesIn } from "./state-map";
import { movesFrom, parseOnGuardrail } from "./status";

type Props = Record<string, unknown>;

/** Inputs the set classes or `check` add beside the user's args; never parsed as args. */
export const EXTRA_KEYS = ["moves"] as const;

/**
 * Whether the program runs a preview, as the dynamic face's set classes say
 * (`pulumi.runtime.isDryRun()`): the provider is not told (its requests and environment are the
 * same in a preview and in an up), so `guardrails:movesLookup: preview-only` needs the program's
 * word. `check` drops it from the inputs it answers, so no state holds it. Absent (the native
 * face, whose programs cannot say it), `preview-only` looks up as `full` does: the safe side.
 */
export const DRY_RUN_KEY = "__dryRun";

/** Whether `guardrails:movesLookup` lets this check look up (settings/moves-lookup.ts). */
function looksUp(conn: Connection, news: Props): boolean {
  const mode = conn.settings().movesLookup ?? "full";
  return mode === "full" || (mode === "preview-only" && news[DRY_RUN_KEY] !== false);
}

/** Ids a warning names; the rest are counted. */
const NAMED_MAX = 20;

/**
 * The ids `inputs` adds that sit on a competing guardrail now, each with where it comes from.
 * A set already in state adds the ids its state does not hold (no read of its own guardrail),
 * except those a refresh already placed on another guardrail;
 * a new one lists its guardrail first, so ids already there (an adoption) cost no walk of the
 * organization's assignments, unless this process has read them already (they say it then) or
 * created the guardrail (the walk is due anyway, and says it too).
 * Calls: that list (new sets on a guardrail this process did not create only), then, only when some ids are not there, the walk of the
 * organization's assignments (once per provider process and kind, shared by every set:
 * client/org-assignments.ts) and a GET per guardrail involved. `guardrails:movesLookup` can
 * turn all of it off, or off outside a preview.
 */
export async function movesAt(
  conn: Connection,
  kind: AssignmentSetKind,
  olds: Props,
  news: Props,
  inputs: AssignmentInputs,
): Promise<Record<string, string>> {
  // A secret list is never copied under another name (nor one whose secrecy cannot be read).
  if (secretArgsOf(news)(kind.stateKey) || containsUnknown(news) || !looksUp(conn, news)) return {};
  const client = conn.client();
  const inState = typeof olds?.guardrailId === "string" && olds.guardrailId.toLowerCase() === inputs.guardrailId;
  let adding: string[];
  if (inState) {
    const held = statusesIn(olds, kind.stateKey);
    // An id a refresh found on another guardrail already says so in the preview (`~ user_bob: "on guardrail …" => true`).
    adding = [...inputs.ids].filter(
      (id) => held[id] !== true && !(typeof held[id] === "string" && parseOnGuardrail(held[id]!)),
    );
  } else if (hasOrgView(client, kind.wire) || createdHere(client, inputs.guardrailId)) {
    // The organization's assignments are read in this process already, or will be (a guardrail
    // this process created holds none of the ids, so listing it first spares no walk): they say
    // what is here too.
    const holders = await orgHolders(client, kind.wire);
    adding = [...inputs.ids].filter((id) => !holders.get(id)?.includes(inputs.guardrailId));
  } else {
    const live = new Set(await collect(kind.list(client, inputs.guardrailId)));
    adding = [...inputs.ids].filter((id) => !live.has(id));
  }
  const found = await heldElsewhere(client, kind, inputs.guardrailId, adding);
  return Object.fromEntries(
    Object.keys(found)
      .sort()
      .map((id) => [id, movesFrom(found[id]!)]),
  );
}

/**
 * Entries of the last `moves` whose ids the set still holds and still lists: kept, so the
 * preview of a later change does not show them leaving (`- moves: {...}`) as if something
 * were undone. A refresh drops them (its inputs hold no `moves`).
 */
export function keptMoves(kind: AssignmentSetKind, olds: Props, inputs: AssignmentInputs): Record<string, string> {
  if (typeof olds?.guardrailId !== "string" || olds.guardrailId.toLowerCase() !== inputs.guardrailId) return {};
  const held = statusesIn(olds, kind.stateKey);
  return Object.fromEntries(Object.entries(movesIn(olds)).filter(([id]) => inputs.ids.has(id) && held[id] === true));
}

/** The checked inputs: the program's, with `moves` when there are any (a stale one dropped). */
export function withMoves(news: Props, moves: Record<string, string>): Props {
  const { moves: _stale, [DRY_RUN_KEY]: _said, ...rest } = news;
  const sorted = Object.fromEntries(
    Object.keys(moves)
      .sort()
      .map((id) => [id, moves[id]!]),
  );
  return Object.keys(sorted).length > 0 ? { ...rest, moves: sorted } : rest;
}

/** The `moves` a checked input carries, when it is a map of strings. */
export function movesIn(news: Props): Record<string, string> {
  const m = news.moves;
  if (!m || typeof m !== "object" || Array.isArray(m)) return {};
  return Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === "string")) as Record<string, string>;
}

/** The warning an `up` prints for ids it took off other guardrails, or undefined. */
export function movesWarning(
  kind: AssignmentSetKind,
  guardrailId: string,
  moves: Record<string, string>,
  landed: ReadonlySet<string>,
  added: readonly string[],
): string | undefined {
  const moved = added.filter((id) => landed.has(id) && moves[id] !== undefined);
  if (moved.length === 0) return undefined;
  const named = moved.slice(0, NAMED_MAX).map((id) => `${id} (${moves[id]})`);
  const more = moved.length > NAMED_MAX ? `, and ${moved.length - NAMED_MAX} more` : "";
  return `warning: ${kind.typeName} for guardrail ${guardrailId}: moved ${moved.length} ${kind.noun}(s) here from other guardrails: ${named.join(", ")}${more}`;
}
