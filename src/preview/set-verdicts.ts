/**
 * The verdict for each id a set moves, adds or removes: the guardrail it leaves (as it was)
 * against the one it joins (as it will be), setting by setting; an id with no assignment is on
 * its workspace's default guardrail when the stack manages it. And how a guardrail is named
 * where an id moves from or to.
 */
import type { Judged } from "../core/fields/loosening";
import { code } from "../core/text/markdown";
import { compareSides } from "./judge";
import { guardrailLabel } from "./marks";
import { verdictOf, type GuardrailChange, type Verdict } from "./model";
import { defaultFor, type GuardrailOfPreview } from "./steps";

/** The verdict's note when a guardrail an id leaves or joins is not in the preview: never read as harmless. */
export const UNSEEN =
  "the settings of a guardrail it leaves or joins are not in this preview: counted as a loosening until a preview shows both (`pulumi preview --show-sames`)";

/** The prefix of a hidden guardrail's pseudo logical name (a logical name never holds "::"). */
const HIDDEN = "::hidden ";
/** The pseudo logical name of a guardrail a set's `guardrailId` hides (a secret, or one of several candidates). */
export const hiddenGuardrail = (what: string) => `${HIDDEN}${what}`;
/** What a hidden guardrail's pseudo logical name says (`secret after`, `several a, b`), or undefined for any other. */
export const hiddenOf = (logical: string | undefined) =>
  logical?.startsWith(HIDDEN) ? logical.slice(HIDDEN.length) : undefined;

/** The verdict's note for an id of a set whose guardrail is hidden: never "not re-pointed". */
export const HIDDEN_NOTE =
  "the set's guardrailId is secret or could be one of several guardrails, so which guardrail it is on cannot be read from the preview: counted as a loosening";

/** The verdict's note for an id that had no assignment when the stack does not hold its workspace's default. */
export const UNSEEN_DEFAULT = "had no assignment: it was on its workspace's default guardrail, not in this preview";
/** The same, when the stack creates the default here (written over the current one, which the preview does not show). */
const UNSEEN_DEFAULT_CREATED =
  "had no assignment: it was on its workspace's default guardrail, whose current settings are not in this preview";

/**
 * Each guardrail's name as Markdown (a code span, marked when it can pass for another), with its
 * logical name beside it when another guardrail of the preview has the same name (a rename).
 */
export function labels(guardrails: Map<string, GuardrailOfPreview>, changes: Map<string, GuardrailChange>) {
  return (logical: string): string => {
    const g = guardrails.get(logical);
    const name = g?.name ?? changes.get(logical)?.name ?? logical;
    const twin = [...guardrails.values()].some((o) => o.logical !== logical && o.name === name);
    return `${guardrailLabel(name, g?.isDefault ?? false)}${twin ? ` (${code(logical, 60)})` : ""}`;
  };
}

/**
 * The guardrail of the preview an `on guardrail Name (3f2b8c1e…)` status names: its id exactly,
 * or the one whose id starts with the prefix AND whose name is the status's name (a prefix alone
 * may fit several); undefined when none or several fit, never a guess.
 */
export function guardrailOn(
  on: { name?: string; id: string },
  byId: Map<string, string>,
  guardrails: Map<string, GuardrailOfPreview>,
): string | undefined {
  const exact = byId.get(on.id);
  if (exact || on.name === undefined) return exact;
  const fits = new Set(
    [...byId]
      .filter(([gid, logical]) => gid.startsWith(on.id) && guardrails.get(logical)?.name === on.name)
      .map(([, l]) => l),
  );
  return fits.size === 1 ? [...fits][0] : undefined;
}

/**
 * The verdict for an id that leaves `from` for `to` (`undefined`: no assignment, so the
 * workspace default when the stack manages it), memoised per pair.
 */
export function verdicts(guardrails: Map<string, GuardrailOfPreview>) {
  const memo = new Map<string, Verdict>();
  return (from: string | undefined, to: string | undefined): Verdict => {
    const key = JSON.stringify([from, to]);
    const known = memo.get(key);
    if (known) return known;
    if (hiddenOf(from) !== undefined || hiddenOf(to) !== undefined) {
      const v: Verdict = { direction: "unknown", gains: [], note: HIDDEN_NOTE };
      memo.set(key, v);
      return v;
    }
    const [f, t] = [
      from === undefined ? undefined : guardrails.get(from),
      to === undefined ? undefined : guardrails.get(to),
    ];
    // A guardrail named but not in the preview is not the workspace default: only "no assignment" is.
    const left = from === undefined ? defaultFor(guardrails, t) : f;
    const joined = to === undefined ? defaultFor(guardrails, f) : t;
    // A workspace default created here is written over the current one: what it was is not in the preview.
    const was = left === f ? (left?.before ?? left?.after) : left?.before;
    const will = joined?.after;
    let v: Verdict;
    if (was && will) {
      const judged: Judged[] = compareSides(was, will);
      const viaDefault = left !== f ? left : joined !== t ? joined : undefined;
      // The note is Markdown as it stands: the default's name (the service's workspace name) is neutralised here.
      v = verdictOf(judged, viaDefault && `compared with the ${guardrailLabel(viaDefault.name, true)}`);
    } else if (from === undefined)
      // It was on its workspace's default guardrail, which may be stricter than the one it joins (issue 38).
      v = { direction: "unknown", gains: [], note: left ? UNSEEN_DEFAULT_CREATED : UNSEEN_DEFAULT };
    else if (to === undefined)
      v = {
        direction: "unknown",
        gains: [],
        note: "no assignment left, and no workspace default in this stack to compare with",
      };
    else v = { direction: "unknown", gains: [], note: UNSEEN };
    memo.set(key, v);
    return v;
  };
}
