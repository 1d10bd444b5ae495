/** Adopting the assignments of a loaded guardrail file with the provider, as the engine would. */
import type { DeclaredGuardrail } from "../../src/declarative/file-schema";
import { keyAssignment, memberAssignment } from "../../src/dynamic/internal";

/**
 * Creates the member and key assignments `settings` declares on `guardrailId` (those it has),
 * then diffs each created one against the same inputs: answers the diffs, members first.
 */
export async function adoptAssignments(guardrailId: string, settings: Pick<DeclaredGuardrail, "members" | "keys">) {
  const diffs: Array<{ changes?: boolean }> = [];
  for (const [set, lifecycle, field] of [
    [settings.members, memberAssignment, "members"],
    [settings.keys, keyAssignment, "keys"],
  ] as const) {
    if (!set) continue;
    const news = {
      __provider: "p",
      guardrailId,
      [field]: Object.fromEntries(set.ids.map((id) => [id, true])),
      exclusive: set.exclusive ?? false,
    };
    const created = await lifecycle.create(news);
    diffs.push(await lifecycle.diff(created.id, created.outs, news));
  }
  return diffs;
}
