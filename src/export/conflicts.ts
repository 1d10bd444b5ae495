/**
 * Ids the service reports on two guardrails where it allows only one: a member twice in one
 * workspace, a key twice at all. The service never does this, but a race between list pages
 * could show it; the loader would then reject the files, so the export says which ids first.
 */
import { shown } from "../core/args/messages";
import type { LiveGuardrail } from "./declared";
import { idShown } from "./elsewhere";

/** One message per id held twice, naming the id and both guardrails. */
export function doubleAssignments(live: readonly LiveGuardrail[], stableIds: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const seen = new Map<string, string>();
  const note = (scope: string, noun: string, id: string, guardrailId: string, where: string) => {
    const key = `${scope}\u0000${noun}\u0000${id}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, guardrailId);
    else if (first !== guardrailId) out.push(`${noun} ${shown(id)} is on guardrails "${stableIds.get(first)}" and "${stableIds.get(guardrailId)}"${where}; the service allows one, so the files will not load until it is removed from one of them`);
  };
  for (const { guardrail, members, keys } of live) {
    // Workspace ids are UUIDs, equal in any case (as the loader and the provider compare them).
    const ws = guardrail.workspace_id?.toLowerCase() ?? "no workspace";
    for (const m of members) note(ws, "member", m, guardrail.id, ` of workspace ${guardrail.workspace_id ? idShown(ws) : ws}`);
    for (const k of keys) note("*", "key", k, guardrail.id, "");
  }
  return out;
}
