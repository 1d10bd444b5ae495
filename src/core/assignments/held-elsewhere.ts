/**
 * Where ids that left a set's guardrail went, as the statuses the state map shows: only a
 * guardrail that competes with ours counts (core/holders.ts: same workspace for members, any
 * for keys), and it is named where the service tells its name (`on guardrail Engineering
 * (3f2b8c1e…)`).
 */
import type { GuardrailsClient } from "../client/client";
import { competes, HOLD_SCOPE } from "../holders";
import { orgHolders } from "../client/org-assignments";
import { guardrailFacts, type GuardrailFacts } from "../resource/guardrail-reads";
import type { AssignmentSetKind } from "./kind";
import { onGuardrail } from "./status";

/** Distinct other guardrails a key set looks up by name in one read; past this, ids stand alone. */
export const MAX_NAMED_GUARDRAILS = 50;

/**
 * Statuses of the given ids that sit on a competing guardrail. Makes no call when `ids` is
 * empty; otherwise the organization's assignments (one walk per provider process and kind,
 * shared: client/org-assignments.ts) and, when some are elsewhere, at most one GET per distinct
 * guardrail involved, each once per command (resource/guardrail-reads.ts): ours for its workspace
 * (members only; none when the Guardrail's own refresh or create in this process read it, or reads
 * it at the same time), each other one for its name and, for members, its workspace (for keys, whose scope needs no
 * workspace, at most MAX_NAMED_GUARDRAILS).
 */
export async function heldElsewhere(
  client: GuardrailsClient,
  kind: AssignmentSetKind,
  guardrailId: string,
  ids: readonly string[],
): Promise<Record<string, string>> {
  if (ids.length === 0) return {};
  // A member may hold one guardrail in each workspace: keep every one, and pick ours below. The
  // listing is the process's shared view, read once (client/org-assignments.ts), its rows in the
  // order that names where this process's own writes put an id.
  const holders = await orgHolders(client, kind.wire);
  const found = new Map<string, string[]>();
  for (const id of new Set(ids)) {
    const others = (holders.get(id) ?? []).filter((g) => g !== guardrailId);
    if (others.length > 0) found.set(id, others);
  }
  if (found.size === 0) return {};
  const facts = new Map<string, Promise<GuardrailFacts>>();
  const factsOf = (id: string): Promise<GuardrailFacts> => {
    let known = facts.get(id);
    if (!known) {
      known =
        // Members need each guardrail's workspace, so every one is read; keys only want a name.
        HOLD_SCOPE[kind.noun] === "organization" && facts.size >= MAX_NAMED_GUARDRAILS
          ? Promise.resolve({})
          : guardrailFacts(client, id).catch(() => ({}));
      facts.set(id, known);
    }
    return known;
  };
  const ours = HOLD_SCOPE[kind.noun] === "workspace" ? (await factsOf(guardrailId)).workspaceId : undefined;
  const out: Record<string, string> = {};
  for (const [id, others] of found) {
    for (const other of others) {
      const theirs = await factsOf(other);
      if (!competes(kind.noun, ours, theirs.workspaceId)) continue;
      out[id] = onGuardrail(other, theirs.name);
      break;
    }
  }
  return out;
}
