/**
 * What the serialized provider shims load at call time, by package name
 * (`pulumi-guardrails/internal`). Not a public API.
 */
import * as guardrailLifecycle from "../core/guardrail/lifecycle";
import * as workspaceDefaultLifecycle from "../core/guardrail/workspace-default-lifecycle";
import { assignmentLifecycle } from "../core/assignments/lifecycle";
import { KEY_KIND, MEMBER_KIND } from "../core/assignments/kind";
import { withKeySource } from "../core/settings/key-source";
import { quietExpectedErrors } from "./expected-errors";
import { dynamicMethods } from "./lifecycle-adapter";
export { configure } from "../core/settings/config";
export { shimFor } from "./shim";

// Each kind keeps its method names (users' state calls them); a 401 names the key's source;
// an expected failure is said once, without a stack trace (expected-errors.ts).
// The core answers plain data; lifecycle-adapter.ts says it in the dynamic provider's terms.
export const guardrail = quietExpectedErrors(
  withKeySource(
    dynamicMethods({
      check: guardrailLifecycle.check,
      diff: guardrailLifecycle.diff,
      create: guardrailLifecycle.create,
      read: guardrailLifecycle.read,
      update: guardrailLifecycle.update,
      delete: guardrailLifecycle.delete,
    }),
  ),
);

export const memberAssignment = quietExpectedErrors(withKeySource(dynamicMethods(assignmentLifecycle(MEMBER_KIND))));
export const keyAssignment = quietExpectedErrors(withKeySource(dynamicMethods(assignmentLifecycle(KEY_KIND))));
export const workspaceDefaultGuardrail = quietExpectedErrors(withKeySource(dynamicMethods(workspaceDefaultLifecycle)));
