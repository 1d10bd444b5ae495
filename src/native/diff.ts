/**
 * The core's diff (src/core/results.ts) as a `DiffResponse` with a detailed diff: each change
 * at a path the engine can show, the replace kinds marked, `deleteBeforeReplace` as the core
 * decided, and the top-level names in `diffs` and `replaces` for engines that read only those.
 * Only the core's changes are listed, so bookkeeping (`args`, `modelAnswers`, `updatedAt`, ...)
 * is never shown, and neither is what the core finds equal (a model's slug for its canonical slug).
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { keyPath, type ChangeKind, type DiffResult, type PropertyChange } from "../core/results";
import { ID_MAP_OF } from "./policy-lists";

const KINDS: Record<ChangeKind, provproto.PropertyDiff.Kind> = {
  add: provproto.PropertyDiff.Kind.ADD,
  delete: provproto.PropertyDiff.Kind.DELETE,
  update: provproto.PropertyDiff.Kind.UPDATE,
  replace: provproto.PropertyDiff.Kind.UPDATE_REPLACE,
};

/** The top-level property a path starts with (`members["x"]` -> `members`). */
const root = (path: string): string => path.split(/[.[]/)[0] ?? path;

type Bag = Record<string, unknown>;

/** Where the entry with this key sits in a list (an id by itself, a builtin by slug, a custom filter by pattern); -1 if absent. */
function indexOf(list: unknown, key: string): number {
  if (!Array.isArray(list)) return -1;
  // `?.` reads nothing from null and a primitive's property is undefined: only an entry object matches by field.
  return list.findIndex((e) => e === key || (e as Bag | null)?.slug === key || (e as Bag | null)?.pattern === key);
}

const isMap = (v: unknown): boolean => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * A key path into a list as paths the engine can resolve, or `undefined` when the key is in
 * neither list. The engine looks each path up in the old inputs and the new inputs
 * (pkg/engine/detailedDiff.go, InputDiff): a string key into a list finds nothing, so the entry
 * shows as `<null>` (3.248) or `[unknown]` (3.259). An index path shows the entry's values: an
 * add at its new index, a delete at its old one, an update at its index when that is the same
 * in both, else as a delete at the old index and an add at the new one (a move). A policy's id
 * list has an id map beside it (policy-lists.ts): an id joining is its key in the new map, one
 * leaving its key in the old map (an old state with no map: its old index).
 */
export function resolvable(c: PropertyChange, olds: Bag, news: Bag): PropertyChange[] | undefined {
  const m = /^([A-Za-z]+)\[(".*")\]$/.exec(c.path);
  if (!m) return [c];
  // Both groups always capture when the expression matches.
  const prop = m[1]!;
  const key = JSON.parse(m[2]!) as string;
  // A key into a map (a set's status map) is a path the engine resolves as it is.
  if (isMap(olds[prop]) || isMap(news[prop])) return [c];
  const map = Object.hasOwn(ID_MAP_OF, prop) ? ID_MAP_OF[prop] : undefined;
  const held = (side: Bag) => map !== undefined && isMap(side[map]) && Object.hasOwn(side[map] as Bag, key);
  if ((c.kind === "add" && held(news)) || (c.kind === "delete" && held(olds)))
    return [{ path: keyPath(map!, key), kind: c.kind }];
  const [o, n] = [indexOf(olds[prop], key), indexOf(news[prop], key)];
  const at = (i: number, kind: ChangeKind): PropertyChange => ({ path: `${prop}[${i}]`, kind });
  if (c.kind === "add") return n >= 0 ? [at(n, "add")] : undefined;
  if (c.kind === "delete") return o >= 0 ? [at(o, "delete")] : undefined;
  if (o < 0 || n < 0) return undefined;
  return o === n ? [at(o, c.kind)] : [at(o, "delete"), at(n, "add")];
}

/**
 * Every change as paths the engine shows. A property with a key the lists do not hold is
 * listed whole (the engine then shows its own diff of it). The engine's display keeps one
 * entry per index, so a delete and an add at one index are one update there.
 */
export function shownChanges(changes: readonly PropertyChange[], olds: Bag, news: Bag): PropertyChange[] {
  const resolved = changes.map((c) => [c, resolvable(c, olds, news)] as const);
  const whole = new Set(resolved.filter(([, r]) => r === undefined).map(([c]) => root(c.path)));
  const byPath = new Map<string, PropertyChange>();
  for (const p of whole) byPath.set(p, { path: p, kind: "update" });
  for (const [c, r] of resolved) {
    // A change that resolves to nothing put its property in `whole`.
    if (whole.has(root(c.path))) continue;
    for (const x of r!) {
      const seen = byPath.get(x.path);
      const kind =
        seen && seen.kind !== x.kind
          ? seen.kind === "replace" || x.kind === "replace"
            ? "replace"
            : "update"
          : x.kind;
      byPath.set(x.path, { path: x.path, kind });
    }
  }
  return [...byPath.values()];
}

/**
 * The response to Diff. `olds` are the recorded inputs, which the engine shows old values
 * from; a top-level arg the program had omitted shows the value that omission meant, from
 * the recorded outputs `outs` (`~ workspaceId: "<default>" => "<other>"`, not `+ workspaceId`).
 */
export function diffResponse(d: DiffResult, olds: Bag, news: Bag, outs: Bag = {}): provproto.DiffResponse {
  const resp = new provproto.DiffResponse();
  const detailed = resp.getDetaileddiffMap();
  for (const c of shownChanges(d.changes, olds, news)) {
    const pd = new provproto.PropertyDiff();
    pd.setKind(KINDS[c.kind]);
    // Only a top-level path names a key of `outs` (an index path such as `allowedModels[0]` is none).
    const omitted = olds[c.path] === undefined && outs[c.path] != null;
    pd.setInputdiff(!omitted);
    detailed.set(c.path, pd);
  }
  resp.setHasdetaileddiff(true);
  resp.setChanges(
    d.changes.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  resp.setDiffsList([...new Set(d.changes.map((c) => root(c.path)))]);
  resp.setReplacesList([...new Set(d.changes.filter((c) => c.kind === "replace").map((c) => root(c.path)))]);
  resp.setDeletebeforereplace(d.deleteBeforeReplace === true);
  return resp;
}
