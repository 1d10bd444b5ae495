/**
 * Loads guardrail configs from one YAML/JSON file or every *.yaml, *.yml, *.json file of a
 * folder, and validates them before any resource is registered: every schema error and
 * every cross-file conflict at once, each with `file:line:column`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import { closest, formatPath, shown } from "../schema/issues";
import { guardrailFileSchema, KNOWN_KEYS, type DeclaredGuardrail } from "./schema";

export interface Located {
  file: string;
  line: number;
  column: number;
}

export interface LoadedGuardrail {
  id: string;
  settings: DeclaredGuardrail;
  at: Located;
}

/** Every problem found in the files, each already formatted `file:line:column: message`. */
export class DeclarativeConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`${problems.length} problem(s) in guardrail configs:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "DeclarativeConfigError";
  }
}

interface ParsedFile {
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
}

/** The files a path stands for: the file itself, or the folder's config files, sorted. */
export function configFiles(pathOrDir: string): string[] {
  if (!statSync(pathOrDir).isDirectory()) return [pathOrDir];
  return readdirSync(pathOrDir)
    .filter((f) => /\.(ya?ml|json)$/i.test(f))
    .sort()
    .map((f) => join(pathOrDir, f));
}

export function loadGuardrailConfigs(pathOrDir: string, options: { cwd?: string } = {}): LoadedGuardrail[] {
  const cwd = options.cwd ?? process.cwd();
  const problems: string[] = [];
  const loaded: LoadedGuardrail[] = [];
  let files: string[];
  try {
    files = configFiles(pathOrDir);
  } catch (err) {
    throw new DeclarativeConfigError([`${pathOrDir}: cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); expected a YAML/JSON file or a folder of them`]);
  }
  if (files.length === 0) throw new DeclarativeConfigError([`${pathOrDir}: no *.yaml, *.yml or *.json files`]);

  const seen = new Map<string, Located>();
  const memberSites: Site[] = [];
  const keySites: Site[] = [];
  for (const path of files) {
    const name = relative(cwd, path) || path;
    const lines = new LineCounter();
    const doc = parseDocument(readFileSync(path, "utf8"), { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
    const parsed: ParsedFile = { file: name, doc, lines };
    if (doc.errors.length > 0) {
      for (const e of doc.errors) problems.push(`${at(parsed, e.pos[0])}: ${e.message.split("\n")[0]}`);
      continue;
    }
    const result = guardrailFileSchema.safeParse(doc.toJS(), { reportInput: true });
    if (!result.success) {
      for (const issue of result.error.issues) {
        if (issue.code === "unrecognized_keys") {
          for (const key of issue.keys) {
            const guess = closest(key, knownAt(issue.path));
            problems.push(`${at(parsed, offsetOf(doc, [...issue.path, key], "key"))}: ${formatPath([...issue.path, key])}: unknown field${guess ? `; did you mean "${guess}"?` : ""}`);
          }
          continue;
        }
        const missing = issue.code === "invalid_type" && "input" in issue && issue.input === undefined;
        const got = "input" in issue && issue.input !== undefined ? ` (got ${shown(issue.input)})` : "";
        const path = issue.path.length > 0 ? formatPath(issue.path) : "(file)";
        // A bad record key: zod nests the key's own issue; its message is the useful one.
        const message = issue.code === "invalid_key" ? (issue.issues[0]?.message ?? issue.message) : missing ? "is required" : issue.message;
        problems.push(`${at(parsed, offsetOf(doc, issue.path, issue.code === "invalid_key" ? "key" : "value"))}: ${path}: ${message}${got}`);
      }
      continue;
    }
    for (const [id, settings] of Object.entries(result.data.guardrails)) {
      const here = locate(parsed, ["guardrails", id], "key");
      const before = seen.get(id);
      if (before) problems.push(`${fmt(here)}: guardrail id "${id}" is declared twice (also at ${fmt(before)}); ids must be unique across files`);
      else seen.set(id, here);
      loaded.push({ id, settings, at: here });
      // A loop, not a spread: a spread of a million ids into push() overflows the stack.
      for (const site of sites(parsed, id, settings, "members")) memberSites.push(site);
      for (const site of sites(parsed, id, settings, "keys")) keySites.push(site);
    }
  }
  for (const p of conflicts(memberSites, "member", (s) => `${s.workspace}`, "a member holds one guardrail per workspace, so it would bounce between them on every up")) problems.push(p);
  for (const p of conflicts(keySites, "key", () => "*", "a key holds one guardrail at all, so it would bounce between them on every up")) problems.push(p);
  if (problems.length > 0) throw new DeclarativeConfigError(problems.sort(byPosition));
  return loaded;
}

interface Site {
  guardrail: string;
  workspace: string;
  id: string;
  /** Where the id stands, looked up only when a conflict is reported (a million lookups cost seconds). */
  at: () => Located;
}

function sites(parsed: ParsedFile, guardrail: string, settings: DeclaredGuardrail, set: "members" | "keys"): Site[] {
  const ids = settings[set]?.ids ?? [];
  const workspace = settings.workspaceId ?? "the default workspace";
  return ids.map((id, i) => ({ guardrail, workspace, id, at: () => locate(parsed, ["guardrails", guardrail, set, "ids", i], "value") }));
}

function conflicts(all: Site[], noun: string, scope: (s: Site) => string, why: string): string[] {
  const first = new Map<string, Site>();
  const out: string[] = [];
  for (const s of all) {
    const key = `${scope(s)}\u0000${s.id}`;
    const prior = first.get(key);
    if (!prior) first.set(key, s);
    else if (prior.guardrail !== s.guardrail) {
      out.push(`${fmt(s.at())}: ${noun} "${s.id}" is in guardrails "${prior.guardrail}" (${fmt(prior.at())}) and "${s.guardrail}"${noun === "member" ? ` of ${s.workspace}` : ""}; ${why}`);
    }
  }
  return out;
}

function knownAt(path: readonly PropertyKey[]): string[] {
  if (path.length === 0) return KNOWN_KEYS.file;
  if (path.length === 2) return KNOWN_KEYS.guardrail;
  const last = path[path.length - 1];
  if (path.length === 3 && (last === "members" || last === "keys")) return KNOWN_KEYS.set;
  if (path.includes("contentFilterBuiltins")) return KNOWN_KEYS.builtin;
  if (path.includes("contentFilters")) return KNOWN_KEYS.filter;
  return [];
}

/** Source offset of the node at `path` (its key or value), or of the nearest ancestor that exists. */
function offsetOf(doc: Document.Parsed, path: readonly PropertyKey[], want: "key" | "value"): number {
  let node: Node | null | undefined = doc.contents;
  let best = node?.range?.[0] ?? 0;
  for (let i = 0; i < path.length && node; i++) {
    const seg = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === seg);
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

function locate(parsed: ParsedFile, path: readonly PropertyKey[], want: "key" | "value"): Located {
  const { line, col } = parsed.lines.linePos(offsetOf(parsed.doc, path, want));
  return { file: parsed.file, line, column: col };
}

function at(parsed: ParsedFile, offset: number): string {
  const { line, col } = parsed.lines.linePos(offset);
  return `${parsed.file}:${line}:${col}`;
}

/** Orders `file:line:column: ...` messages by file, then line, then column. */
function byPosition(a: string, b: string): number {
  const key = (m: string) => /^(.*?):(\d+):(\d+): /.exec(m) ?? ["", m, "0", "0"];
  const [, fa = "", la = "0", ca = "0"] = key(a);
  const [, fb = "", lb = "0", cb = "0"] = key(b);
  return fa.localeCompare(fb) || Number(la) - Number(lb) || Number(ca) - Number(cb);
}

const fmt = (l: Located) => `${l.file}:${l.line}:${l.column}`;
