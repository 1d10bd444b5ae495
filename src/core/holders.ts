/**
 * The holder rule, in one place (rules 5 and 6 of docs/api-contract.md): a member holds at
 * most one guardrail per workspace, a key at most one guardrail at all. Assigning either to a
 * guardrail moves it off the one it competes with. Three callers ask "which ids are held twice
 * where the rule allows once", each at its own time: the program while it runs (dynamic
 * face), the declarative loader when it reads the files, the export when it reads the
 * service. The lifecycle asks the narrower "does this other guardrail compete with ours"
 * (`competes`). Each says so in one message style (`heldTwiceMessage`).
 */
import type { SetNoun } from "./kinds";

/** What is assigned: a member (by user id) or an API key (by hash); a set kind's noun (kinds.ts). */
export type HolderNoun = SetNoun;

/** How far one hold reaches: a member's, its guardrail's workspace; a key's, the whole organization. */
export const HOLD_SCOPE = { member: "workspace", key: "organization" } as const satisfies Record<HolderNoun, string>;

/** The rule in words, for messages. */
export const HOLDER_RULE: Record<HolderNoun, string> = {
  member: "a member holds one guardrail per workspace",
  key: "a key holds one guardrail at all",
};

/**
 * The comparable scope of a hold. Workspace ids are UUIDs, equal in any case; no workspace
 * (undefined or null) is the default workspace. Keys share one scope.
 */
function scopeOf(noun: HolderNoun, workspace: string | null | undefined): string {
  return HOLD_SCOPE[noun] === "organization" ? "*" : `ws:${(workspace ?? "").toLowerCase()}`;
}

/** Whether holds on guardrails of these two workspaces compete (for a key, always). */
export function competes(
  noun: HolderNoun,
  ours: string | null | undefined,
  theirs: string | null | undefined,
): boolean {
  return scopeOf(noun, ours) === scopeOf(noun, theirs);
}

/** A workspace not known yet (a policy at preview sees an unknown where the program gave an output). */
export const UNKNOWN_WORKSPACE = Symbol("unknown workspace");

/**
 * Whether holds on guardrails of these two workspaces may compete, when not everything is
 * known (a policy pack reading a preview): an unknown workspace may be any, and so may no
 * workspace (the default one, whose id the stack does not show) against an explicit one.
 */
export function mayCompete(
  noun: HolderNoun,
  ours: string | null | undefined | typeof UNKNOWN_WORKSPACE,
  theirs: string | null | undefined | typeof UNKNOWN_WORKSPACE,
): boolean {
  if (ours === UNKNOWN_WORKSPACE || theirs === UNKNOWN_WORKSPACE) return true;
  if (HOLD_SCOPE[noun] === "workspace" && (ours == null) !== (theirs == null)) return true;
  return competes(noun, ours, theirs);
}

/** One assignment, as a caller knows it. */
export interface Holder {
  noun: HolderNoun;
  /** The member's user id or the key's hash. */
  id: string;
  /** The guardrail, in whatever form the caller compares them (an id, a name). */
  guardrail: string;
  /** The guardrail's workspace; undefined or null is the default one. Ignored for keys. */
  workspace?: string | null | undefined;
}

/** An id held twice: the later holder, and the first one on another guardrail of its scope. */
export interface HeldTwice<H extends Holder> {
  first: H;
  again: H;
}

/**
 * Holders added one at a time (the program registers sets as it runs), each checked against
 * those added before it: `add` answers the first earlier holder of the same id, in the same
 * scope, on another guardrail. The same id on the same guardrail twice is no conflict.
 */
export class HolderTable<H extends Holder> {
  private readonly byId = new Map<string, H[]>();

  add(holder: H): H | undefined {
    const key = `${holder.noun}\u0000${scopeOf(holder.noun, holder.workspace)}\u0000${holder.id}`;
    const earlier = this.byId.get(key) ?? [];
    const first = earlier.find((h) => h.guardrail !== holder.guardrail);
    if (!earlier.some((h) => h.guardrail === holder.guardrail)) this.byId.set(key, [...earlier, holder]);
    return first;
  }
}

/** Every hold the rule forbids among `holders`, in their order: each later holder with the first one it competes with. */
export function heldTwice<H extends Holder>(holders: Iterable<H>): HeldTwice<H>[] {
  const table = new HolderTable<H>();
  const out: HeldTwice<H>[] = [];
  for (const again of holders) {
    const first = table.add(again);
    if (first) out.push({ first, again });
  }
  return out;
}

/** What happens when a program or files hold an id twice: each `up` moves it to the other guardrail. */
export const MOVES_EVERY_UP = "it would move back and forth between them on every up";

/**
 * The one message for an id held twice: `member "user_bob" is assigned to two guardrails of
 * workspace W: "eng" (...) and "ops" (...); a member holds one guardrail per workspace, so ...`.
 * `id` and the guardrails come already quoted (a caller may hide a secret id); `workspace`
 * names a member's scope for the reader, such as `workspace 3f2b…` or `the default workspace`.
 */
export function heldTwiceMessage(
  noun: HolderNoun,
  id: string,
  first: string,
  again: string,
  workspace: string | undefined,
  consequence: string,
): string {
  const scope = noun === "member" && workspace ? ` of ${workspace}` : "";
  return `${noun} ${id} is assigned to two guardrails${scope}: ${first} and ${again}; ${HOLDER_RULE[noun]}, so ${consequence}`;
}
