/**
 * `pulumi-guardrails/preview`: Markdown for pull requests from `pulumi preview --json`: the
 * change summary, the drift report and the policy section. The `guardrails-preview-summary`
 * and `guardrails-ci` commands are thin CLIs over this entry point.
 */
export {
  summarizePreview,
  summarize,
  type PreviewJson,
  type PreviewStep,
  type Summary,
  type SummaryOptions,
} from "./summary";
export { summarizeDrift, hasDrift, driftSteps, DriftUnknownError, type DriftPreviewJson } from "./drift";
export {
  MAX_EVENT_LOG_BYTES,
  policySection,
  readPolicyEvents,
  type PolicyEvents,
  type PolicyViolation,
} from "./policy-events";
export { code, cell, text, visible } from "../core/text/markdown";
export { hasControl } from "../core/text/controls";
/** The base of `DriftUnknownError`: a message for a person, said in one line. */
export { UserError, failureText } from "../core/user-error";
