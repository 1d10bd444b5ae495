/**
 * Loads guardrail configs from one YAML/JSON file or every *.yaml, *.yml, *.json file of a
 * folder, and validates them before any resource is registered: every problem of every file,
 * cross-file conflicts included, in one run, each with `file:line:column`.
 */
import { relative } from "node:path";
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLError } from "yaml";
import { closest, formatPath, shown } from "../core/args/messages";
import { escapeInvisible } from "../core/text/controls";
import { crossFileProblems, declaredIn, type Declared } from "./cross-file";
import { at, duplicateKeyAt, positionOf, offsetOf, written, type Located, type ParsedFile } from "./source-positions";
import { hasDuplicateKey } from "./json-keys";
import { readConfigFiles } from "./read-files";
import { guardrailFileSchema, KNOWN_KEYS, type DeclaredGuardrail } from "./file-schema";
import { UserError } from "../core/user-error";

/** Where a declared guardrail is written (`file:line:column`). */
export type { Located } from "./source-positions";

/** One declared guardrail: its stable id, its validated settings, and where it is written. */
export interface LoadedGuardrail {
  id: string;
  settings: DeclaredGuardrail;
  at: Located;
}

/** Aliases one file may expand; past it YAML stops with an error (an alias bomb). */
const MAX_ALIAS_COUNT = 100;

/** Controls (ANSI escapes, newlines) and other invisible characters in a problem are shown escaped, never sent to a terminal. */
const printable = escapeInvisible;

/**
 * Every problem found in the files, each already formatted `file:line:column: message`.
 * Marked as a Pulumi run error, so the CLI prints the message alone: no stack, and no colour
 * codes in logs or in `--json` diagnostics.
 */
export class DeclarativeConfigError extends UserError {
  readonly problems: string[];
  constructor(problems: string[]) {
    const clean = problems.map(printable);
    super(`${clean.length} problem(s) in guardrail configs:\n${clean.map((p) => `  ${p}`).join("\n")}`);
    this.problems = clean;
  }
}

/**
 * Every guardrail the files declare, or a `DeclarativeConfigError` holding every problem of
 * every file. `cwd` makes the file names in problems relative. @default process.cwd()
 */
export function loadGuardrailConfigs(pathOrDir: string, options: { cwd?: string } = {}): LoadedGuardrail[] {
  const cwd = options.cwd ?? process.cwd();
  let files: ReturnType<typeof readConfigFiles>;
  try {
    files = readConfigFiles(pathOrDir);
  } catch (err) {
    throw new DeclarativeConfigError([
      `${pathOrDir}: cannot read (${(err as NodeJS.ErrnoException).code ?? "error"}); expected a YAML/JSON file or a folder of them`,
    ]);
  }
  if (files.length === 0) throw new DeclarativeConfigError([`${pathOrDir}: no *.yaml, *.yml or *.json files`]);

  const problems: string[] = [];
  const loaded: LoadedGuardrail[] = [];
  const declared: Declared[] = [];
  for (const f of files) {
    const name = relative(cwd, f.path) || f.path;
    if ("problem" in f) {
      problems.push(`${name}: ${f.problem}`);
      continue;
    }
    const one = loadFile(name, f.text);
    for (const x of one.problems) problems.push(x);
    for (const x of one.loaded) loaded.push(x);
    for (const d of one.declared) declared.push(d);
  }
  for (const x of crossFileProblems(declared)) problems.push(x);
  if (problems.length > 0) throw new DeclarativeConfigError(problems.sort(byPosition));
  return loaded;
}

/** One file: its own problems, what it declares (for the cross-file checks), and its guardrails when valid. */
function loadFile(file: string, text: string): { problems: string[]; loaded: LoadedGuardrail[]; declared: Declared[] } {
  // A valid JSON file skips the YAML parser (about 50 times slower on a million ids); the
  // YAML document is built only if a problem needs a position.
  const fast = /\.json$/i.test(file) && !hasDuplicateKey(text) ? parseJson(text) : undefined;
  let parsedDoc: ParsedFile | undefined;
  const parsed = (): ParsedFile => {
    if (!parsedDoc) {
      const lines = new LineCounter();
      parsedDoc = {
        file,
        doc: parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true }),
        lines,
        text,
      };
    }
    return parsedDoc;
  };
  let js: unknown;
  if (fast) js = fast.value;
  else {
    const { doc } = parsed();
    if (doc.errors.length > 0)
      return { problems: doc.errors.map((e) => parseProblem(parsed(), e)), loaded: [], declared: [] };
    try {
      js = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      return {
        problems: [
          `${file}:1:1: cannot be read as data: ${(err as Error).message} (at most ${MAX_ALIAS_COUNT} alias expansions)`,
        ],
        loaded: [],
        declared: [],
      };
    }
  }
  const problems: string[] = [];
  const coerced = fast ? new Set<string>() : coercedIds(parsed(), problems);
  const result = guardrailFileSchema.safeParse(js, { reportInput: true });
  if (!result.success) {
    for (const issue of result.error.issues) {
      if (coerced.has(formatPath(issue.path))) continue;
      for (const x of issueProblems(parsed(), issue)) problems.push(x);
    }
  }
  const declared = declaredIn(js, (path, want) => positionOf(parsed(), path, want));
  if (!result.success || coerced.size > 0) return { problems, loaded: [], declared };
  const loaded = Object.entries(result.data.guardrails).map(([id, settings]) => {
    const entry = { id, settings } as LoadedGuardrail;
    Object.defineProperty(entry, "at", {
      enumerable: true,
      get: () => positionOf(parsed(), ["guardrails", id], "key"),
    });
    return entry;
  });
  return { problems, loaded, declared };
}

/** A parse error as a problem; a repeated key is named, with where it first appears (JSON would silently keep the last). */
function parseProblem(parsed: ParsedFile, e: YAMLError): string {
  const dup = e.code === "DUPLICATE_KEY" ? duplicateKeyAt(parsed.doc, e.pos[0]) : undefined;
  if (dup)
    return `${at(parsed, e.pos[0])}: duplicate key ${typeof dup.key === "string" ? JSON.stringify(dup.key) : written(parsed, dup.key as Node)}${dup.first === undefined ? "" : ` (also at ${at(parsed, dup.first)})`}`;
  return `${at(parsed, e.pos[0])}: ${e.message.split("\n")[0]}`;
}

/** `{value}` when `text` is valid JSON, else undefined (the YAML parser then reports where it breaks). */
function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/**
 * Ids YAML read as something other than a string (`1:`, `007:` and `true:` as guardrail ids,
 * `[007]` as member ids): each is a problem showing the id as written. Left alone, `1:` and
 * `"1":` would both become id "1" and one guardrail would silently vanish.
 */
function coercedIds(parsed: ParsedFile, problems: string[]): Set<string> {
  const paths = new Set<string>();
  const guardrails =
    parsed.doc.contents && isMap(parsed.doc.contents)
      ? parsed.doc.contents.items.find((p) => isScalar(p.key) && p.key.value === "guardrails")?.value
      : undefined;
  if (!isMap(guardrails)) return paths;
  const report = (node: Node, path: PropertyKey[], what: string) => {
    const value = isScalar(node) ? node.value : undefined;
    const as = value === null ? "null" : `the ${typeof value} ${String(value)}`;
    const text = written(parsed, node);
    problems.push(
      `${at(parsed, node.range?.[0] ?? 0)}: ${formatPath(path)}: ${what} ${text} was read by YAML as ${as}; quote it ("${text.replace(/"/g, '\\"')}") to keep it as written`,
    );
    paths.add(formatPath(path));
  };
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

type Issue = import("zod").core.$ZodIssue;

function issueProblems(parsed: ParsedFile, issue: Issue): string[] {
  const { doc } = parsed;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const guess = closest(key, knownAt(issue.path));
      const suggestion = guess && guess !== key ? `; did you mean "${guess}"?` : "";
      return `${at(parsed, offsetOf(doc, [...issue.path, key], "key"))}: ${formatPath([...issue.path, key])}: unknown field${suggestion}`;
    });
  }
  const input = "input" in issue ? issue.input : undefined;
  const missing = issue.code === "invalid_type" && input === undefined;
  // The whole file's value is described, never quoted: a wrong top level is usually a file that is not a config at all.
  const got =
    input === undefined ? "" : issue.path.length === 0 ? ` (got ${describe(input)})` : ` (got ${shown(input)})`;
  const path = issue.path.length > 0 ? formatPath(issue.path) : "(file)";
  // A bad record key: zod nests the key's own issue; its message is the useful one.
  const message =
    issue.code === "invalid_key"
      ? (issue.issues[0]?.message ?? issue.message)
      : missing
        ? "is required"
        : issue.message;
  return [
    `${at(parsed, offsetOf(doc, issue.path, issue.code === "invalid_key" ? "key" : "value"))}: ${path}: ${message}${got}`,
  ];
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "string") return `a string of ${value.length} characters`;
  return `a ${typeof value}`;
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

/** Orders `file:line:column: ...` messages by file, then line, then column. */
function byPosition(a: string, b: string): number {
  const key = (m: string) => /^(.*?):(\d+):(\d+): /.exec(m) ?? ["", m.split(": ")[0] ?? m, "0", "0"];
  const [, fa = "", la = "0", ca = "0"] = key(a);
  const [, fb = "", lb = "0", cb = "0"] = key(b);
  return fa.localeCompare(fb) || Number(la) - Number(lb) || Number(ca) - Number(cb);
}
