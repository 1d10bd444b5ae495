/**
 * The default guardrails of the exported workspaces (docs/api-contract.md rules 17-21), as the
 * `workspaceDefaults:` section of one file. Only a configured default is written: one that
 * was never written restricts nobody, and declaring it would write it.
 *
 * Keys are workspace ids, never slugs: a workspace's slug can be changed on the service, its
 * id cannot, and the resource's state holds the id, so a file keyed by id adopts as a no-op
 * whatever the slug becomes. The file name is fixed (`WORKSPACE_DEFAULTS_FILE`), never built
 * from anything the service sends.
 */
import type { GuardrailsClient } from "../core/client/client";
import type { WireGuardrail } from "../core/client/wire";
import { shown } from "../core/args/messages";
import { UUID_RE } from "../core/fields/constants";
import { declaredWorkspaceDefaultSchema } from "../declarative/file-schema";
import { addSettings, settingsWarnings, type DeclaredExport } from "./declared";
import { idShown } from "./elsewhere";

/**
 * The file the defaults go to. It starts with `_`, which no stable id does, so no guardrail's
 * `<id>.yaml` can ever take its name.
 */
export const WORKSPACE_DEFAULTS_FILE = "_workspace-defaults.yaml";

/** What the export needs of a workspace (the client's `WireWorkspace`). */
export interface WorkspaceSeen {
  id: string;
  name: string | null;
  default_guardrail_id: string;
}

/** A workspace with its configured default guardrail. */
export interface LiveDefault {
  workspace: WorkspaceSeen;
  guardrail: WireGuardrail;
}

/** What reading the workspaces' defaults found. */
export interface DefaultsRead {
  /** Configured defaults, in workspace id order. */
  defaults: LiveDefault[];
  /** The default guardrail id of every workspace read: never exported as an ordinary guardrail. */
  defaultIds: Set<string>;
}

/**
 * Each workspace's default guardrail, by `readWorkspaceDefault` (the workspace decides whether
 * it exists, rule 21). Cost: two GETs per workspace (the workspace, then its default), never a
 * call per guardrail.
 */
export async function readDefaults(client: GuardrailsClient, workspaceIds: Iterable<string>): Promise<DefaultsRead> {
  const out: DefaultsRead = { defaults: [], defaultIds: new Set() };
  // A workspace id that is not a UUID could be no key of a file: its default is not read at all.
  for (const id of [...new Set(workspaceIds)].filter((w) => UUID_RE.test(w)).sort()) {
    const read = await client.readWorkspaceDefault(id);
    if (read.state === "gone") continue;
    out.defaultIds.add(read.workspace.default_guardrail_id.toLowerCase());
    if (read.state === "configured") out.defaults.push({ workspace: read.workspace, guardrail: read.guardrail });
  }
  return out;
}

/** The name the service gives a default the program never named (rule 19). */
const automaticName = (workspaceId: string) => `Workspace ${workspaceId} Default`;

/**
 * One configured default as its `workspaceDefaults:` entry: the settings in table order, and
 * `name` only when someone named it (the service's own name is what an omitted `name` means).
 */
export function declaredDefault({ workspace, guardrail }: LiveDefault): DeclaredExport {
  const settings: Record<string, unknown> = {};
  if (guardrail.name.toLowerCase() !== automaticName(workspace.id).toLowerCase()) settings.name = guardrail.name;
  addSettings(settings, guardrail);
  return { settings, warnings: settingsWarnings(settings, declaredWorkspaceDefaultSchema) };
}

/**
 * The entries, keyed by workspace id, each warning naming the workspace, and the defaults
 * kept. A workspace id that is not a UUID is no key a file may hold (nor a resource name): that
 * default is left out, with a warning, rather than written in a form that will not load.
 */
export function defaultEntries(defaults: readonly LiveDefault[]): {
  entries: Array<readonly [string, Record<string, unknown>]>;
  warnings: string[];
  kept: LiveDefault[];
} {
  const warnings: string[] = [];
  const kept: LiveDefault[] = [];
  const entries: Array<readonly [string, Record<string, unknown>]> = [];
  for (const d of defaults) {
    const named = `default guardrail of workspace ${shown(d.workspace.name ?? d.workspace.id)} (${idShown(d.workspace.id)})`;
    if (!UUID_RE.test(d.workspace.id)) {
      warnings.push(`${named}: its workspace id is not a UUID, so it was not exported`);
      continue;
    }
    const declared = declaredDefault(d);
    for (const w of declared.warnings) warnings.push(`${named}: ${w}`);
    entries.push([d.workspace.id.toLowerCase(), declared.settings]);
    kept.push(d);
  }
  return { entries, warnings, kept };
}

/**
 * What the export says of the defaults it did not write: the default workspace's, when its id
 * is unknown (no guardrail of its listing carries it), and those `only` left out.
 */
export function defaultNotes(
  selection: { workspaces: readonly string[]; allWorkspaces?: boolean; only: readonly string[] },
  defaultUnknown: boolean,
  read: number,
  exported: number,
): string[] {
  const notes: string[] = [];
  if (defaultUnknown && selection.workspaces.length === 0 && !selection.allWorkspaces)
    notes.push(
      "the default workspace's default guardrail was not read: no guardrail of its listing carries the workspace's id; name it with --workspace <id> (or pass --all-workspaces) to export it",
    );
  if (read > exported)
    notes.push(
      `--only names guardrails: the configured default guardrails of ${read - exported} workspace(s) were not exported; run without --only to export them`,
    );
  return notes;
}
