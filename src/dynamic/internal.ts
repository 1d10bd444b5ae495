/**
 * What the serialized provider shims load at call time, by package name
 * (`pulumi-guardrails/internal`). Not a public API.
 */
import { guardrailLifecycle } from "../core/guardrail/lifecycle";
import { workspaceDefaultLifecycle } from "../core/guardrail/workspace-default-lifecycle";
import { idMapFace } from "../core/policies/id-maps";
import { policyLifecycle } from "../core/policies/lifecycle";
import { workspaceWideLifecycle } from "../core/policies/workspace-wide-lifecycle";
import { COVERAGE_LISTS } from "../core/policies/workspace-wide-model";
import { assignmentLifecycle } from "../core/assignments/lifecycle";
import { KEY_KIND, MEMBER_KIND } from "../core/assignments/kind";
import { configure as configureSettings, processConfig } from "../core/settings/config";
import { afterCredentialsCheck, armCredentialsCheck } from "../core/settings/credentials-check";
import { withKeySource } from "../core/settings/key-source";
import { quietExpectedErrors } from "./expected-errors";
import { type DynamicMethods, dynamicMethods } from "./lifecycle-adapter";
import { type InternalName, POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";

/**
 * The shim's `configure` (once per serialized provider and process): the stack config to the
 * core's settings, and the key and URL checked before the first call of any resource
 * (credentials-check.ts). Returns nothing, as the shims in users' state expect.
 */
export function configure(get: (key: string) => string | undefined): void {
  configureSettings(get);
  armCredentialsCheck();
}
export { shimFor } from "./shim";

// Each kind keeps its method names (users' state calls them); the first call checks the key and
// URL (credentials-check.ts); a 401 names the key's source;
// an expected failure is said once, without a stack trace (expected-errors.ts).
// The core answers plain data; lifecycle-adapter.ts says it in the dynamic provider's terms.
// One provider per process: every kind calls with the process config's client, made at the first call.
export const guardrail = quietExpectedErrors(
  withKeySource(afterCredentialsCheck(dynamicMethods(guardrailLifecycle(processConfig)))),
);

export const memberAssignment = quietExpectedErrors(
  withKeySource(afterCredentialsCheck(dynamicMethods(assignmentLifecycle(MEMBER_KIND, processConfig)))),
);
export const keyAssignment = quietExpectedErrors(
  withKeySource(afterCredentialsCheck(dynamicMethods(assignmentLifecycle(KEY_KIND, processConfig)))),
);
export const workspaceDefaultGuardrail = quietExpectedErrors(
  withKeySource(afterCredentialsCheck(dynamicMethods(workspaceDefaultLifecycle(processConfig)))),
);
// The workspace policies (issue 40): one lifecycle, one member per kind; id lists as maps in state (id-maps.ts).
const policies = Object.fromEntries(
  POLICY_TYPE_NAMES.map((t) => [
    t,
    quietExpectedErrors(
      withKeySource(afterCredentialsCheck(dynamicMethods(idMapFace(policyLifecycle(t, processConfig))))),
    ),
  ]),
) as Record<PolicyTypeName, DynamicMethods>;
export const budgetPolicy = policies.BudgetPolicy;
export const modelAccessPolicy = policies.ModelAccessPolicy;
export const moderationPolicy = policies.ModerationPolicy;
// Its coverage lists as maps too (id-maps.ts), so a workspace joining or leaving previews by id.
export const workspaceWidePolicy = quietExpectedErrors(
  withKeySource(
    afterCredentialsCheck(
      dynamicMethods(idMapFace(workspaceWideLifecycle(processConfig), Object.keys(COVERAGE_LISTS))),
    ),
  ),
);

/**
 * Every kind's `internal` member (core/kinds.ts) is exported above: a row of the kind table
 * without one does not compile, rather than fail in users' state at `pulumi up`.
 */
export type KindMembers = Pick<typeof import("./internal"), InternalName>;
