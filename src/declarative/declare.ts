/**
 * `declareGuardrails(pathOrDir)`: guardrails from YAML/JSON files in Git, as resources.
 */
import type * as pulumi from "@pulumi/pulumi";
import { resolve } from "node:path";
import { GuardrailKeyAssignment, GuardrailMemberAssignment } from "../dynamic/assignments";
import { Guardrail } from "../dynamic/guardrail";
import { WorkspaceDefaultGuardrail } from "../dynamic/workspace-default";
import { BudgetPolicy, ModelAccessPolicy, ModerationPolicy } from "../dynamic/policies";
import { WorkspaceWidePolicy, type WorkspaceWidePolicyArgs } from "../dynamic/workspace-wide-policy";
import type { PolicyTypeName } from "../core/kinds";
import { policyName, workspaceDefaultName, workspaceWideName } from "./file-schema";
import { loadGuardrailFiles } from "./load";

/** Options of `declareGuardrails`. */
export interface DeclareGuardrailsOptions {
  /** Prepended to every logical name (`<prefix><id>`, `<prefix><id>-members`, `<prefix><id>-keys`, `<prefix>workspace-default.<workspace>`). @default "" */
  namePrefix?: string;
  /** Options for every resource created (provider, protect, retainOnDelete, ...). @default none */
  resourceOptions?: pulumi.CustomResourceOptions;
}

/** What one declared guardrail became. */
export interface DeclaredResources {
  guardrail: Guardrail;
  members?: GuardrailMemberAssignment;
  keys?: GuardrailKeyAssignment;
}

/** Everything the files declared, as resources. */
export interface DeclaredFiles {
  /** By stable id: what `declareGuardrails` answers. */
  guardrails: Record<string, DeclaredResources>;
  /** By `workspaceDefaults:` key (the workspace id or slug, as written). */
  workspaceDefaults: Record<string, WorkspaceDefaultGuardrail>;
  /** Workspace policies (issue 40) by stable id (unique across the files' policies). */
  policies: Record<string, BudgetPolicy | ModelAccessPolicy | ModerationPolicy>;
  /** Workspace-wide policies by stable id. */
  workspaceWidePolicies: Record<string, WorkspaceWidePolicy>;
}

/** Each workspace policy kind's resource class. */
const POLICY_CLASSES: Record<
  PolicyTypeName,
  new (
    name: string,
    args: never,
    opts?: pulumi.CustomResourceOptions,
  ) => BudgetPolicy | ModelAccessPolicy | ModerationPolicy
> = { BudgetPolicy, ModelAccessPolicy, ModerationPolicy };

/**
 * Loads one YAML/JSON file, or every `*.yaml`, `*.yml`, `*.json` file of a folder, validates
 * them all (every error at once, with `file:line:column`) and only then registers a `Guardrail`
 * per stable id, plus its member and key sets, and a `WorkspaceDefaultGuardrail` per
 * `workspaceDefaults:` entry, a `BudgetPolicy`, `ModelAccessPolicy` or `ModerationPolicy` per
 * `policies:` entry (`policy.<id>`) and a `WorkspaceWidePolicy` per `workspaceWidePolicies:`
 * entry (`workspace-wide-policy.<id>`). Logical names come from the stable id, so renaming a guardrail's
 * display `name` is an update, never a replace; a default is `workspace-default.<key>`.
 *
 * @param pathOrDir relative to the program's folder, or absolute.
 * @returns the guardrails' resources, by stable id (`declareGuardrailFiles` answers the defaults too).
 */
export function declareGuardrails(
  pathOrDir: string,
  options: DeclareGuardrailsOptions = {},
): Record<string, DeclaredResources> {
  return declareGuardrailFiles(pathOrDir, options).guardrails;
}

/**
 * `declareGuardrails`, answering every resource it registered: the guardrails by stable id and
 * the workspace default guardrails by their `workspaceDefaults:` key.
 *
 * @param pathOrDir relative to the program's folder, or absolute.
 */
export function declareGuardrailFiles(pathOrDir: string, options: DeclareGuardrailsOptions = {}): DeclaredFiles {
  const prefix = options.namePrefix ?? "";
  const opts = options.resourceOptions;
  const loaded = loadGuardrailFiles(resolve(pathOrDir));
  const out: DeclaredFiles = { guardrails: {}, workspaceDefaults: {}, policies: {}, workspaceWidePolicies: {} };
  for (const { id, settings } of loaded.guardrails) {
    const { members, keys, ...args } = settings;
    const guardrail = new Guardrail(`${prefix}${id}`, args, opts);
    const set = (s: { exclusive?: boolean | undefined }) => ({
      guardrailId: guardrail.id,
      exclusive: s.exclusive ?? false,
    });
    const entry: DeclaredResources = { guardrail };
    if (members) {
      const memberArgs = { ...set(members), memberUserIds: members.ids };
      entry.members = new GuardrailMemberAssignment(`${prefix}${id}-members`, memberArgs, opts);
    }
    if (keys)
      entry.keys = new GuardrailKeyAssignment(`${prefix}${id}-keys`, { ...set(keys), keyHashes: keys.ids }, opts);
    out.guardrails[id] = entry;
  }
  for (const { workspace, settings } of loaded.workspaceDefaults)
    out.workspaceDefaults[workspace] = new WorkspaceDefaultGuardrail(
      `${prefix}${workspaceDefaultName(workspace)}`,
      { ...settings, workspaceId: workspace },
      opts,
    );
  for (const { workspace, type, id, settings } of loaded.policies)
    out.policies[id] = new POLICY_CLASSES[type](
      `${prefix}${policyName(id)}`,
      { ...settings, workspaceId: workspace } as never,
      opts,
    );
  for (const { id, settings } of loaded.workspaceWidePolicies)
    out.workspaceWidePolicies[id] = new WorkspaceWidePolicy(
      `${prefix}${workspaceWideName(id)}`,
      settings as WorkspaceWidePolicyArgs,
      opts,
    );
  return out;
}
