/**
 * Reads the guardrails to export, with their member and key sets. Only GET calls, through
 * the client's own paging.
 *
 * Cost: `ceil(G/100)` list pages per workspace, then either the organization-wide assignment
 * lists (`ceil(M/100) + ceil(K/100)` pages, whatever the number of guardrails), or, when
 * `--only` picks a few guardrails, each one's own lists (two pages or more per guardrail).
 */
import type { GuardrailsClient } from "../../provider/client/client";
import type { WireGuardrail } from "../../provider/client/wire";
import type { LiveGuardrail } from "./declared";

export interface ReadSelection {
  /** Workspace ids to read; none means the default workspace. */
  workspaces: readonly string[];
  /** Names or ids to keep; none means every guardrail. */
  only: readonly string[];
}

/** Raised when `--only` names something no listed guardrail has. */
export class ExportSelectionError extends Error {
  constructor(readonly unmatched: string[]) {
    super(`--only ${unmatched.map((u) => JSON.stringify(u)).join(", ")}: no guardrail of the listed workspaces has that name or id`);
    this.name = "ExportSelectionError";
  }
}

/** Below this many selected guardrails, their own lists cost fewer calls than the organization's. */
const PER_GUARDRAIL_MAX = 10;

/**
 * The selected guardrails, in the order the service lists them, each with its member and key
 * ids. Assignments to guardrails outside the selection are read past and dropped.
 *
 * @throws ExportSelectionError when an `only` value matches no listed guardrail.
 */
export async function readGuardrails(client: GuardrailsClient, selection: ReadSelection): Promise<LiveGuardrail[]> {
  const guardrails = await listSelected(client, selection);
  const wanted = new Set(guardrails.map((g) => g.id));
  const members = new Map<string, string[]>();
  const keys = new Map<string, string[]>();
  const add = (into: Map<string, string[]>, guardrailId: string, id: string) => {
    if (!wanted.has(guardrailId)) return;
    const ids = into.get(guardrailId);
    if (ids) ids.push(id);
    else into.set(guardrailId, [id]);
  };
  if (selection.only.length > 0 && guardrails.length <= PER_GUARDRAIL_MAX) {
    for (const g of guardrails) {
      for await (const row of client.listMemberAssignments(g.id)) add(members, g.id, row.user_id);
      for await (const row of client.listKeyAssignments(g.id)) add(keys, g.id, row.key_hash);
    }
  } else if (guardrails.length > 0) {
    for await (const row of client.listAllMemberAssignments()) add(members, row.guardrail_id, row.user_id);
    for await (const row of client.listAllKeyAssignments()) add(keys, row.guardrail_id, row.key_hash);
  }
  return guardrails.map((g) => ({ guardrail: g, members: members.get(g.id) ?? [], keys: keys.get(g.id) ?? [] }));
}

async function listSelected(client: GuardrailsClient, { workspaces, only }: ReadSelection): Promise<WireGuardrail[]> {
  const all = new Map<string, WireGuardrail>();
  for (const workspaceId of workspaces.length > 0 ? workspaces : [undefined]) {
    for await (const g of client.listGuardrails(workspaceId ? { workspaceId } : {})) all.set(g.id, g);
  }
  if (only.length === 0) return [...all.values()];
  const picked = [...all.values()].filter((g) => only.includes(g.id) || only.includes(g.name));
  const unmatched = only.filter((o) => !picked.some((g) => g.id === o || g.name === o));
  if (unmatched.length > 0) throw new ExportSelectionError(unmatched);
  return picked;
}
