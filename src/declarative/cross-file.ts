/**
 * Checks across files: an id declared twice, two guardrails adopting one guardrail, a member
 * under two guardrails of one workspace, a key under two guardrails. Workspace and adopted ids
 * are UUIDs, compared in any case. They read what each file declares loosely (not only files that
 * passed validation), so one run reports these along with every per-file problem.
 */
import { fmt, type Located } from "./locate";

/** What one file declares about one guardrail, as far as it can be read. Positions are found only when a problem is reported. */
export interface Declared {
  id: string;
  at: () => Located;
  /** The workspace as written (for messages), or "the default workspace". */
  workspace: string;
  /** The adopted guardrail's id, as written, and where. */
  adopt?: Site;
  members: Site[];
  keys: Site[];
}

interface Site {
  id: string;
  at: () => Located;
}

/** Where a path of a file's data sits in its source. */
export type Where = (path: readonly PropertyKey[], want: "key" | "value") => Located;

/** Declarations of a file's `guardrails` mapping, from its plain JS value; malformed parts are skipped (validation reports them). */
export function declaredIn(js: unknown, where: Where): Declared[] {
  const guardrails = (js as { guardrails?: unknown } | null)?.guardrails;
  if (!guardrails || typeof guardrails !== "object" || Array.isArray(guardrails)) return [];
  const out: Declared[] = [];
  for (const [id, settings] of Object.entries(guardrails)) {
    const s = (settings && typeof settings === "object" ? settings : {}) as Record<string, unknown>;
    const sites = (set: "members" | "keys"): Site[] => {
      const ids = (s[set] as { ids?: unknown } | undefined)?.ids;
      if (!Array.isArray(ids)) return [];
      const found: Site[] = [];
      ids.forEach((x, i) => {
        if (typeof x === "string" && x !== "") found.push({ id: x, at: () => where(["guardrails", id, set, "ids", i], "value") });
      });
      return found;
    };
    const adopt = typeof s.adoptId === "string" && s.adoptId !== "" ? { id: s.adoptId, at: () => where(["guardrails", id, "adoptId"], "value") } : undefined;
    out.push({ id, at: () => where(["guardrails", id], "key"), workspace: typeof s.workspaceId === "string" ? `workspace ${s.workspaceId}` : "the default workspace", ...(adopt ? { adopt } : {}), members: sites("members"), keys: sites("keys") });
  }
  return out;
}

/** Every cross-file problem, formatted `file:line:column: message`. */
export function crossFileProblems(all: Declared[]): string[] {
  const out: string[] = [];
  const seen = new Map<string, Declared>();
  for (const d of all) {
    const before = seen.get(d.id);
    if (before) out.push(`${fmt(d.at())}: guardrail id "${d.id}" is declared twice (also at ${fmt(before.at())}); ids must be unique across files`);
    else seen.set(d.id, d);
  }
  for (const x of adoptedTwice(all)) out.push(x);
  for (const x of conflicts(all, "members", (d) => d.workspace.toLowerCase(), "a member holds one guardrail per workspace, so it would bounce between them on every up")) out.push(x);
  for (const x of conflicts(all, "keys", () => "*", "a key holds one guardrail at all, so it would bounce between them on every up")) out.push(x);
  return out;
}

function conflicts(all: Declared[], set: "members" | "keys", scope: (d: Declared) => string, why: string): string[] {
  const first = new Map<string, { owner: Declared; site: Site }>();
  const out: string[] = [];
  for (const d of all) {
    for (const s of d[set]) {
      const key = `${scope(d)}\u0000${s.id}`;
      const prior = first.get(key);
      if (!prior) first.set(key, { owner: d, site: s });
      else if (prior.owner.id !== d.id) {
        const noun = set === "members" ? "member" : "key";
        out.push(`${fmt(s.at())}: ${noun} "${s.id}" is in guardrails "${prior.owner.id}" (${fmt(prior.site.at())}) and "${d.id}"${set === "members" ? ` of ${d.workspace}` : ""}; ${why}`);
      }
    }
  }
  return out;
}

/** Two guardrails adopting one: both resources would manage it, and each `up` would set it to the other's args (issue 24, finding 18). */
function adoptedTwice(all: Declared[]): string[] {
  const first = new Map<string, Declared>();
  const out: string[] = [];
  for (const d of all) {
    if (!d.adopt) continue;
    const uuid = d.adopt.id.toLowerCase();
    const prior = first.get(uuid);
    if (!prior) first.set(uuid, d);
    else if (prior.id !== d.id) out.push(`${fmt(d.adopt.at())}: guardrails "${prior.id}" (${fmt(prior.adopt!.at())}) and "${d.id}" both adopt guardrail ${d.adopt.id}; a guardrail is managed by one resource, so each up would set it to the other's settings. Keep one of them`);
  }
  return out;
}
