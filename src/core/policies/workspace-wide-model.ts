/**
 * A workspace-wide policy in three shapes: the program's args, the service's record, and the
 * outputs Pulumi stores (everything as the service holds it, the program's last args, and each
 * setting's comparison key as the service answered the last write). The settings are walked by
 * the kind's fields of the field table; nothing here names a setting.
 */
import type { WireWorkspaceWidePolicy } from "../client/policy-wire";
import { type FieldName, spec } from "../fields/fields";
import { POLICY_FIELDS, type PolicyKind, policyConfig } from "../fields/policy-kinds";
import { desired } from "../fields/values";
import { keyPath, type PropertyChange } from "../results";
import { visible } from "../text/terminal";
import { listDrift } from "./changes";

import { asSet, key, sameSet } from "./model";
import {
  typeWordOf,
  WW_POLICY_TYPES,
  type WorkspaceWideInputs,
  type WorkspaceWidePolicyType,
} from "./workspace-wide-args";

/** How many characters of a name the service now holds a message shows. */
const SHOWN_NAME = 200;

/** The coverage lists, in the program's names, and their wire names. */
export const COVERAGE_LISTS = {
  workspaceIds: "workspace_ids",
  optedOutWorkspaceIds: "opted_out_workspace_ids",
} as const;
export type CoverageList = keyof typeof COVERAGE_LISTS;
const LISTS = Object.keys(COVERAGE_LISTS) as CoverageList[];

/** What Pulumi stores. */
export type WorkspaceWideOutputs = Partial<Record<FieldName, unknown>> & {
  [L in CoverageList]: string[];
} & {
  policyId: string;
  name: string;
  policyType: WorkspaceWidePolicyType;
  allWorkspaces: boolean;
  /** How many workspaces the service says it covers (the API's `workspace_count`). */
  workspaceCount: number | null;
  updatedAt: string | null;
  /** The program's args as last applied. */
  args: WorkspaceWideInputs;
  /** Each setting's comparison key as the service answered the last write: drift is a change against it. */
  written: Partial<Record<FieldName, unknown>>;
};

/** The field table's kind of a `policyType`. */
export const kindOf = (t: WorkspaceWidePolicyType): PolicyKind => WW_POLICY_TYPES[t];

/** The settings of a record's `config`, in the program's names (null where unset). */
function settingsOf(kind: PolicyKind, config: Record<string, unknown> | null): Record<FieldName, unknown> {
  return Object.fromEntries(
    POLICY_FIELDS[kind].map((k) => {
      const w = config?.[spec(k).wire];
      return [k, w === undefined || w === null ? null : spec(k).fromWire(w as never)];
    }),
  ) as Record<FieldName, unknown>;
}

/**
 * The `config` of a write: every field of the kind, whole (a PUT replaces it, rule 24), over the
 * keys this package does not manage as the service last answered them, so they are never wiped.
 */
export const configBody = (inputs: WorkspaceWideInputs, unmanaged: Record<string, unknown> = {}) => ({
  ...unmanaged,
  ...(policyConfig(kindOf(inputs.policyType), inputs) as Record<string, unknown>),
});

/** Outputs from a record (a read's, or a write's answer). */
export function outputsOf(
  p: WireWorkspaceWidePolicy & { kind: PolicyKind },
  args: WorkspaceWideInputs,
  written: Partial<Record<FieldName, unknown>> | undefined,
): WorkspaceWideOutputs {
  const settings = settingsOf(p.kind, p.config as Record<string, unknown> | null);
  return {
    ...settings,
    workspaceIds: asSet(p.workspace_ids),
    optedOutWorkspaceIds: asSet(p.opted_out_workspace_ids),
    policyId: p.id,
    name: p.name,
    policyType: typeWordOf(p.kind),
    allWorkspaces: p.is_default === true,
    workspaceCount: p.workspace_count ?? null,
    updatedAt: p.updated_at ?? null,
    args: JSON.parse(JSON.stringify(args)) as WorkspaceWideInputs,
    written: written ?? Object.fromEntries(POLICY_FIELDS[p.kind].map((k) => [k, key(k, settings[k])])),
  };
}

/**
 * The inputs `read` reports: the program's last args with each setting that drifted and the
 * coverage as the service holds it; for an import (no args), the args a program writes to hold
 * exactly what the service holds.
 */
export function refreshedInputs(outs: WorkspaceWideOutputs, importing: boolean): Record<string, unknown> {
  const args: Record<string, unknown> = importing
    ? { name: outs.name, policyType: outs.policyType }
    : { ...outs.args, name: outs.name };
  for (const k of POLICY_FIELDS[kindOf(outs.policyType)]) {
    const now = key(k, outs[k]);
    if (importing ? now === key(k, null) : now === outs.written[k]) continue;
    args[k] = outs[k] === null || outs[k] === undefined ? undefined : spec(k).toArg(outs[k] as never);
  }
  for (const l of LISTS) if (args[l] !== undefined || outs[l].length > 0) args[l] = [...outs[l]];
  if (args.allWorkspaces !== undefined || outs.allWorkspaces) args.allWorkspaces = outs.allWorkspaces;
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined && v !== null));
}

/** The settings the program changed, or that drifted from what the service answered the last write. */
export function changedSettings(olds: WorkspaceWideOutputs, inputs: WorkspaceWideInputs): FieldName[] {
  return POLICY_FIELDS[kindOf(inputs.policyType)].filter(
    (k) => key(k, desired(inputs, k)) !== key(k, desired(olds.args ?? {}, k)) || key(k, olds[k]) !== olds.written?.[k],
  );
}

/** One list's change as keyed paths (`workspaceIds["<id>"]`), or its name alone when secret. */
function listChanges(l: CoverageList, was: readonly string[], now: readonly string[], secret: boolean) {
  if (secret) return sameSet(was, now) ? [] : [{ path: l, kind: "update" } as PropertyChange];
  const [before, after] = [new Set(was), new Set(now)];
  return [
    ...asSet(now)
      .filter((id) => !before.has(id))
      .map((id): PropertyChange => ({ path: keyPath(l, id), kind: "add" })),
    ...asSet(was)
      .filter((id) => !after.has(id))
      .map((id): PropertyChange => ({ path: keyPath(l, id), kind: "delete" })),
  ];
}

/** Every change the program asks for, in the program's names (a new `policyType` replaces). */
export function workspaceWideChanges(
  olds: WorkspaceWideOutputs,
  inputs: WorkspaceWideInputs,
  isSecret: (arg: string) => boolean,
): PropertyChange[] {
  if (inputs.policyType !== olds.policyType) return [{ path: "policyType", kind: "replace" }];
  const name: PropertyChange[] = inputs.name !== olds.name ? [{ path: "name", kind: "update" }] : [];
  const settings = changedSettings(olds, inputs).map((k): PropertyChange => ({ path: k, kind: "update" }));
  const lists = LISTS.flatMap((l) => listChanges(l, olds[l], inputs[l] ?? [], isSecret(l)));
  const flag: PropertyChange[] =
    (inputs.allWorkspaces ?? false) !== olds.allWorkspaces ? [{ path: "allWorkspaces", kind: "update" }] : [];
  return [...name, ...settings, ...lists, ...flag];
}

/** What the service holds that differs from the state's last read; empty when nothing changed. */
export function changedSinceRead(
  olds: WorkspaceWideOutputs,
  live: WorkspaceWideOutputs,
  isSecret: (arg: string) => boolean,
): string[] {
  const found: string[] = [];
  // The name comes from the service: neutralised for a terminal and bounded (as a workspace policy's).
  if (live.name !== olds.name)
    found.push(isSecret("name") ? "name" : `name (now ${JSON.stringify(visible(live.name, SHOWN_NAME))})`);
  for (const k of POLICY_FIELDS[kindOf(olds.policyType)]) if (key(k, live[k]) !== key(k, olds[k])) found.push(k);
  for (const l of LISTS) if (!sameSet(live[l], olds[l])) found.push(listDrift(l, olds[l], live[l], isSecret(l)));
  if (live.allWorkspaces !== olds.allWorkspaces) found.push(`allWorkspaces (now ${live.allWorkspaces})`);
  return found;
}
