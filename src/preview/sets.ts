/**
 * Member and key sets: what each set step adds and removes, removals and additions of one id
 * paired into moves, and for each id that changes guardrail a verdict: the guardrail it leaves
 * (as it was) against the one it joins (as it will be), setting by setting. An id with no
 * assignment is on its workspace's default guardrail when the stack manages it.
 */
import { FOREIGN, isForeign, parseMovesFrom, parseOnGuardrail, parseUnconfirmed } from "../core/assignments/status";
import { toIdMap } from "../core/assignments/id-map";
import type { PreviewStep } from "./input";
import type { GuardrailChange } from "./model";
import { changed, nameOf, typeOf, type GuardrailOfPreview } from "./steps";
import { isSecret } from "./values";
import { nameCode } from "../core/text/names";
import { KINDS, setKindOf, type SetStateKey } from "../core/kinds";
import { guardrailOn, labels, UNSEEN, verdicts } from "./set-verdicts";
import { guardrailOfSide, pseudoName, repointed } from "./set-sides";

/** A set's state key (its kind here), by the URN's type; `undefined` for any other resource. */
const setKeyOf = (urn: string): Kind | undefined => {
  const type = typeOf(urn);
  const row = type === "" ? undefined : KINDS[type];
  return row && "set" in row ? row.set.stateKey : undefined;
};
/** The program's list of a set's ids: the native face's inputs hold it where the dynamic face's hold the map. */
const argOf = (kind: Kind) => KINDS[setKindOf({ stateKey: kind })].set.argName;
type Kind = SetStateKey;

/** A set's ids as a map: the map itself (`{id: true | status}`), or the program's list as `{id: true}`. */
const asMap = (v: unknown): Record<string, unknown> => {
  if (Array.isArray(v)) return toIdMap(v.filter((id) => typeof id === "string"));
  return v && typeof v === "object" ? (v as Record<string, unknown>) : {};
};
const holdersOf = (m: Record<string, unknown>) => Object.keys(m).filter((id) => m[id] === true);
/** A secret set, or a list with a secret id (the native face keeps each item's own mark). */
const secretIds = (v: unknown) => isSecret(v) || (Array.isArray(v) && v.some(isSecret));

/** What the set steps re-point: each pair of guardrails (logical names) a set leaves and joins. */
export interface SetRepoints {
  repointed: Array<{ from: string; to: string; kind: Kind; exclusive: boolean }>;
  /** Each set the preview changes: the guardrail it is on afterwards, and whether it is exclusive before and after. */
  held: Array<{ guardrail: string; kind: Kind; exclusive: boolean }>;
}

/** The change of a guardrail by logical name, made when missing (a guardrail outside the preview named from `moves`). */
function ownerFinder(
  changes: Map<string, GuardrailChange>,
  newChange: (logical: string, name?: string) => GuardrailChange,
) {
  return (logical: string, moves: Record<string, unknown>): GuardrailChange => {
    const known = changes.get(logical);
    if (known) return known;
    const pseudo = pseudoName(logical, moves);
    const c = newChange(logical, pseudo ?? logical);
    if (pseudo !== undefined) c.outside = true;
    changes.set(logical, c);
    return c;
  };
}

/** Adds each set step's changes (and who holds each guardrail afterwards) to `changes`. */
export function addSetChanges(
  steps: PreviewStep[],
  changes: Map<string, GuardrailChange>,
  guardrails: Map<string, GuardrailOfPreview>,
  byId: Map<string, string>,
  newChange: (logical: string, name?: string) => GuardrailChange,
): SetRepoints {
  const removedFrom = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const addedTo = { members: new Map<string, string>(), keys: new Map<string, string>() };
  const owners: Owner[] = [];
  const out: SetRepoints = { repointed: [], held: [] };
  const ownerOf = ownerFinder(changes, newChange);
  for (const s of steps) {
    const kind = setKeyOf(s.urn);
    if (!kind) continue;
    const moved = repointed(s, byId);
    const moves = s.op === "delete" ? {} : asMap(s.newState?.inputs?.moves);
    const logical =
      moved?.[1] ??
      guardrailOfSide(s.newState, byId) ??
      guardrailOfSide(s.oldState, byId) ??
      nameOf(s.urn).replace(/-(members|keys)$/, "");
    const rawAfter = s.op === "delete" ? {} : (s.newState?.inputs?.[kind] ?? s.newState?.inputs?.[argOf(kind)]);
    const owner = ownerOf(logical, moves);
    if (s.op !== "refresh" || owner.sets[kind].holders === undefined)
      owner.sets[kind].holders = secretIds(rawAfter) ? "secret" : holdersOf(asMap(rawAfter));
    // An import adopts the set as it is on the service: nothing is added or removed there.
    if (!changed(s.op) || s.op === "import") continue;
    const exclusive = s.oldState?.inputs?.exclusive === true && s.newState?.inputs?.exclusive === true;
    out.held.push({ guardrail: logical, kind, exclusive });
    const rawBefore =
      s.oldState?.outputs?.[kind] ?? s.oldState?.outputs?.[argOf(kind)] ?? s.oldState?.inputs?.[argOf(kind)];
    // A set re-pointed to another guardrail (issue 38): every id it held leaves the old one, every id it lists joins the new one.
    const left = moved && ownerOf(moved[0], moves);
    if (moved)
      out.repointed.push({
        from: moved[0],
        to: moved[1],
        kind,
        exclusive,
      });
    if (secretIds(rawBefore) || secretIds(rawAfter)) {
      owner.sets[kind].secret = true;
      if (left) left.sets[kind].secret = true;
      continue;
    }
    const before = asMap(rawBefore);
    const after = asMap(rawAfter);
    const here = (v: unknown) => v === true || v === FOREIGN;
    // An id a failed up left unconfirmed may be here: dropping it counts as a removal, and
    // asking for it as an addition (never "put back" from a status it never had).
    const unsure = (v: unknown) => parseUnconfirmed(v) !== undefined;
    if (left) {
      const removed = Object.keys(before).filter((id) => here(before[id]) || unsure(before[id]));
      const added = Object.keys(after).filter((id) => after[id] === true);
      for (const id of added) addedTo[kind].set(id, logical);
      for (const id of removed) removedFrom[kind].set(id, left.logical);
      owners.push({ owner: left, kind, added: [], removed, moves: {} }, { owner, kind, added, removed: [], moves });
      continue;
    }
    const added = Object.keys(after).filter(
      (id) => after[id] === true && !here(before[id]) && (typeof before[id] !== "string" || unsure(before[id])),
    );
    // Exclusive -> additive releases the foreign ids, marked ones too: they stay (core write.ts).
    const newExclusive = s.newState?.inputs?.exclusive;
    const releases = s.oldState?.inputs?.exclusive === true && (newExclusive === false || newExclusive === undefined);
    const removed = Object.keys(before).filter(
      (id) => (here(before[id]) || unsure(before[id])) && after[id] !== true && !(releases && isForeign(before[id])),
    );
    for (const id of Object.keys(after))
      if (after[id] === true && typeof before[id] === "string" && before[id] !== FOREIGN && !unsure(before[id]))
        owner.sets[kind].restored.push([id, before[id] as string]);
    for (const id of added) addedTo[kind].set(id, logical);
    for (const id of removed) removedFrom[kind].set(id, logical);
    owners.push({ owner, kind, added, removed, moves });
  }
  pairUp(owners, { removedFrom, addedTo }, guardrails, byId, changes);
  return out;
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
  changes: Map<string, GuardrailChange>,
): void {
  const { removedFrom, addedTo } = where;
  const judge = verdicts(guardrails);
  const label = labels(guardrails, changes);
  for (const { owner, kind, added, removed, moves } of owners) {
    const set = owner.sets[kind];
    // Put back from where it is now: another guardrail (moved by hand), or no assignment.
    for (const [id, status] of set.restored) {
      const on = parseOnGuardrail(status);
      const from = on && guardrailOn(on, byId, guardrails);
      set.verdicts.set(
        id,
        on && !from ? { direction: "unknown", gains: [], note: UNSEEN } : judge(from, owner.logical),
      );
    }
    for (const id of added) {
      const from = removedFrom[kind].get(id);
      const taken = typeof moves[id] === "string" ? parseMovesFrom(moves[id] as string) : undefined;
      if (from && from !== owner.logical) {
        set.movedIn.push([id, label(from)]);
        set.verdicts.set(id, judge(from, owner.logical));
      } else if (taken) {
        set.taken.push([id, nameCode(taken.name ?? taken.id, 60)]);
        set.verdicts.set(id, { direction: "unknown", gains: [], note: UNSEEN });
      } else {
        set.added.push(id);
        set.verdicts.set(id, judge(undefined, owner.logical));
      }
    }
    for (const id of removed) {
      const to = addedTo[kind].get(id);
      if (to && to !== owner.logical) {
        set.movedOut.push([id, label(to)]);
        set.verdicts.set(id, judge(owner.logical, to));
      } else {
        set.removed.push(id);
        set.verdicts.set(id, judge(owner.logical, undefined));
      }
    }
  }
}
