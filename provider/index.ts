/** pulumi-guardrails: the public surface. */
export * from "./client";
export type * from "./schema/wire";
export { Guardrail, type GuardrailArgs, type BuiltinFilterArgs, type CustomFilterArgs } from "./guardrail/resource";
export {
  GuardrailMemberAssignment,
  GuardrailKeyAssignment,
  type GuardrailMemberAssignmentArgs,
  type GuardrailKeyAssignmentArgs,
} from "./assignments/resource";
export { declareGuardrails, type DeclareGuardrailsOptions, type DeclaredResources } from "./declarative/declare";
export { loadGuardrailConfigs, DeclarativeConfigError } from "./declarative/load";
export { summarizePreview, type PreviewJson } from "./preview/summary";
export {
  exportGuardrails,
  writeExport,
  ExportConflictError,
  ExportOptionsError,
  type ExportOptions,
  type ExportResult,
  type ExportedFile,
} from "./export/export";
export { ExportSelectionError } from "./export/read";
