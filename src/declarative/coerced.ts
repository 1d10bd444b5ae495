/**
 * Keys and ids that YAML reads as something other than a string (`1:`, `007:`, `true:`), found
 * in the parsed document so each is reported as written.
 */
import { isMap, isScalar, isSeq, type Node } from "yaml";
import { formatPath } from "../core/args/messages";
import { at, written, type ParsedFile } from "./source-positions";

/**
 * Ids YAML read as something other than a string (`1:`, `007:` and `true:` as guardrail ids,
 * `[007]` as member ids): each is a problem showing the id as written. Left alone, `1:` and
 * `"1":` would both become id "1" and one guardrail would silently vanish.
 */
export function coercedIds(parsed: ParsedFile, problems: string[]): Set<string> {
  const paths = new Set<string>();
  const top = (name: string) =>
    parsed.doc.contents && isMap(parsed.doc.contents)
      ? parsed.doc.contents.items.find((p) => isScalar(p.key) && p.key.value === name)?.value
      : undefined;
  const guardrails = top("guardrails");
  const defaults = top("workspaceDefaults");
  const report = (node: Node, path: PropertyKey[], what: string) => {
    const value = isScalar(node) ? node.value : undefined;
    const as = value === null ? "null" : `the ${typeof value} ${String(value)}`;
    const text = written(parsed, node);
    problems.push(
      `${at(parsed, node.range?.[0] ?? 0)}: ${formatPath(path)}: ${what} ${text} was read by YAML as ${as}; quote it ("${text.replace(/"/g, '\\"')}") to keep it as written`,
    );
    paths.add(formatPath(path));
  };
  // `2024:` as a workspace slug would be the number 2024, and beside `"2024":` one would vanish.
  if (isMap(defaults))
    for (const pair of defaults.items) {
      const key = pair.key as Node;
      if (isScalar(key) && typeof key.value !== "string")
        report(key, ["workspaceDefaults", String(key.value)], "workspace key");
    }
  if (!isMap(guardrails)) return paths;
  for (const pair of guardrails.items) {
    const key = pair.key as Node;
    if (isScalar(key) && typeof key.value !== "string") report(key, ["guardrails", String(key.value)], "guardrail id");
    const id = isScalar(key) ? String(key.value) : "";
    if (!isMap(pair.value)) continue;
    for (const set of ["members", "keys"] as const) {
      const setNode = pair.value.items.find((p) => isScalar(p.key) && p.key.value === set)?.value;
      const ids = isMap(setNode)
        ? setNode.items.find((p) => isScalar(p.key) && p.key.value === "ids")?.value
        : undefined;
      if (!isSeq(ids)) continue;
      ids.items.forEach((item, i) => {
        if (isScalar(item) && typeof item.value !== "string" && item.value !== null)
          report(item as Node, ["guardrails", id, set, "ids", i], "id");
      });
    }
  }
  return paths;
}
