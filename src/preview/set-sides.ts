/**
 * Which guardrail each side of a set step is on, as a logical name of the preview or a pseudo
 * one (a guardrail outside the preview, one known only after apply, a hidden one): never a
 * guess (issue 38).
 */
import { parseMovesFrom } from "../core/assignments/status";
import { isAnyUnknown } from "../core/markers";
import type { PreviewStep } from "./input";
import { hiddenGuardrail, hiddenOf } from "./set-verdicts";
import { changed, holdsSettings, nameOf } from "./steps";
import { isSecret } from "./values";

/**
 * Pseudo logical names, for a guardrail a set names that is not a resource of this preview. A
 * logical name (`nameOf`) never holds "::", so no resource can take one (an attacker's guardrail
 * named `guardrail <id>` is not the guardrail of that id).
 */
const OUTSIDE = "::outside ";
/** A guardrail whose id is known only after apply, and that no dependency names. */
const LATER = "::later";

/** The logical names of the guardrails a side's `guardrailId` came from (its `propertyDependencies`), each once. */
const dependencies = (st: PreviewStep["oldState"]) => [
  ...new Set((st?.guardrailFrom ?? []).filter(holdsSettings).map(nameOf)),
];

/**
 * The guardrail one side of a set step is on, as a logical name (or a pseudo one): by id; an id
 * the preview does not hold is a guardrail outside it; an id known only after apply is the one
 * guardrail its dependencies name. Never a guess (issue 38): a secret id, or an unknown one whose
 * dependencies name several guardrails (an apply over `strict.id` and `lax.id`, sorted by URN, so
 * attacker-ordered), is hidden: undefined when the side names no guardrail at all.
 */
export function sideOf(
  st: PreviewStep["oldState"],
  byId: Map<string, string>,
  side: "before" | "after",
): string | undefined {
  const gid = st?.inputs?.guardrailId;
  if (gid === undefined || gid === null) return undefined;
  if (typeof gid === "string" && !isSecret(gid) && !isAnyUnknown(gid)) return byId.get(gid) ?? `${OUTSIDE}${gid}`;
  if (!isAnyUnknown(gid)) return hiddenGuardrail(`secret ${side}`);
  const from = dependencies(st);
  if (from.length === 1) return from[0];
  return from.length > 1 ? hiddenGuardrail(`several ${from.sort().join(", ")}`) : LATER;
}

/** The name a reviewer reads for a guardrail only a set names: a pseudo one, or the id's. */
export function pseudoName(logical: string, moves: Record<string, unknown>): string | undefined {
  if (logical === LATER) return "(known after apply)";
  const hidden = hiddenOf(logical);
  if (hidden?.startsWith("secret ")) return "(secret guardrailId)";
  if (hidden?.startsWith("several ")) return `(known after apply: one of ${hidden.slice("several ".length)})`;
  if (!logical.startsWith(OUTSIDE)) return undefined;
  // A guardrail outside the preview is named by the `moves` that name its id, else by its id.
  const id = logical.slice(OUTSIDE.length);
  const named = Object.values(moves)
    .map((v) => (typeof v === "string" ? parseMovesFrom(v) : undefined))
    .find((m) => m?.name !== undefined && id.startsWith(m.id));
  return named?.name ?? `guardrail ${id}`;
}

/** The logical name a set's section goes under: the guardrail its id names, else the one guardrail its id came from. */
export function guardrailOfSide(st: PreviewStep["oldState"], byId: Map<string, string>): string | undefined {
  const gid = st?.inputs?.guardrailId;
  const known = typeof gid === "string" ? byId.get(gid) : undefined;
  if (known) return known;
  const from = dependencies(st);
  return from.length === 1 ? from[0] : undefined;
}

/**
 * Where a changed set sits before and after, when that differs, as logical names (or pseudo
 * ones). A side whose guardrail is hidden (a secret id, or several candidates) always counts as
 * re-pointed: every id the set holds may move, and is never read as staying put (issue 38).
 */
export function repointed(s: PreviewStep, byId: Map<string, string>): [string, string] | undefined {
  if (!s.oldState || !s.newState || s.op === "delete" || !changed(s.op)) return undefined;
  const [from, to] = [sideOf(s.oldState, byId, "before"), sideOf(s.newState, byId, "after")];
  if (from === undefined || to === undefined) return undefined;
  return to !== from || hiddenOf(from) !== undefined ? [from, to] : undefined;
}
