/**
 * The order of a set-valued arg as a face records it, for a face whose engine shows list
 * changes by index (the native face: its detailed diff's paths are looked up in the old and
 * the new inputs, one entry per index). A set's order means nothing to the service or to diff
 * (fields.ts: compared sorted), so the new list is put in the old one's order (`inOldOrder`),
 * and an added and a deleted entry share an index only when the list leaves no other room. Never used by the dynamic face, whose
 * stored inputs stay the program's own.
 */
import { FIELD_NAMES, spec } from "../fields/fields";
import { containsUnknown } from "../markers";

type Bag = Record<string, unknown>;

/** A set entry's key: an id by itself, a builtin by its slug. */
const keyOf = (e: unknown): string => (typeof e === "string" ? e : JSON.stringify((e as Bag | null)?.slug ?? e));

/**
 * `news` in the order of `olds` (a permutation of `news`): an entry whose value changed stays
 * at its index (the engine then shows it as an update there); the places of deleted entries go
 * to unchanged kept ones; added entries take places no deleted entry had; the other kept
 * entries stay where they were when they can. The same set comes back in the recorded order.
 */
export function inOldOrder<T>(olds: readonly unknown[], news: readonly T[]): T[] {
  const was = olds.map(keyOf);
  const now = new Set(news.map(keyOf));
  const pos: (T | undefined)[] = new Array(news.length).fill(undefined);
  const place = (i: number, e: T): boolean => {
    if (i < 0 || i >= pos.length || pos[i] !== undefined) return false;
    pos[i] = e;
    return true;
  };
  const oldAt = (e: T) => was.indexOf(keyOf(e));
  const same = (e: T) => JSON.stringify(olds[oldAt(e)]) === JSON.stringify(e);
  const added = news.filter((e) => oldAt(e) < 0);
  const changed = news.filter((e) => oldAt(e) >= 0 && !same(e) && !place(oldAt(e), e));
  let unchanged = news.filter((e) => oldAt(e) >= 0 && same(e));
  const deleted = new Set(was.flatMap((k, i) => (now.has(k) ? [] : [i])));
  // Deleted entries' places, to unchanged kept ones (those that cannot stay put first).
  unchanged.sort((x, y) => Number(oldAt(x) < pos.length) - Number(oldAt(y) < pos.length));
  for (const i of [...deleted].filter((i) => i < pos.length)) {
    const e = unchanged.shift();
    if (e !== undefined) place(i, e);
  }
  unchanged = unchanged.filter((e) => !place(oldAt(e), e));
  const free = pos.flatMap((e, i) => (e === undefined ? [i] : []));
  const order = [...free.filter((i) => !deleted.has(i)), ...free.filter((i) => deleted.has(i))];
  for (const e of [...added, ...changed, ...unchanged]) pos[order.shift()!] = e;
  return pos as T[];
}

const SET_ARGS = FIELD_NAMES.filter((k) => ["set", "modelSet", "filterSet"].includes(spec(k).kind));

/**
 * The new inputs with each set-valued arg in the old inputs' order, except under `skip` (args
 * a face must leave as sent, e.g. secrets) and where either side is not a known list.
 */
export function setsInOldOrder(oldInputs: Bag, news: Bag, skip: readonly string[] = []): Bag {
  const out = { ...news };
  for (const k of SET_ARGS) {
    const [o, n] = [oldInputs[k], news[k]];
    if (skip.includes(k) || !Array.isArray(o) || !Array.isArray(n) || containsUnknown(o) || containsUnknown(n))
      continue;
    out[k] = inOldOrder(o, n);
  }
  return out;
}
