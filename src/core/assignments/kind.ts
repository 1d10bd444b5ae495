/**
 * What differs between member and key assignment sets. Everything else is one
 * implementation; how far a hold reaches (the holder rule) is core/holders.ts, by `noun`.
 */
import { BULK_FIELD, type AssigneeKind, type GuardrailsClient } from "../client/client";

/** Which of the two set resources a lifecycle serves, and everything that differs between them. */
export interface AssignmentSetKind {
  /**
   * The key of the id map in the resource's inputs and in users' state. Stored state depends
   * on it, so it never follows the client's URL word (`wire`).
   */
  readonly stateKey: "members" | "keys";
  /** The client's word for the collection (its URL segment). */
  readonly wire: AssigneeKind;
  /** The user's arg name (`memberUserIds` / `keyHashes`). */
  readonly argName: "memberUserIds" | "keyHashes";
  /** Singular noun for messages. */
  readonly noun: "member" | "key";
  /** The resource type name. */
  readonly typeName: "GuardrailMemberAssignment" | "GuardrailKeyAssignment";
  /** Ids assigned to a guardrail, every page. */
  list(client: GuardrailsClient, guardrailId: string): AsyncIterable<string>;
  /** (assignee, guardrail) pairs across the organization, every page. */
  listAll(client: GuardrailsClient): AsyncIterable<{ id: string; guardrailId: string }>;
  /** Why the service may skip an id, for messages about ids that did not land. */
  readonly skipReason: string;
}

async function* map<T, U>(items: AsyncIterable<T>, f: (t: T) => U): AsyncIterable<U> {
  for await (const item of items) yield f(item);
}

export const MEMBER_KIND: AssignmentSetKind = {
  stateKey: "members",
  wire: "members",
  argName: "memberUserIds",
  noun: "member",
  typeName: "GuardrailMemberAssignment",
  list: (c, id) => map(c.listMemberAssignments(id), (r) => r.user_id),
  listAll: (c) => map(c.listAllMemberAssignments(), (r) => ({ id: r.user_id, guardrailId: r.guardrail_id })),
  skipReason: "not members of the organization",
};

export const KEY_KIND: AssignmentSetKind = {
  stateKey: "keys",
  wire: "keys",
  argName: "keyHashes",
  noun: "key",
  typeName: "GuardrailKeyAssignment",
  list: (c, id) => map(c.listKeyAssignments(id), (r) => r.key_hash),
  listAll: (c) => map(c.listAllKeyAssignments(), (r) => ({ id: r.key_hash, guardrailId: r.guardrail_id })),
  skipReason: "not API keys of the organization",
};

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
