/**
 * Where an `--only` value that missed the listed workspaces would match: the export looks in
 * the workspaces it did not list, so the error says which `--workspace` to add instead of
 * leaving the user to guess. Only on that error path; a successful export never pays for it.
 */
import { shown } from "../core/args/messages";
import { GuardrailsError } from "../core/client/errors";
import { collect } from "../core/client/pagination";
import type { GuardrailsClient } from "../core/client/client";
import type { WireGuardrail } from "../core/client/wire";
import type { Listing } from "./listing";

/**
 * A service id (guardrail, workspace) for a message: as is when it is a plain token such as a
 * UUID, else quoted and escaped like any string the service sent, so it cannot drive a terminal.
 */
export const idShown = (id: string): string => (/^[\w.:-]{1,80}$/.test(id) ? id : shown(id));

/** Whether a guardrail has this name or id. */
export const named = (value: string) => (g: WireGuardrail) => g.id === value || g.name === value;

/**
 * Per value found elsewhere, the sentence that says where and what to pass. Values found
 * nowhere are left out. A service that cannot list its workspaces (contract rule 17) only
 * loses the hints from other workspaces; the error itself stands either way.
 */
export async function elsewhereHints(
  client: GuardrailsClient,
  values: readonly string[],
  listing: Listing,
): Promise<Map<string, string>> {
  const found = new Map<string, WireGuardrail[]>();
  const note = (g: WireGuardrail) => {
    for (const v of values) if (named(v)(g)) found.set(v, [...(found.get(v) ?? []), g]);
  };
  listing.unselectedDefault.forEach(note);
  const seen = new Set([
    ...listing.listedWorkspaces,
    ...listing.unselectedDefault.map((g) => g.workspace_id).filter((w): w is string => !!w),
  ]);
  let workspaces: string[] = [];
  try {
    workspaces = (await collect(client.listWorkspaces())).map((w) => w.id);
  } catch (err) {
    if (!(err instanceof GuardrailsError)) throw err;
  }
  for (const workspaceId of workspaces) {
    if (seen.has(workspaceId)) continue;
    for await (const g of client.listGuardrails({ workspaceId })) note(g);
  }
  return new Map([...found].map(([v, gs]) => [v, hint(gs)]));
}

function hint(gs: readonly WireGuardrail[]): string {
  const byWorkspace = new Map<string, string[]>();
  for (const g of gs) {
    const w = g.workspace_id ?? "";
    byWorkspace.set(w, [...(byWorkspace.get(w) ?? []), idShown(g.id)]);
  }
  const where = [...byWorkspace].map(
    ([w, ids]) =>
      `${w ? `workspace ${idShown(w)}` : "a guardrail without a workspace (listed with the default workspace)"} has ${ids.length === 1 ? "one" : ids.length} (${ids.join(", ")})`,
  );
  const scoped = [...byWorkspace.keys()].filter((w) => w !== "");
  const fix =
    scoped.length === byWorkspace.size
      ? `add ${scoped.map((w) => `--workspace ${idShown(w)}`).join(" ")}, or pass --all-workspaces`
      : "pass --all-workspaces";
  return `${where.join("; ")}: ${fix}`;
}
