/**
 * Reads of a guardrail shared within one provider process, per client (issue 43: a refresh
 * reads each guardrail once). A set's refresh needs its guardrail's workspace (a member holds
 * one guardrail per workspace: core/holders.ts), which the Guardrail's own refresh reads in the
 * same command; the engine runs the two in either order, or at once. So:
 *
 * - `guardrailFacts` (the sets): a guardrail's name and workspace, from what this process saw
 *   of it (a read, a create, an update), else one GET, joined by any read of it under way. A
 *   workspace never changes (a move replaces the guardrail); a name is the one last seen.
 * - `readGuardrail` (the Guardrail's refresh and import): one GET, or joins one under way, or
 *   takes the answer a set's lookup fetched and no read took yet (each answer taken once).
 *
 * Per client, so two providers in one process (two organizations) share nothing; the engine
 * runs one provider process per command, so nothing is kept from one command to the next.
 */
import type { GuardrailsClient } from "../client/client";
import type { WireGuardrail } from "../client/wire";

/** What a set needs to know of a guardrail: its name (to say where an id went) and workspace. */
export interface GuardrailFacts {
  name?: string | undefined;
  workspaceId?: string | undefined;
}

interface Entry {
  facts?: GuardrailFacts;
  /** A GET under way, and whether a read of the Guardrail took its answer already. */
  pending?: Promise<WireGuardrail> | undefined;
  taken?: boolean;
  /** An answer a lookup fetched that no read of the Guardrail took yet. */
  spare?: WireGuardrail | undefined;
  /** This process made the guardrail (its POST, not an adoption). */
  created?: boolean;
}

const seen = new WeakMap<GuardrailsClient, Map<string, Entry>>();

function entry(client: GuardrailsClient, id: string): Entry {
  const byId = seen.get(client) ?? new Map<string, Entry>();
  seen.set(client, byId);
  const key = id.toLowerCase();
  const e = byId.get(key) ?? {};
  byId.set(key, e);
  return e;
}

const factsOf = (g: WireGuardrail): GuardrailFacts => ({ name: g.name, workspaceId: g.workspace_id ?? undefined });

/** Records what an answer of the service says of a guardrail (a create, an update, a read); `created`: this process's POST made it. */
export function noteGuardrail(client: GuardrailsClient, g: WireGuardrail, o: { created?: boolean } = {}): void {
  const e = entry(client, g.id);
  e.facts = factsOf(g);
  if (o.created) e.created = true;
}

/**
 * Whether this process created the guardrail (not adopted it): a set new on it then expects to
 * add every id, so its moves lookup goes straight to the organization's walk, which also says
 * what the guardrail holds, instead of listing the guardrail first (issue 43). A hint for cost
 * only: the walk answers the same ids as the list would.
 */
export function createdHere(client: GuardrailsClient, id: string): boolean {
  return seen.get(client)?.get(id.toLowerCase())?.created === true;
}

/** One GET of `id`, kept as under way until it settles; `spare`: leave the answer for the Guardrail's read. */
function fetch(client: GuardrailsClient, id: string, e: Entry, spare: boolean): Promise<WireGuardrail> {
  const pending = client.getGuardrail(id).then((g) => {
    e.facts = factsOf(g);
    if (spare && !(e.pending === pending && e.taken)) e.spare = g;
    return g;
  });
  e.pending = pending;
  e.taken = !spare;
  const clear = () => {
    if (e.pending === pending) e.pending = undefined;
  };
  pending.then(clear, clear);
  return pending;
}

/** A guardrail's name and workspace (see the file's comment); rejects as the GET does. */
export async function guardrailFacts(client: GuardrailsClient, id: string): Promise<GuardrailFacts> {
  const e = entry(client, id);
  if (e.facts) return e.facts;
  return factsOf(await (e.pending ?? fetch(client, id, e, true)));
}

/** The Guardrail's read of itself (see the file's comment): at most one GET per command. */
export function readGuardrail(client: GuardrailsClient, id: string): Promise<WireGuardrail> {
  const e = entry(client, id);
  if (e.pending) {
    // Joined: its answer is this read's, not left over for another.
    e.taken = true;
    return e.pending;
  }
  if (e.spare) {
    const g = e.spare;
    e.spare = undefined;
    return Promise.resolve(g);
  }
  return fetch(client, id, e, false);
}
