/**
 * Reads the guardrails to export, with their member and key sets. Only GET calls, through
 * the client's own paging.
 *
 * Cost: `ceil(G/100)` list pages per workspace (with `--workspace`, the default workspace is
 * listed too, once, to find guardrails older than workspaces; with `--all-workspaces`, one
 * page of workspaces first), then either the organization-wide assignment lists
 * (`ceil(M/100) + ceil(K/100)` pages, whatever the number of guardrails), or, when `--only`
 * picks a few guardrails, each one's own lists (two pages or more per guardrail). Each listed
 * workspace's default guardrail is read once (`readWorkspaceDefault`: the workspace, then the
 * guardrail), whatever the number of guardrails.
 */
import { collect } from "../core/client/pagination";
import type { GuardrailsClient } from "../core/client/client";
import type { WireGuardrail } from "../core/client/wire";
import { UserError } from "../core/user-error";
import type { LiveGuardrail } from "./declared";
import { elsewhereHints, named } from "./elsewhere";
import { readDefaults, type LiveDefault } from "./workspace-defaults";
import type { Listing } from "./listing";

export type { Listing };

/** Which guardrails an export reads: workspaces, and ids or names. */
export interface FetchSelection {
  /** Workspace ids to read; none (and not `allWorkspaces`) means the default workspace. */
  workspaces: readonly string[];
  /** Every workspace the service lists. @default false */
  allWorkspaces?: boolean;
  /** Names or ids to keep; none means every guardrail. */
  only: readonly string[];
  /** Names or ids to leave out. @default none */
  exclude?: readonly string[];
}

/** What was read, and the guardrails older than workspaces that the selection left out. */
export interface FetchResult {
  live: LiveGuardrail[];
  /** Guardrails without a workspace (contract rule 10) that no listed workspace holds. */
  leftOut: WireGuardrail[];
  /** Whether the default workspace's id is unknown (its listing shows no guardrail with a workspace). */
  defaultUnknown: boolean;
  /** The configured default guardrails of the listed workspaces (contract rules 18-21). */
  defaults: LiveDefault[];
  /** The ids of the workspaces listed (the default one only when its id is known). */
  workspaces: string[];
}

/** Raised when `--only` or `--exclude` names something no listed guardrail has. */
export class ExportSelectionError extends UserError {
  constructor(
    readonly unmatched: string[],
    message = `--only ${unmatched.map((u) => JSON.stringify(u)).join(", ")}: no guardrail of the listed workspaces has that name or id`,
  ) {
    super(message);
  }
}

/** Below this many selected guardrails, their own lists cost fewer calls than the organization's. */
const PER_GUARDRAIL_MAX = 10;

/**
 * The selected guardrails, in the order the service lists them, each with its member and key
 * ids. Assignments to guardrails outside the selection are read past and dropped.
 *
 * @throws ExportSelectionError when an `only` or `exclude` value matches no listed guardrail.
 */
export async function fetchGuardrails(client: GuardrailsClient, selection: FetchSelection): Promise<FetchResult> {
  const { guardrails, leftOut, defaultUnknown, defaults, workspaces } = await listSelected(client, selection);
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
  return {
    live: guardrails.map((g) => ({ guardrail: g, members: members.get(g.id) ?? [], keys: keys.get(g.id) ?? [] })),
    leftOut,
    defaultUnknown,
    defaults,
    workspaces,
  };
}

/** The listed guardrails, what the selection keeps of them, and the legacy ones left out. */
async function listSelected(
  client: GuardrailsClient,
  selection: FetchSelection,
): Promise<Omit<FetchResult, "live"> & { guardrails: WireGuardrail[] }> {
  const { only } = selection;
  const exclude = selection.exclude ?? [];
  const listing = await listGuardrailsOf(client, selection);
  // A written default guardrail may show in a listing; it is exported as its workspace's default, never as a guardrail.
  const { defaults, defaultIds } = await readDefaults(client, listing.listedWorkspaces);
  const isDefault = (g: WireGuardrail) => defaultIds.has(g.id.toLowerCase());
  for (const g of [...listing.all.values()]) if (isDefault(g)) listing.all.delete(g.id);
  listing.leftOut = listing.leftOut.filter((g) => !isDefault(g));
  listing.unselectedDefault = listing.unselectedDefault.filter((g) => !isDefault(g));
  const listed = [...listing.all.values()];
  // A guardrail without a workspace that is left out may be excluded too: that silences its note.
  const missing = exclude.filter((e) => !listed.some(named(e)) && !listing.leftOut.some(named(e)));
  if (missing.length > 0)
    throw new ExportSelectionError(
      missing,
      `--exclude ${missing.map((u) => JSON.stringify(u)).join(", ")}: no guardrail of the listed workspaces has that name or id`,
    );
  // A value that is some listed guardrail's id names that one only, never one merely named so.
  const ids = new Set([...listed, ...listing.leftOut].map((g) => g.id));
  const picks = (value: string) => (g: WireGuardrail) => (ids.has(value) ? g.id === value : g.name === value);
  const kept = (g: WireGuardrail) => !exclude.some((e) => picks(e)(g));
  const { defaultUnknown } = listing;
  const workspaces = [...listing.listedWorkspaces];
  if (only.length === 0)
    return {
      guardrails: listed.filter(kept),
      leftOut: listing.leftOut.filter(kept),
      defaultUnknown,
      defaults,
      workspaces,
    };
  const unmatched = only.filter((o) => !listed.some(named(o)));
  if (unmatched.length > 0) {
    const hints = selection.allWorkspaces
      ? new Map<string, string>()
      : await elsewhereHints(client, unmatched, listing);
    const plain = unmatched.filter((u) => !hints.has(u));
    const lines = [
      ...(plain.length > 0 ? [new ExportSelectionError(plain).message] : []),
      ...[...hints].map(([u, hint]) => `${new ExportSelectionError([u]).message}; ${hint}`),
    ];
    throw new ExportSelectionError(unmatched, lines.join("\n"));
  }
  // `--only` names guardrails: the workspaces' defaults stay out (exportGuardrails says so).
  return {
    guardrails: listed.filter((g) => only.some((o) => picks(o)(g)) && kept(g)),
    leftOut: [],
    defaultUnknown,
    defaults,
    workspaces,
  };
}

/**
 * Lists the workspaces. `GET /guardrails` without `workspace_id` lists the default workspace
 * with the guardrails that have none (contract rule 10); with one, only that workspace's. So
 * whenever workspaces are named, the default listing is read once: it stands in for the
 * default workspace when that is named (told by the workspace its guardrails carry), and
 * otherwise shows which guardrails without a workspace are left out.
 */
async function listGuardrailsOf(
  client: GuardrailsClient,
  { workspaces, allWorkspaces }: FetchSelection,
): Promise<Listing> {
  const all = new Map<string, WireGuardrail>();
  const dflt = await collect(client.listGuardrails({}));
  const defaultId = dflt.find((g) => g.workspace_id)?.workspace_id ?? null;
  const targets = allWorkspaces ? (await collect(client.listWorkspaces())).map((w) => w.id) : workspaces;
  const defaultHeld =
    allWorkspaces || workspaces.length === 0 || (defaultId !== null && workspaces.includes(defaultId));
  const listedWorkspaces = new Set<string>(defaultHeld && defaultId !== null ? [defaultId] : []);
  if (defaultHeld) for (const g of dflt) all.set(g.id, g);
  for (const workspaceId of targets) {
    if (workspaceId === defaultId) continue;
    for await (const g of client.listGuardrails({ workspaceId })) all.set(g.id, g);
    listedWorkspaces.add(workspaceId);
  }
  return {
    all,
    leftOut: defaultHeld ? [] : dflt.filter((g) => !g.workspace_id),
    unselectedDefault: defaultHeld ? [] : dflt,
    listedWorkspaces,
    defaultUnknown: defaultId === null,
  };
}
