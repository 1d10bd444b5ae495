/**
 * `declareGuardrails(pathOrDir)`: guardrails from YAML/JSON files in Git, as resources.
 */
import type * as pulumi from "@pulumi/pulumi";
import { resolve } from "node:path";
import { GuardrailKeyAssignment, GuardrailMemberAssignment } from "../dynamic/assignments";
import { Guardrail } from "../dynamic/guardrail";
import { loadGuardrailConfigs } from "./load";

/** Options of `declareGuardrails`. */
export interface DeclareGuardrailsOptions {
  /** Prepended to every logical name (`<prefix><id>`, `<prefix><id>-members`, `<prefix><id>-keys`). @default "" */
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

/**
 * Loads one YAML/JSON file, or every `*.yaml`, `*.yml`, `*.json` file of a folder, validates
 * them all (every error at once, with `file:line:column`) and only then registers a `Guardrail`
 * per stable id, plus its member and key sets. Logical names come from the stable id, so
 * renaming a guardrail's display `name` is an update, never a replace.
 *
 * @param pathOrDir relative to the program's folder, or absolute.
 * @returns the resources, by stable id.
 */
export function declareGuardrails(
  pathOrDir: string,
  options: DeclareGuardrailsOptions = {},
): Record<string, DeclaredResources> {
  const prefix = options.namePrefix ?? "";
  const opts = options.resourceOptions;
  const out: Record<string, DeclaredResources> = {};
  for (const { id, settings } of loadGuardrailConfigs(resolve(pathOrDir))) {
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
    out[id] = entry;
  }
  return out;
}
