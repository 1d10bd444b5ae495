/**
 * Member and key sets: what each set step adds and removes, removals and additions of one id
 * paired into moves, and for each id that changes guardrail a verdict: the guardrail it leaves
 * (as it was) against the one it joins (as it will be), setting by setting. An id with no
 * assignment is on its workspace's default guardrail when the stack manages it.
 */
import { FOREIGN, parseMovesFrom, parseOnGuardrail, UNCONFIRMED } from "../core/assignments/status";
import type { Judged } from "../core/fields/loosening";
import type { PreviewStep } from "./input";
import { compareSides } from "./judge";
import { verdictOf, type GuardrailChange, type Verdict } from "./model";
import { changed, defaultFor, nameOf, typeOf, type GuardrailOfPreview } from "./steps";
import { isSecret } from "./values";
import { text } from "../core/text/markdown";

const SET_KINDS = { GuardrailMemberAssignment: "members", GuardrailKeyAssignment: "keys" } as const;
/** The program's list of a set's ids: the native face's inputs hold it where the dynamic face's hold the map. */
const SET_ARGS = { members: "memberUserIds", keys: "keyHashes" } as const;
type Kind = "members" | "keys";

/** A set's ids as a map: the map itself (`{id: true | status}`), or the program's list as `{id: true}`. */
const asMap = (v: unknown): Record<string, unknown> => {
  if (Array.isArray(v)) return Object.fromEntries(v.filter((id) => typeof id === "string").map((id) => [id, true]));
  return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
};
const holdersOf = (m: Record<string, unknown>) => Object.keys(m).filter((id) => m[id] === true);
/** A secret set, or a list with a secret id (the native face keeps each item's own mark). */
const secretIds = (v: unknown) => isSecret(v) || (Array.isArray(v) && v.some(isSecret));

/** Adds each set step's changes (and who holds each guardrail afterwards) to `changes`. */
export function addSetChanges(
  steps: PreviewStep[],
  changes: Map<string, GuardrailChange>,
  guardrails: Map<string, GuardrailOfPreview>,
  byId: Map<string, string>,
  newChange: (logical: string) => GuardrailChange,
): void {
  const removedFrom = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const addedTo = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const owners: Owner[] = [];
  for (const s of steps) {
    const kind = SET_KINDS[typeOf(s.urn) as keyof typeof SET_KINDS];
    if (!kind) continue;
    const gid = s.newState?.inputs?.guardrailId ?? s.oldState?.inputs?.guardrailId;
    const logical = (typeof gid === "string" && byId.get(gid)) || nameOf(s.urn).replace(/-(members|keys)$/, "");
    const rawAfter = s.op === "delete" ? {} : (s.newState?.inputs?.[kind] ?? s.newState?.inputs?.[SET_ARGS[kind]]);
    const owner = changes.get(logical) ?? newChange(logical);
    changes.set(logical, owner);
    if (s.op !== "refresh" || owner.sets[kind].holders === undefined)
      owner.sets[kind].holders = secretIds(rawAfter) ? "secret" : holdersOf(asMap(rawAfter));
    // An import adopts the set as it is on the service: nothing is added or removed there.
    if (!changed(s.op) || s.op === "import") continue;
    const rawBefore =
      s.oldState?.outputs?.[kind] ?? s.oldState?.outputs?.[SET_ARGS[kind]] ?? s.oldState?.inputs?.[SET_ARGS[kind]];
    if (secretIds(rawBefore) || secretIds(rawAfter)) {
      owner.sets[kind].secret = true;
      continue;
    }
    const before = asMap(rawBefore);
    const after = asMap(rawAfter);
    const here = (v: unknown) => v === true || v === FOREIGN;
    // An id a failed up left unconfirmed may be here: dropping it counts as a removal, and
    // asking for it as an addition (never "put back" from a status it never had).
    const unsure = (v: unknown) => v === UNCONFIRMED;
    const added = Object.keys(after).filter(
      (id) => after[id] === true && !here(before[id]) && (typeof before[id] !== "string" || unsure(before[id])),
    );
    const removed = Object.keys(before).filter((id) => (here(before[id]) || unsure(before[id])) && after[id] !== true);
    for (const id of Object.keys(after))
      if (after[id] === true && typeof before[id] === "string" && before[id] !== FOREIGN && !unsure(before[id]))
        owner.sets[kind].restored.push([id, before[id] as string]);
    for (const id of added) addedTo[kind].set(id, logical);
    for (const id of removed) removedFrom[kind].set(id, logical);
    owners.push({ owner, kind, added, removed, moves: s.op === "delete" ? {} : asMap(s.newState?.inputs?.moves) });
  }
  pairUp(owners, { removedFrom, addedTo }, guardrails, byId);
}

/** One set step's additions and removals, before they are paired into moves. */
interface Owner {
  owner: GuardrailChange;
  kind: Kind;
  added: string[];
  removed: string[];
  moves: Record<string, unknown>;
}

/** Pairs removals and additions of one id into moves, and judges each id that changes guardrail. */
function pairUp(
  owners: Owner[],
  where: Record<"removedFrom" | "addedTo", Record<Kind, Map<string, string>>>,
  guardrails: Map<string, GuardrailOfPreview>,
  byId: Map<string, string>,
): void {
  const { removedFrom, addedTo } = where;
  const judge = verdicts(guardrails);
  for (const { owner, kind, added, removed, moves } of owners) {
    const set = owner.sets[kind];
    // Put back from where it is now: another guardrail (moved by hand), or no assignment.
    for (const [id, status] of set.restored) {
      const on = parseOnGuardrail(status);
      const from = on && guardrailOn(on, byId, guardrails);
      set.verdicts.set(
        id,
        on && !from
          ? { direction: "unknown", gains: [], note: "its settings there are not in this preview" }
          : judge(from, owner.logical),
      );
    }
    for (const id of added) {
      const from = removedFrom[kind].get(id);
      const taken = typeof moves[id] === "string" ? parseMovesFrom(moves[id] as string) : undefined;
      if (from && from !== owner.logical) {
        set.movedIn.push([id, guardrails.get(from)?.name ?? from]);
        set.verdicts.set(id, judge(from, owner.logical));
      } else if (taken) {
        set.taken.push([id, taken.name ?? taken.id]);
        set.verdicts.set(id, { direction: "unknown", gains: [], note: "its settings there are not in this preview" });
      } else {
        set.added.push(id);
        set.verdicts.set(id, judge(undefined, owner.logical));
      }
    }
    for (const id of removed) {
      const to = addedTo[kind].get(id);
      if (to && to !== owner.logical) {
        set.movedOut.push([id, guardrails.get(to)?.name ?? to]);
        set.verdicts.set(id, judge(owner.logical, to));
      } else {
        set.removed.push(id);
        set.verdicts.set(id, judge(owner.logical, undefined));
      }
    }
  }
}

/**
 * The guardrail of the preview an `on guardrail Name (3f2b8c1e…)` status names: its id exactly,
 * or the one whose id starts with the prefix AND whose name is the status's name (a prefix alone
 * may fit several); undefined when none or several fit, never a guess.
 */
function guardrailOn(
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
function verdicts(guardrails: Map<string, GuardrailOfPreview>) {
  const memo = new Map<string, Verdict>();
  return (from: string | undefined, to: string | undefined): Verdict => {
    const key = JSON.stringify([from, to]);
    const known = memo.get(key);
    if (known) return known;
    const [f, t] = [
      from === undefined ? undefined : guardrails.get(from),
      to === undefined ? undefined : guardrails.get(to),
    ];
    const left = f ?? defaultFor(guardrails, t);
    const joined = t ?? defaultFor(guardrails, f);
    const was = left?.before ?? left?.after;
    const will = joined?.after;
    let v: Verdict;
    if (was && will) {
      const judged: Judged[] = compareSides(was, will);
      const viaDefault = left !== f ? left : joined !== t ? joined : undefined;
      // The note is Markdown as it stands: the default's name (the service's workspace name) is neutralised here.
      v = verdictOf(judged, viaDefault && `compared with the ${text(viaDefault.name)}`);
    } else if (from === undefined)
      v = {
        direction: "neutral",
        gains: [],
        note: "had no assignment; no workspace default in this stack to compare with",
      };
    else if (to === undefined)
      v = {
        direction: "unknown",
        gains: [],
        note: "no assignment left, and no workspace default in this stack to compare with",
      };
    else v = { direction: "unknown", gains: [], note: "a guardrail's settings are not in this preview" };
    memo.set(key, v);
    return v;
  };
}
