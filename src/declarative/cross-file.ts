/**
 * Checks across files: an id declared twice, a workspace's default declared twice, two guardrails adopting one guardrail, a member
 * under two guardrails of one workspace, a key under two guardrails. Workspace and adopted ids
 * are UUIDs, compared in any case. They read what each file declares loosely (not only files that
 * passed validation), so one run reports these along with every per-file problem.
 */
import { heldTwice, heldTwiceMessage, MOVES_EVERY_UP } from "../core/holders";
import { shown } from "../core/args/messages";
import { fmt, type Located } from "./source-positions";

/** What one file declares about one guardrail, as far as it can be read. Positions are found only when a problem is reported. */
export interface Declared {
  id: string;
  at: () => Located;
  /** The workspace as written (for messages), or "the default workspace". */
  workspace: string;
  /** The workspace id as written, when it is a string. */
  workspaceId?: string;
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
        if (typeof x === "string" && x !== "")
          found.push({ id: x, at: () => where(["guardrails", id, set, "ids", i], "value") });
      });
      return found;
    };
    const adopt =
      typeof s.adoptId === "string" && s.adoptId !== ""
        ? { id: s.adoptId, at: () => where(["guardrails", id, "adoptId"], "value") }
        : undefined;
    out.push({
      id,
      at: () => where(["guardrails", id], "key"),
      workspace: typeof s.workspaceId === "string" ? `workspace ${s.workspaceId}` : "the default workspace",
      ...(typeof s.workspaceId === "string" ? { workspaceId: s.workspaceId } : {}),
      ...(adopt ? { adopt } : {}),
      members: sites("members"),
      keys: sites("keys"),
    });
  }
  return out;
}

/** A `workspaceDefaults:` key, as written, and where; or (`what`) a policy's stable id, which is unique across files too. */
export interface DeclaredDefault {
  key: string;
  at: () => Located;
  /** For a policy: its noun in messages (`policy`, `workspace-wide policy`). */
  what?: string;
  /** For a workspace's default policy: `<workspace key, lowercase>/<kind word>` (one per workspace and kind, rule 26). */
  defaultOf?: string;
}

/** The stable ids of a file's `policies:` (every workspace and kind) and `workspaceWidePolicies:`, from its plain JS value. */
export function policyIdsIn(js: unknown, where: Where): DeclaredDefault[] {
  const map = (v: unknown): Record<string, unknown> =>
    v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const file = map(js);
  const out: DeclaredDefault[] = [];
  for (const [ws, kinds] of Object.entries(map(file.policies)))
    for (const [word, byId] of Object.entries(map(kinds)))
      for (const [id, p] of Object.entries(map(byId))) {
        const at = () => where(["policies", ws, word, id], "key");
        out.push({ key: id, what: "policy", at });
        if (map(p).workspaceDefault === true) out.push({ key: id, defaultOf: `${ws.toLowerCase()}/${word}`, at });
      }
  for (const id of Object.keys(map(file.workspaceWidePolicies)))
    out.push({ key: id, what: "workspace-wide policy", at: () => where(["workspaceWidePolicies", id], "key") });
  return out;
}

/** The keys of a file's `workspaceDefaults` mapping, from its plain JS value. */
export function defaultsIn(js: unknown, where: Where): DeclaredDefault[] {
  const defaults = (js as { workspaceDefaults?: unknown } | null)?.workspaceDefaults;
  if (!defaults || typeof defaults !== "object" || Array.isArray(defaults)) return [];
  return Object.keys(defaults).map((key) => ({ key, at: () => where(["workspaceDefaults", key], "key") }));
}

/**
 * Every cross-file problem, formatted `file:line:column: message`. A workspace written once
 * by id and once by slug is not seen here (that takes the service): the two resources would
 * manage one guardrail, so the docs ask for one spelling.
 */
export function crossFileProblems(all: Declared[], defaults: DeclaredDefault[] = []): string[] {
  const out: string[] = [];
  const workspaces = new Map<string, DeclaredDefault>();
  const ids = new Map<string, DeclaredDefault>();
  const policyDefaults = new Map<string, DeclaredDefault>();
  for (const d of defaults.filter((x) => x.defaultOf)) {
    const before = policyDefaults.get(d.defaultOf!);
    const [ws, word] = d.defaultOf!.split("/") as [string, string];
    // A new default unsets the old one, so which stayed would depend on the order of the creates.
    if (before)
      out.push(
        `${fmt(d.at())}: workspace ${shown(ws)} has one default ${word} policy, and "${before.key}" (${fmt(before.at())}) is already it; mark one of them workspaceDefault`,
      );
    else policyDefaults.set(d.defaultOf!, d);
  }
  for (const d of defaults.filter((x) => x.what)) {
    const key = `${d.what}:${d.key}`;
    const before = ids.get(key);
    if (before)
      out.push(
        `${fmt(d.at())}: ${d.what} id "${d.key}" is declared twice (also at ${fmt(before.at())}); ids must be unique across files, whatever the workspace or kind`,
      );
    else ids.set(key, d);
  }
  for (const d of defaults.filter((x) => !x.what && !x.defaultOf)) {
    // A UUID compares in any case, and so does a slug: the service's slugs are lowercase, so
    // `Prod` and `prod` name one workspace or none, never two.
    const key = d.key.toLowerCase();
    const before = workspaces.get(key);
    if (before)
      out.push(
        `${fmt(d.at())}: the default guardrail of workspace ${shown(d.key)} is declared twice (also at ${fmt(before.at())}); declare each workspace's default once across files`,
      );
    else workspaces.set(key, d);
  }
  const seen = new Map<string, Declared>();
  for (const d of all) {
    const before = seen.get(d.id);
    if (before)
      out.push(
        `${fmt(d.at())}: guardrail id "${d.id}" is declared twice (also at ${fmt(before.at())}); ids must be unique across files`,
      );
    else seen.set(d.id, d);
  }
  for (const x of adoptedTwice(all)) out.push(x);
  for (const x of heldTwiceIn(all)) out.push(x);
  return out;
}

/** Ids the holder rule allows once (core/holders.ts) under two guardrails, each at its later site. */
function heldTwiceIn(all: Declared[]): string[] {
  const holders = [
    ...all.flatMap((d) =>
      d.members.map((site) => ({
        noun: "member" as const,
        id: site.id,
        guardrail: d.id,
        workspace: d.workspaceId,
        site,
        d,
      })),
    ),
    ...all.flatMap((d) => d.keys.map((site) => ({ noun: "key" as const, id: site.id, guardrail: d.id, site, d }))),
  ];
  return heldTwice(holders).map(
    ({ first, again }) =>
      `${fmt(again.site.at())}: ${heldTwiceMessage(again.noun, `"${again.id}"`, `"${first.guardrail}" (${fmt(first.site.at())})`, `"${again.guardrail}"`, again.d.workspace, MOVES_EVERY_UP)}`,
  );
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
    else if (prior.id !== d.id)
      out.push(
        `${fmt(d.adopt.at())}: guardrails "${prior.id}" (${fmt(prior.adopt!.at())}) and "${d.id}" both adopt guardrail ${d.adopt.id}; a guardrail is managed by one resource, so each up would set it to the other's settings. Keep one of them`,
      );
  }
  return out;
}
