/**
 * What the serialized provider shims load at call time, by package name
 * (`pulumi-guardrails/internal`). Not a public API.
 */
import * as guardrailLifecycle from "./guardrail/lifecycle";
import { assignmentLifecycle } from "./assignments/lifecycle";
import { KEY_KIND, MEMBER_KIND } from "./assignments/kind";
import { withKeySource } from "./key-source";
export { configure } from "./config";
export { shimFor } from "./shim";

// Each kind keeps its method names (users' state calls them); a 401 names the key's source.
export const guardrail = withKeySource({
  check: guardrailLifecycle.check,
  diff: guardrailLifecycle.diff,
  create: guardrailLifecycle.create,
  read: guardrailLifecycle.read,
  update: guardrailLifecycle.update,
  delete: guardrailLifecycle.delete,
});

export const memberAssignment = withKeySource(assignmentLifecycle(MEMBER_KIND));
export const keyAssignment = withKeySource(assignmentLifecycle(KEY_KIND));
