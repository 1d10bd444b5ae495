/**
 * The core's diff (src/core/results.ts) as a `DiffResponse` with a detailed diff: each change
 * at its key path (`contentFilterBuiltins["email"]`), the replace kinds marked, and the
 * top-level names in `diffs` and `replaces` for engines that read only those.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { ChangeKind, DiffResult, PropertyChange } from "../core/results";

const KINDS: Record<ChangeKind, provproto.PropertyDiff.Kind> = {
  add: provproto.PropertyDiff.Kind.ADD,
  delete: provproto.PropertyDiff.Kind.DELETE,
  update: provproto.PropertyDiff.Kind.UPDATE,
  replace: provproto.PropertyDiff.Kind.UPDATE_REPLACE,
};

/** The top-level property a path starts with (`members["x"]` -> `members`). */
const root = (path: string): string => path.split(/[.[]/)[0] ?? path;

type Bag = Record<string, unknown>;

/** Where the entry with this key sits in a list (a builtin by its slug, a plain id by itself); -1 if absent. */
function indexOf(list: unknown, key: string): number {
  if (!Array.isArray(list)) return -1;
  return list.findIndex((e) => e === key || (e && typeof e === "object" && (e as Bag).slug === key));
}

/**
 * A key path into a list as paths the engine can resolve. The engine looks each path up in the
 * old and the new value alike (pkg/engine/detailedDiff.go): a string key into a list finds
 * nothing, so the entry shows as `<null>` (3.248) or `[unknown]` (3.259) and an update vanishes.
 * An index path shows the entry's values: an add at its new index, a delete at its old one, an
 * update at its index when that is the same in both, else as a delete and an add.
 */
export function resolvable(c: PropertyChange, olds: Bag, news: Bag): PropertyChange[] {
  const m = /^([A-Za-z]+)\[(".*")\]$/.exec(c.path);
  if (!m) return [c];
  const [, prop = "", quoted = '""'] = m;
  const key = JSON.parse(quoted) as string;
  const [o, n] = [indexOf(olds[prop], key), indexOf(news[prop], key)];
  if (o < 0 && n < 0) return [c];
  const at = (i: number, kind: ChangeKind): PropertyChange => ({ path: `${prop}[${i}]`, kind });
  if (c.kind === "add" && n >= 0) return [at(n, "add")];
  if (c.kind === "delete" && o >= 0) return [at(o, "delete")];
  if (o >= 0 && o === n) return [at(o, c.kind)];
  return [...(o >= 0 ? [at(o, "delete")] : []), ...(n >= 0 ? [at(n, "add")] : [])];
}

/** A delete and an add at one index are one update there (the engine shows only one of the two). */
function merged(changes: PropertyChange[]): PropertyChange[] {
  const byPath = new Map<string, PropertyChange>();
  for (const c of changes) {
    const seen = byPath.get(c.path);
    const kind =
      seen && seen.kind !== c.kind ? (seen.kind === "replace" || c.kind === "replace" ? "replace" : "update") : c.kind;
    byPath.set(c.path, { path: c.path, kind });
  }
  return [...byPath.values()];
}

export function diffResponse(d: DiffResult, olds?: Bag, news?: Bag): provproto.DiffResponse {
  const resp = new provproto.DiffResponse();
  const detailed = resp.getDetaileddiffMap();
  const changes = olds && news ? merged(d.changes.flatMap((c) => resolvable(c, olds, news))) : d.changes;
  for (const c of changes) {
    const pd = new provproto.PropertyDiff();
    pd.setKind(KINDS[c.kind]);
    pd.setInputdiff(true);
    detailed.set(c.path, pd);
  }
  resp.setHasdetaileddiff(true);
  resp.setChanges(
    d.changes.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  resp.setDiffsList([...new Set(d.changes.map((c) => root(c.path)))]);
  resp.setReplacesList([...new Set(d.changes.filter((c) => c.kind === "replace").map((c) => root(c.path)))]);
  if (d.deleteBeforeReplace) resp.setDeletebeforereplace(true);
  return resp;
}
