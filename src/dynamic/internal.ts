/**
 * What the serialized provider shims load at call time, by package name
 * (`pulumi-guardrails/internal`). Not a public API.
 */
import * as guardrailLifecycle from "../core/guardrail/lifecycle";
import { assignmentLifecycle } from "../core/assignments/lifecycle";
import { KEY_KIND, MEMBER_KIND } from "../core/assignments/kind";
import { withKeySource } from "../core/settings/key-source";
import { quietExpectedErrors } from "./expected-errors";
export { configure } from "../core/settings/config";
export { shimFor } from "./shim";

// Each kind keeps its method names (users' state calls them); a 401 names the key's source;
// an expected failure is said once, without a stack trace (expected-errors.ts).
export const guardrail = quietExpectedErrors(withKeySource({
  check: guardrailLifecycle.check,
  diff: guardrailLifecycle.diff,
  create: guardrailLifecycle.create,
  read: guardrailLifecycle.read,
  update: guardrailLifecycle.update,
  delete: guardrailLifecycle.delete,
}));

export const memberAssignment = quietExpectedErrors(withKeySource(assignmentLifecycle(MEMBER_KIND)));
export const keyAssignment = quietExpectedErrors(withKeySource(assignmentLifecycle(KEY_KIND)));
