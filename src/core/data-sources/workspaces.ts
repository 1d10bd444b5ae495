/**
 * The workspace data sources: `getWorkspace` (by id, slug or exact name) and `getWorkspaces`,
 * answering each workspace with its `defaultGuardrailId` (docs/api-contract.md rules 17 and 18),
 * in the program's names. This is how a program turns a workspace's name into the id every
 * guardrail's `workspaceId` needs.
 */
import { shown } from "../args/messages";
import type { GuardrailsClient } from "../client/client";
import type { WireWorkspace } from "../client/wire";
import { idText } from "../text/terminal";
import { UserError } from "../user-error";
import { argsOf } from "./lookups";

/** A workspace as the data sources answer it. Keys the service left out are null (rule 10's tolerance). */
export interface WorkspaceInfo {
  id: string;
  name: string | null;
  slug: string | null;
  description: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  /** The id of the workspace's default guardrail (rule 18), whether or not it has been written. */
  defaultGuardrailId: string;
}

/** What `getWorkspaces` answers: every workspace, sorted by name then id, and their ids in the same order. */
export interface WorkspacesFound {
  workspaces: WorkspaceInfo[];
  ids: string[];
}

/** A wire workspace in the program's names. */
export function workspaceInfo(w: WireWorkspace): WorkspaceInfo {
  return {
    id: w.id,
    name: w.name,
    slug: w.slug,
    description: w.description,
    createdAt: w.created_at,
    updatedAt: w.updated_at,
    defaultGuardrailId: w.default_guardrail_id,
  };
}

/** How many names a failed lookup by name lists before it says "and N more". */
const NAMES_SHOWN = 10;

/**
 * One workspace, by `id`, `slug` or exact `name` (give exactly one). Fails when nothing
 * matches, when a name matches more than one workspace (naming every id), and when the service
 * answers a workspace other than the one asked for.
 */
export async function getWorkspace(
  client: GuardrailsClient,
  args: { id: string } | { slug: string } | { name: string },
): Promise<WorkspaceInfo> {
  const a = argsOf("getWorkspace", args);
  if (a.name !== undefined) return workspaceInfo(await byName(client, a.name));
  const [key, value] = a.id !== undefined ? (["id", a.id] as const) : (["slug", a.slug!] as const);
  const w = await client.getWorkspace(value);
  if (w === undefined)
    throw new UserError(`getWorkspace: no workspace has ${key} ${shown(value)} (the service answered 404)`);
  if (w[key] !== value)
    throw new UserError(
      `getWorkspace: asked for the workspace with ${key} ${shown(value)}, the service answered workspace ${shown(w.id)} whose ${key} is ${shown(w[key])}; not using it`,
    );
  return workspaceInfo(w);
}

/** The one workspace named exactly `name`, from the full list. */
async function byName(client: GuardrailsClient, name: string): Promise<WireWorkspace> {
  const all: WireWorkspace[] = [];
  for await (const w of client.listWorkspaces()) all.push(w);
  const found = all.filter((w) => w.name === name);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) {
    const ids = found.map((w) => idText(w.id)).sort();
    throw new UserError(
      `getWorkspace: ${found.length} workspaces are named ${shown(name)} (${ids.join(", ")}); look one up by id or slug`,
    );
  }
  const names = [...new Set(all.map((w) => (w.name === null ? "(no name)" : shown(w.name))))].sort();
  const more = names.length > NAMES_SHOWN ? ` and ${names.length - NAMES_SHOWN} more` : "";
  const seen =
    names.length === 0 ? "the service lists none" : `it lists ${names.slice(0, NAMES_SHOWN).join(", ")}${more}`;
  throw new UserError(`getWorkspace: no workspace is named ${shown(name)}; ${seen}`);
}

/** Orders by name (a workspace without one last), then id: the same answer whatever order the service lists in. */
function byNameThenId(x: WorkspaceInfo, y: WorkspaceInfo): number {
  if (x.name !== y.name) {
    if (x.name === null) return 1;
    if (y.name === null) return -1;
    return x.name < y.name ? -1 : 1;
  }
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

/** Every workspace of the organization, sorted by name then id, with their ids in the same order. */
export async function getWorkspaces(
  client: GuardrailsClient,
  args: Record<string, never> = {},
): Promise<WorkspacesFound> {
  argsOf("getWorkspaces", args);
  const workspaces: WorkspaceInfo[] = [];
  for await (const w of client.listWorkspaces()) workspaces.push(workspaceInfo(w));
  workspaces.sort(byNameThenId);
  return { workspaces, ids: workspaces.map((w) => w.id) };
}
