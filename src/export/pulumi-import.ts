/**
 * The file `pulumi import --file` takes (`{"nameTable"?, "resources": [{type, name, id,
 * parent?}]}`), for the native face: each guardrail as `guardrails:index:Guardrail` by its id,
 * its member and key sets as `GuardrailMemberAssignment` / `GuardrailKeyAssignment` by
 * `<guardrail id>/members` and `<guardrail id>/keys`, each configured workspace default as
 * `guardrails:index:WorkspaceDefaultGuardrail` by its workspace id. Names are the export's stable ids
 * (`<id>`, `<id>-members`, `<id>-keys`, as `declareGuardrails` names them), so a second
 * export names the same resources the same way.
 */
import {
  NATIVE_GUARDRAIL_TYPE,
  NATIVE_KEY_ASSIGNMENT_TYPE,
  NATIVE_MEMBER_ASSIGNMENT_TYPE,
  NATIVE_WORKSPACE_DEFAULT_TYPE,
} from "../core/type-tokens";
import { workspaceDefaultName } from "../declarative/file-schema";
import type { LiveDefault } from "./workspace-defaults";
import { basename, dirname } from "node:path";
import type { LiveGuardrail } from "./declared";
import { writeFiles } from "./write";

/** One resource to import. `parent` is a key of the file's `nameTable`. */
export interface PulumiImportResource {
  type: string;
  name: string;
  id: string;
  parent?: string;
}

/** The JSON that `pulumi import --file` reads. */
export interface PulumiImportFile {
  /** Parent names -> their URNs; present only when a resource names a parent. */
  nameTable?: Record<string, string>;
  resources: PulumiImportResource[];
}

/** The import id of a guardrail's member set. */
export const membersImportId = (guardrailId: string) => `${guardrailId}/members`;
/** The import id of a guardrail's key set. */
export const keysImportId = (guardrailId: string) => `${guardrailId}/keys`;

/**
 * The import file of exported guardrails, in stable-id order: each guardrail, then its
 * member set and key set. A set is listed when it has someone in it, or, with `exclusive`
 * (the sets own the whole current sets), always: the same rule as the exported files.
 *
 * @param ids service id -> stable id (`assignStableIds`), one for every guardrail.
 */
export function importFileOf(
  live: readonly LiveGuardrail[],
  ids: ReadonlyMap<string, string>,
  exclusive: boolean,
  defaults: readonly LiveDefault[] = [],
): PulumiImportFile {
  const named = live
    .map((l) => ({ name: ids.get(l.guardrail.id)!, l }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const resources: PulumiImportResource[] = [];
  for (const { name, l } of named) {
    const id = l.guardrail.id;
    resources.push({ type: NATIVE_GUARDRAIL_TYPE, name, id });
    if (exclusive || l.members.length > 0)
      resources.push({ type: NATIVE_MEMBER_ASSIGNMENT_TYPE, name: `${name}-members`, id: membersImportId(id) });
    if (exclusive || l.keys.length > 0)
      resources.push({ type: NATIVE_KEY_ASSIGNMENT_TYPE, name: `${name}-keys`, id: keysImportId(id) });
  }
  // A workspace's default, by its workspace id (what the resource's id is), named as declareGuardrails names it.
  for (const d of [...defaults].sort((a, b) => (a.workspace.id < b.workspace.id ? -1 : 1))) {
    const id = d.workspace.id.toLowerCase();
    resources.push({ type: NATIVE_WORKSPACE_DEFAULT_TYPE, name: workspaceDefaultName(id), id });
  }
  return { resources };
}

/** The file's text: two-space JSON with a final newline, keys in Pulumi's documented order. */
export function renderImportFile(file: PulumiImportFile): string {
  const out: PulumiImportFile = {
    ...(file.nameTable && Object.keys(file.nameTable).length > 0 ? { nameTable: file.nameTable } : {}),
    resources: file.resources.map((r) => ({
      type: r.type,
      name: r.name,
      id: r.id,
      ...(r.parent !== undefined ? { parent: r.parent } : {}),
    })),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/**
 * Writes the import file at `path`, with the export's care: never through a link, only that
 * file (its folder made if missing), and an existing file only with `force`.
 *
 * @returns the path written.
 */
export function writeImportFile(path: string, file: PulumiImportFile, options: { force?: boolean } = {}): string {
  return writeFiles(dirname(path), [{ fileName: basename(path), text: renderImportFile(file) }], options)[0]!;
}
