/**
 * A workspace default guardrail's state: the Guardrail's outputs (model.ts, from the field
 * table) for its settings, plus the workspace it belongs to. An unconfigured default (never
 * written: docs/api-contract.md rule 19) is present, with every setting at what omission means
 * (no restriction) and no name. The conversions to the Guardrail's shapes let diff, the PATCH
 * bodies and refresh reuse the Guardrail's own pieces. Pure: no client.
 */
import type { WireGuardrail, WireWorkspace } from "../client/wire";
import { asGuardrailInputs, type WorkspaceDefaultInputs } from "./workspace-default-args";
import { importedInputs, outputsFromWire, refreshedInputs, type GuardrailOutputs } from "./model";

/** What the lifecycle reads of a workspace record (rule 17; the client's `WireWorkspace` holds more). */
export type WorkspaceFacts = Pick<WireWorkspace, "id" | "name" | "slug" | "default_guardrail_id">;

/** What Pulumi stores for a workspace's default guardrail. */
export type WorkspaceDefaultOutputs = Omit<
  GuardrailOutputs,
  | "args"
  | "name"
  | "workspaceId"
  | "createdAt"
  | "defaultWorkspaceId"
  | "modelAliases"
  | "unsyncedPolicies"
  | "mappedPolicyIds"
> & {
  /** The guardrail's name; null until something writes it (the service then names it `Workspace <id> Default`). */
  name: string | null;
  /** The workspace's id (a UUID), also the resource's id. */
  workspaceId: string;
  /** The default guardrail's id (`default_guardrail_id`). */
  guardrailId: string;
  /** The workspace's name and slug as the service last answered them (null if it sent none). */
  workspaceName: string | null;
  workspaceSlug: string | null;
  /** null until something writes it. */
  createdAt: string | null;
  /** Whether a delete resets every setting to no restriction (false: the settings stay in force). */
  resetOnDelete: boolean;
  /** The program's args as last applied (`workspaceId` as written: an id or a slug). */
  args: WorkspaceDefaultInputs | null;
};

/** The record a default guardrail that nothing wrote stands for: no name, no restriction. */
function unconfigured(ws: WorkspaceFacts): WireGuardrail {
  return {
    id: ws.default_guardrail_id,
    name: null as unknown as string,
    workspace_id: ws.id,
    include_byok_in_budgets: false,
    created_at: null as unknown as string,
    updated_at: null,
  } as WireGuardrail;
}

/** The recorded outputs in the Guardrail's shape, for its diff and refresh pieces. */
export function asGuardrailOutputs(outs: WorkspaceDefaultOutputs): GuardrailOutputs {
  const args = outs.args ? asGuardrailInputs(outs.args, undefined) : null;
  return { ...outs, args } as unknown as GuardrailOutputs;
}

/**
 * Outputs from the workspace and its default guardrail's record (`undefined`: not written
 * yet). With `inputs` (an answer to what this program sent) they are recorded as the last
 * args; without (a read), what `previous` recorded is kept.
 */
export function defaultOutputs(
  ws: WorkspaceFacts,
  g: WireGuardrail | undefined,
  inputs: WorkspaceDefaultInputs | undefined,
  previous?: WorkspaceDefaultOutputs,
): WorkspaceDefaultOutputs {
  const record = g ?? unconfigured(ws);
  const base = outputsFromWire(
    record,
    inputs ? asGuardrailInputs(inputs, record.name) : undefined,
    previous ? asGuardrailOutputs(previous) : undefined,
  );
  const { defaultWorkspaceId: _notHere, modelAliases: _legacy, ...settings } = base;
  return {
    ...settings,
    workspaceId: ws.id,
    guardrailId: ws.default_guardrail_id,
    workspaceName: ws.name,
    workspaceSlug: ws.slug,
    resetOnDelete: (inputs ? inputs.resetOnDelete : previous?.resetOnDelete) ?? false,
    args: inputs ? (JSON.parse(JSON.stringify(inputs)) as WorkspaceDefaultInputs) : (previous?.args ?? null),
  };
}

/** The workspace as the recorded outputs know it (an update writes no workspace call). */
export const recordedWorkspace = (outs: WorkspaceDefaultOutputs): WorkspaceFacts => ({
  id: outs.workspaceId,
  name: outs.workspaceName,
  slug: outs.workspaceSlug,
  default_guardrail_id: outs.guardrailId,
});

/**
 * Inputs `read` reports on refresh: the program's last args with each drifted setting
 * replaced by its live value (model.ts `refreshedInputs`), and the workspace as written.
 */
export function refreshedDefaultInputs(
  recorded: WorkspaceDefaultOutputs,
  live: WorkspaceDefaultOutputs,
): Record<string, unknown> {
  const settings = refreshedInputs(asGuardrailOutputs(recorded), asGuardrailOutputs(live));
  return {
    workspaceId: recorded.args?.workspaceId ?? recorded.workspaceId,
    ...settings,
    ...(recorded.args?.resetOnDelete === undefined ? {} : { resetOnDelete: recorded.args.resetOnDelete }),
  };
}

/** Inputs `read` reports on import: the args that hold exactly what the service holds, the workspace by id. */
export function importedDefaultInputs(live: WorkspaceDefaultOutputs): Record<string, unknown> {
  const { workspaceId: _id, name, ...settings } = importedInputs(asGuardrailOutputs(live));
  return { workspaceId: live.workspaceId, ...(name == null ? {} : { name }), ...settings };
}
