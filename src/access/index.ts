/**
 * `pulumi-guardrails/access`: effective access as a command answers it (issue 41). `explain`
 * one member or key, `who` over every member and key of a workspace, from the live service or
 * a stack's state; the answers are plain data (`--json`) and a renderer for people. The
 * `guardrails-access` command is a thin CLI over this entry point.
 */
export type {
  ExplainAnswer,
  SourceKind,
  SubjectVerdict,
  WhoAnswer,
  WhoRow,
} from "./answers";
export { AccessUsageError, checkOnce, checkQuery, checkSubject, checkWorkspace, type SubjectFlags } from "./args";
export { connectionFromEnv } from "./connection";
export { renderExplain, renderJson, renderWho } from "./render";
export { explainSubject, whoCanReach } from "./run";
export { type AccessSource, serviceSource } from "./source";
export { readState, type StateFrom, stateSource } from "./state-source";
export { failureText, UserError } from "../core/user-error";
export { redact } from "../core/client/redaction";
export { shown } from "../core/args/messages";
