/** What the service holds, read past the provider: the checks of e2e tests that state may not answer. */
import type { Program } from "./program";

/** The member ids assigned to guardrail `g` on the emulator, sorted. */
export const assignedMembers = async (p: Program, g: string) =>
  ((await p.api("GET", `/guardrails/${g}/assignments/members?limit=100`)).body.data as Array<{ user_id: string }>)
    .map((r) => r.user_id)
    .sort();
