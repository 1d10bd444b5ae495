/**
 * `pulumi-guardrails/export`: an organization's live guardrails as declarative files that
 * `declareGuardrails` adopts with no change. The `guardrails-export` command is a thin CLI
 * over this entry point.
 */
export {
  exportGuardrails,
  writeExport,
  ExportConflictError,
  ExportOptionsError,
  ExportTargetError,
  type ExportOptions,
  type ExportResult,
  type ExportedFile,
  type ExportedDefaults,
} from "./export";
export { ExportSelectionError } from "./fetch";
export {
  importFileOf,
  renderImportFile,
  writeImportFile,
  type PulumiImportFile,
  type PulumiImportResource,
} from "./pulumi-import";
export { planMigration, StateMigrationError, type MigrationPlan, type Move } from "./from-state";
export { renderPythonProgram } from "./program-python";
export { renderTypeScriptProgram } from "./program-typescript";
export { renderGoProgram } from "./program-go";
export { renderYamlProgram } from "./program-yaml";
export {
  isProgramLanguage,
  PROGRAM_LANGUAGES,
  renderProgram,
  type PackageSchema,
  type ProgramLanguage,
} from "./program";
export {
  exportPoliciesProgram,
  policiesFromGuardrails,
  readPolicyMove,
  type PlannedPolicy,
  type PoliciesProgram,
  type PolicyMove,
  type PolicyMoveOptions,
} from "./to-policies";
export { renderPoliciesProgram } from "./policies-program";
export { migrateToNative, planFromStack, type MigrateOptions } from "./migrate";
/** The base of every failure above: a message for a person, said in one line. */
export { UserError, failureText } from "../core/user-error";
export { shown } from "../core/args/messages";
export { redact } from "../core/client/redaction";
export { isPolicyFile } from "../declarative/file-name";
