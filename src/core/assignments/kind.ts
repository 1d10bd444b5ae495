/**
 * What differs between member and key assignment sets. Everything else is one
 * implementation; how far a hold reaches (the holder rule) is core/holders.ts, by `noun`.
 */
import { BULK_FIELD, type AssigneeKind, type GuardrailsClient } from "../client/client";
import { KINDS, SET_TYPE_NAMES, type SetOf, type SetTypeName } from "../kinds";

/**
 * Which of the two set resources a lifecycle serves, and everything that differs between them:
 * its names (the kind table's `set` row, kinds.ts: state key, arg name, noun, wire word, skip
 * reason) and how the client lists it (the organization's listing is client/org-assignments.ts,
 * by `wire`).
 */
export interface AssignmentSetKind extends Omit<SetOf, "wire"> {
  /** The client's word for the collection (its URL segment). */
  readonly wire: AssigneeKind;
  /** The resource type name. */
  readonly typeName: SetTypeName;
  /** Ids assigned to a guardrail, every page. */
  list(client: GuardrailsClient, guardrailId: string): AsyncIterable<string>;
}

async function* map<T, U>(items: AsyncIterable<T>, f: (t: T) => U): AsyncIterable<U> {
  for await (const item of items) yield f(item);
}

/** How the client lists each set kind. */
const LISTING: Record<SetTypeName, Pick<AssignmentSetKind, "list">> = {
  GuardrailMemberAssignment: {
    list: (c, id) => map(c.listMemberAssignments(id), (r) => r.user_id),
  },
  GuardrailKeyAssignment: {
    list: (c, id) => map(c.listKeyAssignments(id), (r) => r.key_hash),
  },
};

/** Each set kind: its row of the kind table and its listing. */
export const SET_KINDS = Object.fromEntries(
  SET_TYPE_NAMES.map((t): [SetTypeName, AssignmentSetKind] => [t, { ...KINDS[t].set, typeName: t, ...LISTING[t] }]),
) as Record<SetTypeName, AssignmentSetKind>;

export const MEMBER_KIND: AssignmentSetKind = SET_KINDS.GuardrailMemberAssignment;
export const KEY_KIND: AssignmentSetKind = SET_KINDS.GuardrailKeyAssignment;

/**
 * A set's name from a layer below, in the program's words (`memberUserIds`): the state key
 * leading a property path (`members["x"]`, frozen by users' state) and the wire field in the
 * service's messages (`member_user_ids: at most 500 items`). Past the state key a path names
 * an id, so for a secret set the path stops at the arg.
 */
export function inProgramNames(kind: AssignmentSetKind, text: string, secret = false): string {
  const statePath = new RegExp(`^${kind.stateKey}(?=$|[.[])`);
  if (secret && statePath.test(text)) return kind.argName;
  return text.replace(statePath, kind.argName).replace(new RegExp(`\\b${BULK_FIELD[kind.wire]}\\b`, "g"), kind.argName);
}
