/** pulumi-guardrails: the public surface. */
export * from "./client";
export { UserError } from "./user-error";
export type * from "./client/wire";
export { Guardrail, type GuardrailArgs, type BuiltinFilterArgs, type CustomFilterArgs } from "./guardrail/resource";
export {
  GuardrailMemberAssignment,
  GuardrailKeyAssignment,
  type GuardrailMemberAssignmentArgs,
  type GuardrailKeyAssignmentArgs,
} from "./assignments/resource";
export { declareGuardrails, type DeclareGuardrailsOptions, type DeclaredResources } from "./declarative/declare";
export { loadGuardrailConfigs, DeclarativeConfigError } from "./declarative/load";
export { summarizePreview, type PreviewJson } from "../tools/preview-summary/summary";
export {
  exportGuardrails,
  writeExport,
  ExportConflictError,
  ExportOptionsError,
  ExportTargetError,
  type ExportOptions,
  type ExportResult,
  type ExportedFile,
} from "../tools/export/export";
export { ExportSelectionError } from "../tools/export/read";
