/**
 * The preview's guardrails as the review reads them: for each guardrail (and each workspace
 * default guardrail the stack manages), its name, operation, the two sides a comparison needs
 * (as recorded, as the program will leave it) and its workspace.
 */
import { isTypeName, KINDS, type ResourceTypeName } from "../core/kinds";
import { resourceOfToken } from "../core/type-tokens";
import { lastNameOfUrn, typeOfUrn } from "../core/urn";
import type { PreviewStep } from "./input";
import type { Side } from "./judge";

/**
 * The resource's type name (after any parent types, `a$b$type`), if the token is one of ours on
 * either face (`pulumi-nodejs:dynamic/guardrails:Guardrail`, `guardrails:index:Guardrail`).
 */
export const typeOf = (urn: string): ResourceTypeName | "" => resourceOfToken(typeOfUrn(urn))?.type ?? "";
/** Whether a URN is of a kind that holds a guardrail's settings (a guardrail, a workspace's default one). */
export const holdsSettings = (urn: string): boolean => {
  const type = typeOf(urn);
  return isTypeName(type) && KINDS[type].settings;
};
/** The logical name of a step's resource (core/urn.ts: never holds `::`, which set-sides.ts relies on). */
export const nameOf = lastNameOfUrn;
/** Whether a step changes anything (refresh steps of `preview --refresh` and reads do not). */
export const changed = (op: string) => op !== "same" && op !== "read" && op !== "refresh";

/** A guardrail of the preview. */
export interface GuardrailOfPreview {
  logical: string;
  name: string;
  op: string;
  isDefault: boolean;
  /**
   * A workspace default whose delete resets every setting to no restriction (its recorded
   * `resetOnDelete`); `unknown` when that flag is secret or not a boolean (issue 38).
   */
  resets?: boolean | "unknown";
  workspace?: string | undefined;
  /** As recorded before this preview (absent for a create). */
  before?: Side | undefined;
  /** As the program leaves it (absent for a delete). */
  after?: Side | undefined;
}

const str = (v: unknown) => (typeof v === "string" && v ? v : undefined);

/** The name a reviewer knows a guardrail by: its name, or for a workspace default `default of workspace <name>`. */
function nameFor(s: PreviewStep, isDefault: boolean): string {
  const o = { ...s.oldState?.outputs, ...s.newState?.outputs };
  const i = { ...s.oldState?.inputs, ...s.newState?.inputs };
  if (isDefault)
    return `default of workspace ${str(o.workspaceName) ?? str(o.workspaceSlug) ?? str(i.workspaceId) ?? str(o.workspaceId) ?? nameOf(s.urn)}`;
  const name = s.newState?.inputs?.name ?? s.oldState?.inputs?.name ?? s.oldState?.outputs?.name;
  return typeof name === "string" ? name : typeof name === "object" && name ? "[secret]" : nameOf(s.urn);
}

/** Every guardrail of the preview by logical name, and the logical name of each guardrail id it knows. */
export function guardrailsOf(steps: PreviewStep[]): {
  all: Map<string, GuardrailOfPreview>;
  byId: Map<string, string>;
} {
  const all = new Map<string, GuardrailOfPreview>();
  const byId = new Map<string, string>();
  for (const s of steps) {
    if (!holdsSettings(s.urn)) continue;
    const isDefault = typeOf(s.urn) === "WorkspaceDefaultGuardrail";
    const logical = nameOf(s.urn);
    const ids = [s.oldState?.id, s.newState?.id, s.oldState?.outputs?.guardrailId, s.newState?.outputs?.guardrailId];
    for (const id of ids) if (typeof id === "string" && id) byId.set(id, logical);
    // `preview --refresh` adds refresh steps beside the real ones; those never win.
    if (!changed(s.op) && all.has(logical)) continue;
    const op = changed(s.op) ? s.op : "same";
    const before =
      s.op === "create" || !s.oldState ? undefined : { outputs: s.oldState.outputs, inputs: s.oldState.inputs ?? {} };
    const after =
      s.op === "delete"
        ? undefined
        : s.newState
          ? { inputs: keptName(isDefault, s.newState.inputs ?? {}, s.oldState?.outputs) }
          : before && { inputs: before.inputs };
    // The recorded id first: a default's `workspaceId` input may be the workspace's slug.
    const workspace =
      str(s.oldState?.outputs?.workspaceId) ??
      str(s.oldState?.outputs?.defaultWorkspaceId) ??
      str(s.newState?.inputs?.workspaceId) ??
      str(s.oldState?.inputs?.workspaceId);
    const resets = isDefault ? resetsOf(s.oldState) : false;
    all.set(logical, { logical, name: nameFor(s, isDefault), op, isDefault, resets, workspace, before, after });
  }
  return { all, byId };
}

/** A default's recorded `resetOnDelete`: absent is false (its default); a secret or any other value cannot be read. */
function resetsOf(st: PreviewStep["oldState"]): boolean | "unknown" {
  const v = st?.outputs?.resetOnDelete ?? st?.inputs?.resetOnDelete;
  return v === undefined || v === null || v === false ? false : v === true ? true : "unknown";
}

/**
 * A default guardrail's inputs with the recorded name when the program sets none: an omitted
 * `name` leaves the service's name standing (core/guardrail/workspace-default-lifecycle.ts diffs
 * it so), which is no change.
 */
function keptName(isDefault: boolean, inputs: Record<string, unknown>, outputs: Record<string, unknown> | undefined) {
  return isDefault && inputs.name === undefined && outputs?.name !== undefined
    ? { ...inputs, name: outputs.name }
    : inputs;
}

/** The default guardrail that holds the members and keys of `g`'s workspace that have no assignment, when the stack manages it. */
export function defaultFor(
  all: Map<string, GuardrailOfPreview>,
  g: GuardrailOfPreview | undefined,
): GuardrailOfPreview | undefined {
  const defaults = [...all.values()].filter((d) => d.isDefault && d !== g && d.op !== "delete");
  const fits = defaults.filter((d) => !g?.workspace || !d.workspace || d.workspace === g.workspace);
  return fits.length === 1 ? fits[0] : undefined;
}
