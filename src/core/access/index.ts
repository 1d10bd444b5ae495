/**
 * Effective access (issue 41): what a member or an API key can use after every layer applies.
 * Plain data in, plain data out; no calls. The lookups, the `guardrails-access` command, the PR
 * summary and the policy-pack rule read the facts their own way and come here for the answer.
 */
import { combine } from "./combine";
import { layersOf } from "./layers";
import type { AccessFacts, EffectiveAccess } from "./types";

export { allowList, combine, denyList, modelResolver } from "./combine";
export { type AccessQuery, explain, type Reason, type Verdict } from "./explain";
export { actionRank } from "./filters";
export { layersOf, setsKind } from "./layers";
export * from "./types";
export { widenings } from "./widenings";
export {
  type Planned,
  type PlannedOptions,
  type PlannedResource,
  type PlannedSubject,
  plannedAccess,
  subjectKey,
} from "./planned";

/** The effective access of the subject of `facts`: the layers that apply, combined. */
export function effectiveAccess(facts: AccessFacts): EffectiveAccess {
  return combine(facts, layersOf(facts));
}
