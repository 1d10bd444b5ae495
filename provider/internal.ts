/**
 * What the serialized provider shims load at call time, by package name
 * (`pulumi-guardrails/internal`). Not a public API.
 */
import * as guardrailLifecycle from "./guardrail/lifecycle";
import { assignmentLifecycle } from "./assignments/lifecycle";
import { KEY_KIND, MEMBER_KIND } from "./assignments/kind";
export { configure } from "./config";
export { shimFor } from "./shim";

export const guardrail = {
  check: guardrailLifecycle.check,
  diff: guardrailLifecycle.diff,
  create: guardrailLifecycle.create,
  read: guardrailLifecycle.read,
  update: guardrailLifecycle.update,
  delete: guardrailLifecycle.remove,
};

export const memberAssignment = assignmentLifecycle(MEMBER_KIND);
export const keyAssignment = assignmentLifecycle(KEY_KIND);
