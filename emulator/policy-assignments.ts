/**
 * One subject's policy assignment per kind (docs/api-contract.md rule 25): its state (direct
 * policies, the workspace defaults it inherits, whether it opted out) and the change with
 * `expected_assignment`, whose mismatch is a 409 that changes nothing.
 */
import { HttpError, notFound } from "./http-error";
import type { Policies } from "./policies";
import type { PolicyType, StoredPolicy } from "./policy-records";
import { keyProblem, memberProblem } from "./policy-scope";
import type { ChangeAssignmentBody } from "./policy-validation";

/** A member (`user_...`) or an API key (its hash). */
export interface Subject {
  kind: "member" | "key";
  id: string;
}

export interface AssignmentState {
  opted_out: boolean;
  policy_ids: string[];
  workspace_default_policy_ids: string[];
}

/** The list of `p` that assigns the subject directly, and the one that opts it out. */
export const directList = (p: StoredPolicy, s: Subject) => (s.kind === "member" ? p.member_ids : p.api_key_hashes);
export const optOutList = (p: StoredPolicy, s: Subject) =>
  s.kind === "member" ? p.opted_out_member_ids : p.opted_out_api_key_hashes;

/**
 * Rule 25's state. A subject with a policy of the kind assigned directly inherits no default (it
 * is "overridden", rule 27); one on the default's opt-out list inherits nothing either.
 */
export function assignmentState(policies: Policies, kind: PolicyType, ws: string, s: Subject): AssignmentState {
  const all = policies.of(kind, ws);
  const direct = all.filter((p) => directList(p, s).includes(s.id)).map((p) => p.id);
  const defaults = all.filter((p) => p.is_workspace_default);
  const optedOut = defaults.some((p) => optOutList(p, s).includes(s.id));
  const inherited = direct.length > 0 ? [] : defaults.filter((p) => !optOutList(p, s).includes(s.id)).map((p) => p.id);
  return { opted_out: optedOut, policy_ids: direct, workspace_default_policy_ids: inherited };
}

/** A subject named in a path: it must exist and belong to the workspace, else 404 (rule 33's choice). */
export function requireSubject(policies: Policies, ws: string, s: Subject): void {
  const problem = s.kind === "member" ? memberProblem(policies.store, ws, s.id) : keyProblem(policies.store, ws, s.id);
  if (problem) throw notFound(problem);
}

const sameSet = (a: string[], b: string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
};

function matches(expected: AssignmentState, actual: AssignmentState): boolean {
  return (
    expected.opted_out === actual.opted_out &&
    sameSet(expected.policy_ids, actual.policy_ids) &&
    sameSet(expected.workspace_default_policy_ids, actual.workspace_default_policy_ids)
  );
}

/**
 * Rule 25: assigns (`assigned: true`) or removes one policy for the subject, only while the stored
 * state is `expected_assignment` (compared as sets); else 409 with the stored state in `metadata`,
 * nothing changed. Answers whether anything changed (a change already in force: false).
 */
export function changeAssignment(policies: Policies, ws: string, s: Subject, body: ChangeAssignmentBody): boolean {
  const p = policies.find(body.policy_type, ws, body.policy_id);
  requireSubject(policies, ws, s);
  const current = assignmentState(policies, body.policy_type, ws, s);
  if (!matches(body.expected_assignment, current))
    throw new HttpError(
      409,
      `expected_assignment no longer matches the stored ${body.policy_type} assignment of ${s.kind} ${s.id}: it is now ${JSON.stringify(current)}; read it again and retry`,
      { current_assignment: current },
    );
  const list = directList(p, s);
  const has = list.includes(s.id);
  if (has === body.assigned) return false;
  const next = body.assigned ? [...list, s.id] : list.filter((x) => x !== s.id);
  if (s.kind === "member") p.member_ids = next;
  else p.api_key_hashes = next;
  policies.edited(p);
  policies.store.save();
  return true;
}
