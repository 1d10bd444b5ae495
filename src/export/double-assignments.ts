/**
 * Ids the service reports on two guardrails where the holder rule (core/holders.ts) allows
 * one: a member twice in one workspace, a key twice at all. The service never does this, but
 * a race between list pages could show it; the loader would then reject the files, so the
 * export says which ids first.
 */
import { shown } from "../core/args/messages";
import { heldTwice, heldTwiceMessage, type Holder } from "../core/holders";
import type { LiveGuardrail } from "./declared";
import { idShown } from "./elsewhere";

/** One message per id held twice, naming the id and both guardrails by their stable ids. */
export function doubleAssignments(live: readonly LiveGuardrail[], stableIds: ReadonlyMap<string, string>): string[] {
  const holders: Holder[] = live.flatMap(({ guardrail, members, keys }) => [
    ...members.map((id) => ({
      noun: "member" as const,
      id,
      guardrail: guardrail.id,
      workspace: guardrail.workspace_id,
    })),
    ...keys.map((id) => ({ noun: "key" as const, id, guardrail: guardrail.id })),
  ]);
  return heldTwice(holders).map(({ first, again }) => {
    const ws = again.workspace ? `workspace ${idShown(again.workspace.toLowerCase())}` : "the default workspace";
    return heldTwiceMessage(
      again.noun,
      shown(again.id),
      `"${stableIds.get(first.guardrail)}"`,
      `"${stableIds.get(again.guardrail)}"`,
      ws,
      "the files will not load until it is removed from one of them",
    );
  });
}
