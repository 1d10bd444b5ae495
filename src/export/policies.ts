/**
 * `guardrails-export --policies` (issue 40): the exported workspaces' Guardrail Policies and the
 * organization's workspace-wide policies, as `policies:` and `workspaceWidePolicies:` entries
 * (src/declarative) and as lines of the `pulumi import` file. Each entry holds exactly the args an
 * import of that policy reports (the resources' own `refreshedInputs`), so importing and then
 * running `up` with the files is no change.
 *
 * A policy the service still keeps in step with a guardrail (`is_legacy_mapped`, rule 30) is that
 * guardrail's part, exported as the guardrail: it is left out, and a note says so. Once edited in
 * Guardrail Policies it no longer follows the guardrail and is exported as a policy of its own.
 *
 * Policies have no `adoptId`: they are adopted by `pulumi import` (the import file), never by the
 * declarative files alone; the notes say so.
 *
 * Cost: per workspace and kind, `ceil(P/100)` list pages and one GET per policy (the lists do not
 * carry assignments); one listing of the workspace-wide policies.
 */
import type { GuardrailsClient } from "../core/client/client";
import type { PulumiImportFile } from "./pulumi-import";
import { PolicyClient } from "../core/client/policies";
import { collect } from "../core/client/pagination";
import { shown } from "../core/args/messages";
import { KINDS, POLICY_TYPE_NAMES, type PolicyTypeName } from "../core/kinds";
import { outputsOf, refreshedInputs } from "../core/policies/model";
import {
  outputsOf as wideOutputsOf,
  refreshedInputs as wideRefreshedInputs,
} from "../core/policies/workspace-wide-model";
import type { WorkspaceWideInputs } from "../core/policies/workspace-wide-args";
import type { PolicyInputs } from "../core/policies/args";
import { policyName, workspaceWideName } from "../declarative/file-schema";
import { POLICY_SECTION } from "../declarative/file-schema";
import { idShown } from "./elsewhere";
import type { PulumiImportResource } from "./pulumi-import";
import { assignStableIds } from "./stable-id";

/** The exported policies: the files' entries, the import file's lines, and what to tell the user. */
export interface ExportedPolicies {
  /** `policies:`: workspace id -> section word -> stable id -> args. */
  policies: Record<string, Record<string, Record<string, Record<string, unknown>>>>;
  /** `workspaceWidePolicies:`: stable id -> args. */
  workspaceWidePolicies: Record<string, Record<string, unknown>>;
  /** The import file's lines, in the files' order. */
  imports: PulumiImportResource[];
  notes: string[];
}

/** Reads and renders the policies of `workspaces` (ids) and the organization's workspace-wide ones. GETs only. */
export async function exportPolicies(
  client: GuardrailsClient,
  workspaces: readonly string[],
): Promise<ExportedPolicies> {
  const pc = new PolicyClient(client);
  const found: Array<{
    type: PolicyTypeName;
    workspace: string;
    id: string;
    name: string;
    args: Record<string, unknown>;
  }> = [];
  const mapped: string[] = [];
  for (const workspace of [...workspaces].sort())
    for (const type of POLICY_TYPE_NAMES) {
      const kind = KINDS[type].policy.fields;
      for (const summary of await collect(pc.listPolicies(kind, workspace))) {
        if (summary.is_legacy_mapped === true) {
          mapped.push(`${KINDS[type].policy.noun} ${shown(summary.name)} (${idShown(summary.id)})`);
          continue;
        }
        const detail = await pc.getPolicy(kind, summary.id, workspace);
        const outs = outputsOf(type, workspace, detail as never, {} as PolicyInputs, undefined);
        const { workspaceId: _w, ...args } = refreshedInputs(type, outs, true);
        found.push({ type, workspace, id: summary.id, name: summary.name, args });
      }
    }
  const wide: Array<{ id: string; name: string; args: Record<string, unknown> }> = [];
  const notes: string[] = [];
  for (const p of await collect(pc.listWorkspaceWidePolicies())) {
    if (p.kind === null) {
      notes.push(
        `workspace-wide policy ${shown(p.name)} (${idShown(p.id)}) is of a type this package does not manage (${shown(p.policy_type)}): not exported`,
      );
      continue;
    }
    const outs = wideOutputsOf({ ...p, kind: p.kind }, {} as WorkspaceWideInputs, undefined);
    wide.push({ id: p.id, name: p.name, args: wideRefreshedInputs(outs, true) });
  }
  // One namespace of stable ids for every policy, as the files require (unique across files).
  const ids = assignStableIds([...found, ...wide].map((p) => ({ id: p.id, name: p.name })));
  const out: ExportedPolicies = { policies: {}, workspaceWidePolicies: {}, imports: [], notes };
  for (const p of [...found].sort((a, b) => (ids.get(a.id)! < ids.get(b.id)! ? -1 : 1))) {
    const id = ids.get(p.id)!;
    const byKind = out.policies[p.workspace] ?? {};
    out.policies[p.workspace] = byKind;
    const section = byKind[POLICY_SECTION[p.type]] ?? {};
    byKind[POLICY_SECTION[p.type]] = section;
    section[id] = p.args;
    out.imports.push({ type: KINDS[p.type].nativeToken, name: policyName(id), id: `${p.workspace}/${p.id}` });
  }
  for (const p of [...wide].sort((a, b) => (ids.get(a.id)! < ids.get(b.id)! ? -1 : 1))) {
    const id = ids.get(p.id)!;
    out.workspaceWidePolicies[id] = p.args;
    out.imports.push({ type: KINDS.WorkspaceWidePolicy.nativeToken, name: workspaceWideName(id), id: p.id });
  }
  if (mapped.length > 0)
    notes.push(
      `${mapped.length} polic${mapped.length > 1 ? "ies" : "y"} still follow${mapped.length > 1 ? "" : "s"} a guardrail (the service's legacy mapping) and ${mapped.length > 1 ? "are" : "is"} exported as that guardrail, not as a policy: ${mapped.slice(0, 10).join(", ")}${mapped.length > 10 ? `, … and ${mapped.length - 10} more` : ""}`,
    );
  if (out.imports.length > 0)
    notes.push(
      "policies have no adoptId: run `pulumi import --file` with the import file before the first `up`, or that `up` creates each policy again",
    );
  return out;
}

/** The file of the exported policies: fixed, never built from what the service sends. */
export const POLICIES_FILE = "_policies.yaml";

/** The import file with the policies' lines after the guardrails'. */
export function withPolicies(file: PulumiImportFile, policies: ExportedPolicies | undefined): PulumiImportFile {
  return policies ? { ...file, resources: [...file.resources, ...policies.imports] } : file;
}
