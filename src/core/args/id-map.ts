/**
 * A set's ids as the program lists them and as the map the engine diffs key by key
 * (`{id: true}`; core/args/assignment-args.ts says why a map). The one pair every face and
 * library converts with: the dynamic face's classes (the set resources' and, for their id
 * lists, the workspace policies': core/policies/id-maps.ts), the native face's check and
 * outputs, the PR summary. Each caller keeps its own failure behaviour (the native face names each bad
 * entry; the PR summary skips what is not a string).
 */

/** The id map of a list of ids: `{id: true}`, each id once, in the list's order (sort the list first for a canonical map). */
export function toIdMap(ids: Iterable<string>): Record<string, true> {
  // Entries, not assignment: an id spelled `__proto__` stays an id.
  return Object.fromEntries(Array.from(ids, (id) => [id, true as const]));
}

/** The program's list back from an id map: the ids assigned here (`true`, not a status a read recorded), sorted. */
export function assignedIds(map: Readonly<Record<string, unknown>> | null | undefined): string[] {
  const m = map ?? {};
  return Object.keys(m)
    .filter((id) => m[id] === true)
    .sort();
}
