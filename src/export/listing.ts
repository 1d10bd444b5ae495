/** What an export's listings showed (fetch.ts makes it; elsewhere.ts reads it), apart so neither imports the other for it. */
import type { WireGuardrail } from "../core/client/wire";

/** What the listings showed: the guardrails of the listed workspaces, and what else was seen on the way. */
export interface Listing {
  all: Map<string, WireGuardrail>;
  /** Guardrails without a workspace that the default workspace's listing showed but the selection does not hold. */
  leftOut: WireGuardrail[];
  /** Guardrails of the default workspace's listing that the selection does not hold. */
  unselectedDefault: WireGuardrail[];
  /** Workspace ids listed (by id, or as the default workspace's listing). */
  listedWorkspaces: Set<string>;
  /** The default listing shows no guardrail with a workspace, so which named workspace is the default one is unknown. */
  defaultUnknown: boolean;
}
