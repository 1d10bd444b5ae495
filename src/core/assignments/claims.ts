/**
 * What the sets of one deployment claim, checked before any call so a preview names a
 * conflict, on either face: the dynamic face while the program runs (src/dynamic/claims.ts),
 * the native face in its provider, which sees every resource's `check` of one deployment
 * (src/native/set-claims.ts).
 * - An exclusive set owns its guardrail's whole member (or key) set: beside another set of its
 *   kind on that guardrail, each `up` would undo the other, so the later one is refused,
 *   naming both (`SetClaims`).
 * - An id the holder rule allows once (core/holders.ts) listed by sets on two guardrails moves
 *   back and forth on every `up`: a warning names both (`setHeldTwiceMessage`).
 */
import { heldTwiceMessage, MOVES_EVERY_UP, type HolderNoun } from "../holders";
import { setKindOf } from "../kinds";

/** A set's claim on a guardrail: who it is (one claim each), its name in messages, its mode. */
export interface SetClaim {
  /** The identity a re-check of the same set repeats (its name, or its URN). */
  who: string;
  name: string;
  exclusive: boolean;
}

/**
 * A guardrail as claims compare it (`key`, ids in lower case) and as messages name it (`shown`);
 * `secret` when the set's copy of the id is a secret: no message then names it.
 */
export interface ClaimTarget {
  key: string;
  shown: string;
  secret?: boolean;
}

/** A guardrail whose id a set made secret, as every message names it. */
export const SECRET_GUARDRAIL = "guardrail [secret]";

/** The refusal of two sets of one kind on one guardrail when either is exclusive, naming both. */
export function sharedGuardrailMessage(noun: HolderNoun, set: SetClaim, prior: SetClaim, shown: string): string {
  const type = setKindOf({ noun });
  const owner = prior.exclusive ? `exclusive ${type} "${prior.name}"` : `${type} "${prior.name}"`;
  const mine = set.exclusive ? `exclusive ${type} "${set.name}"` : `${type} "${set.name}"`;
  return `${mine} and ${owner} both manage the ${noun}s of ${shown}; an exclusive set owns the guardrail's whole ${noun} set, so each up would remove the other's ${noun}s. Merge them into one set, or make both additive (exclusive: false).`;
}

/**
 * The sets that manage each guardrail. `claim` records a set's claim, replacing its own
 * earlier one, unless it conflicts with another set's: then it answers the refusal and
 * records nothing. The refusal names the guardrail `[secret]` when any set on it made its
 * id a secret: every copy of a secret is one, the plain copy of another set included.
 */
export class SetClaims {
  private readonly byTarget = new Map<string, Array<SetClaim & { secret: boolean }>>();

  claim(noun: HolderNoun, target: ClaimTarget, set: SetClaim): string | undefined {
    const key = `${noun}:${target.key}`;
    const sets = (this.byTarget.get(key) ?? []).filter((m) => m.who !== set.who);
    const prior = sets.find((m) => m.exclusive || set.exclusive);
    const secret = target.secret === true;
    if (prior) {
      const hidden = secret || sets.some((m) => m.secret);
      return sharedGuardrailMessage(noun, set, prior, hidden ? SECRET_GUARDRAIL : target.shown);
    }
    this.byTarget.set(key, [...sets, { ...set, secret }]);
    return undefined;
  }
}

/** One set's hold on an id, as a message names it: its guardrail (already in words) and the set's name. */
export interface SetHold {
  guardrail: string;
  set: string;
}

/**
 * The warning for an id two sets hold on competing guardrails: `member "user_bob" is assigned
 * to two guardrails of the same workspace: "eng" (GuardrailMemberAssignment "a") and ...`.
 * `id` comes quoted, or as `[secret]`; `guardrail` as the caller names it (quoted or not, or
 * `SECRET_GUARDRAIL`).
 */
export function setHeldTwiceMessage(noun: HolderNoun, id: string, first: SetHold, again: SetHold): string {
  const type = setKindOf({ noun });
  return heldTwiceMessage(
    noun,
    id,
    `${first.guardrail} (${type} "${first.set}")`,
    `${again.guardrail} (${type} "${again.set}")`,
    "the same workspace",
    MOVES_EVERY_UP,
  );
}
