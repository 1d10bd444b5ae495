/**
 * Model identifiers: requests may use a slug or a canonical slug; responses hold canonical
 * slugs in request order with duplicates removed (API-CONTRACT.md rule 4). No operation
 * lists the catalogue, so the provider learns `identifier -> canonical` from each answer and
 * keeps the map in the outputs; diff compares canonical sets and never shows the rewrite as a
 * change (the perpetual diff of the service's Terraform provider, its issue 347).
 */

export type ModelAliases = Record<string, string>;

/** Learns the mapping from one request list and the service's answer to it. */
export function learnAliases(request: readonly string[], response: readonly string[]): ModelAliases {
  const ids = [...new Set(request)];
  const canonical = new Set(response);
  const map: ModelAliases = {};
  const emitted: string[] = [];
  let p = 0;
  ids.forEach((id, i) => {
    if (canonical.has(id)) {
      map[id] = id;
      if (response[p] === id) emitted.push(response[p++]!);
      return;
    }
    const next = response[p];
    // A slug is either the next new canonical or a duplicate of one already emitted. It must
    // be new when the remaining ids are exactly as many as the remaining answers.
    const mustBeNew = ids.length - i === response.length - p;
    const dupOf = emitted.find((c) => c.startsWith(id));
    if (next !== undefined && (mustBeNew || emitted.length === 0 || next.startsWith(id) || dupOf === undefined)) {
      map[id] = next;
      emitted.push(next);
      p++;
    } else if (dupOf !== undefined) {
      map[id] = dupOf;
    }
  });
  return map;
}

/** The canonical, sorted, duplicate-free set a list stands for. Unknown ids stay as written. */
export function canonicalSet(ids: readonly string[] | null | undefined, aliases: ModelAliases): string[] | null {
  if (!ids) return null;
  return [...new Set(ids.map((id) => aliases[id] ?? id))].sort();
}
