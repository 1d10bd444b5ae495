/**
 * Source positions in a parsed YAML document: `file:line:column` for a path of keys and
 * indices, so every problem points at what to edit.
 */
import { isMap, isScalar, isSeq, visit, type Document, type LineCounter, type Node } from "yaml";

export interface Located {
  file: string;
  line: number;
  column: number;
}

export interface ParsedFile {
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
  text: string;
}

/** Source offset of the node at `path` (its key or value), or of the nearest ancestor that exists. */
export function offsetOf(doc: Document.Parsed, path: readonly PropertyKey[], want: "key" | "value"): number {
  let node: Node | null | undefined = doc.contents;
  let best = node?.range?.[0] ?? 0;
  for (let i = 0; i < path.length && node; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === String(seg));
      if (!pair) break;
      const last = i === path.length - 1;
      const keyNode = pair.key as Node | null;
      if (keyNode?.range) best = keyNode.range[0];
      if (last && want === "key") return best;
      node = pair.value as Node | null;
      if (node?.range && !(last && want === "key")) best = last || isScalar(node) ? node.range[0] : best;
    } else if (isSeq(node) && typeof seg === "number") {
      node = node.items[seg] as Node | null;
      if (node?.range) best = node.range[0];
    } else break;
  }
  return best;
}

/** `file:line:column` of a source offset. */
export function at(parsed: ParsedFile, offset: number): string {
  const { line, col } = parsed.lines.linePos(offset);
  return `${parsed.file}:${line}:${col}`;
}

/** Where the node at `path` (its key or value) starts. */
export function positionOf(parsed: ParsedFile, path: readonly PropertyKey[], want: "key" | "value"): Located {
  const { line, col } = parsed.lines.linePos(offsetOf(parsed.doc, path, want));
  return { file: parsed.file, line, column: col };
}

export const fmt = (l: Located) => `${l.file}:${l.line}:${l.column}`;

/** The text of a node as written in the file (`007`, not 7). */
export function written(parsed: ParsedFile, node: Node): string {
  return node.range ? parsed.text.slice(node.range[0], node.range[1]).trim() : String(isScalar(node) ? node.value : "");
}

/**
 * The key the parser found repeated at `offset` (its DUPLICATE_KEY error), as read (escapes
 * decoded), and where the same key first appears in that mapping.
 */
export function duplicateKeyAt(
  doc: Document.Parsed,
  offset: number,
): { key: unknown; first?: number | undefined } | undefined {
  let found: { key: unknown; first?: number | undefined } | undefined;
  visit(doc, {
    Map(_, map) {
      const i = map.items.findIndex((p) => (p.key as Node | null)?.range?.[0] === offset);
      if (i < 0) return undefined;
      const key = map.items[i]!.key;
      const value = isScalar(key) ? key.value : key;
      const first = map.items.slice(0, i).find((p) => p.key === key || (isScalar(p.key) && p.key.value === value));
      found = { key: value, first: (first?.key as Node | null)?.range?.[0] };
      return visit.BREAK;
    },
  });
  return found;
}
