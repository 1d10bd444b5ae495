/**
 * Loads guardrail configs from one YAML/JSON file or every *.yaml, *.yml, *.json file of a
 * folder, and validates them before any resource is registered: every problem of every file,
 * cross-file conflicts included, in one run, each with `file:line:column`.
 */
import { relative } from "node:path";
import { protoKeyIssues } from "./proto-keys";
import { LineCounter, parseDocument, type Node, type YAMLError } from "yaml";
import { formatPath } from "../core/args/messages";
import { escapeInvisible } from "../core/text/controls";
import {
  crossFileProblems,
  declaredIn,
  defaultsIn,
  policyIdsIn,
  type Declared,
  type DeclaredDefault,
} from "./cross-file";
import { at, duplicateKeyAt, positionOf, written, type Located, type ParsedFile } from "./source-positions";
import { hasDuplicateKey } from "./json-keys";
import { readConfigFiles } from "./read-files";
import {
  guardrailFileSchema,
  policyTypeOfSection,
  type DeclaredGuardrail,
  type DeclaredPolicy,
  type DeclaredWorkspaceDefault,
  type DeclaredWorkspaceWidePolicy,
} from "./file-schema";
import type { PolicyTypeName } from "../core/kinds";
import { coercedIds } from "./coerced";
import { byPosition, issueProblems } from "./problems";
import { UserError } from "../core/user-error";

/** Where a declared guardrail is written (`file:line:column`). */
export type { Located } from "./source-positions";

/** One declared guardrail: its stable id, its validated settings, and where it is written. */
export interface LoadedGuardrail {
  id: string;
  settings: DeclaredGuardrail;
  at: Located;
}

/** One declared workspace default guardrail: the workspace (id or slug, as written), its validated settings, and where. */
export interface LoadedWorkspaceDefault {
  workspace: string;
  settings: DeclaredWorkspaceDefault;
  at: Located;
}

/** One declared workspace policy (issue 40): its workspace (id or slug, as written), kind, stable id, validated args, and where. */
export interface LoadedPolicy {
  workspace: string;
  type: PolicyTypeName;
  id: string;
  settings: DeclaredPolicy;
  at: Located;
}

/** One declared workspace-wide policy: its stable id, validated args, and where. */
export interface LoadedWorkspaceWidePolicy {
  id: string;
  settings: DeclaredWorkspaceWidePolicy;
  at: Located;
}

/** Everything the files declare: guardrails by stable id, workspace default guardrails, Guardrail Policies. */
export interface LoadedFiles {
  guardrails: LoadedGuardrail[];
  workspaceDefaults: LoadedWorkspaceDefault[];
  policies: LoadedPolicy[];
  workspaceWidePolicies: LoadedWorkspaceWidePolicy[];
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
 * `loadGuardrailFiles` answers the files' workspace defaults too.
 */
export function loadGuardrailConfigs(pathOrDir: string, options: { cwd?: string } = {}): LoadedGuardrail[] {
  return loadGuardrailFiles(pathOrDir, options).guardrails;
}

/**
 * Every guardrail and every workspace default guardrail the files declare, or a
 * `DeclarativeConfigError` holding every problem of every file, cross-file conflicts included.
 * `cwd` makes the file names in problems relative. @default process.cwd()
 */
export function loadGuardrailFiles(pathOrDir: string, options: { cwd?: string } = {}): LoadedFiles {
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
  const out: LoadedFiles = { guardrails: [], workspaceDefaults: [], policies: [], workspaceWidePolicies: [] };
  const declared: Declared[] = [];
  const defaults: DeclaredDefault[] = [];
  for (const f of files) {
    const name = relative(cwd, f.path) || f.path;
    if ("problem" in f) {
      problems.push(`${name}: ${f.problem}`);
      continue;
    }
    const one = loadFile(name, f.text);
    for (const x of one.problems) problems.push(x);
    for (const x of one.loaded.guardrails) out.guardrails.push(x);
    for (const x of one.loaded.workspaceDefaults) out.workspaceDefaults.push(x);
    for (const x of one.loaded.policies) out.policies.push(x);
    for (const x of one.loaded.workspaceWidePolicies) out.workspaceWidePolicies.push(x);
    for (const d of one.declared) declared.push(d);
    for (const d of one.defaults) defaults.push(d);
  }
  for (const x of crossFileProblems(declared, defaults)) problems.push(x);
  if (problems.length > 0) throw new DeclarativeConfigError(problems.sort(byPosition));
  return out;
}

interface FileOutcome {
  problems: string[];
  loaded: LoadedFiles;
  declared: Declared[];
  defaults: DeclaredDefault[];
}

const NOTHING: LoadedFiles = { guardrails: [], workspaceDefaults: [], policies: [], workspaceWidePolicies: [] };

/** One file: its own problems, what it declares (for the cross-file checks), and its guardrails when valid. */
function loadFile(file: string, text: string): FileOutcome {
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
  const none = { loaded: NOTHING, declared: [], defaults: [] };
  let js: unknown;
  if (fast) js = fast.value;
  else {
    const { doc } = parsed();
    if (doc.errors.length > 0) return { problems: doc.errors.map((e) => parseProblem(parsed(), e)), ...none };
    try {
      js = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      return {
        problems: [
          `${file}:1:1: cannot be read as data: ${(err as Error).message} (at most ${MAX_ALIAS_COUNT} alias expansions)`,
        ],
        ...none,
      };
    }
  }
  const problems: string[] = [];
  const coerced = fast ? new Set<string>() : coercedIds(parsed(), problems);
  const result = guardrailFileSchema.safeParse(js, { reportInput: true });
  for (const issue of [...protoKeyIssues(js), ...(result.success ? [] : result.error.issues)]) {
    if (coerced.has(formatPath(issue.path))) continue;
    for (const x of issueProblems(parsed(), issue)) problems.push(x);
  }
  const where = (path: readonly PropertyKey[], want: "key" | "value") => positionOf(parsed(), path, want);
  const declared = declaredIn(js, where);
  const defaults = [...defaultsIn(js, where), ...policyIdsIn(js, where)];
  if (!result.success || coerced.size > 0 || problems.length > 0)
    return { problems, loaded: NOTHING, declared, defaults };
  const located = <T extends object>(entry: T, path: string[]): T & { at: Located } =>
    Object.defineProperty(entry, "at", { enumerable: true, get: () => where(path, "key") }) as T & { at: Located };
  const loaded: LoadedFiles = {
    guardrails: Object.entries(result.data.guardrails ?? {}).map(([id, settings]) =>
      located({ id, settings }, ["guardrails", id]),
    ),
    workspaceDefaults: Object.entries(result.data.workspaceDefaults ?? {}).map(([workspace, settings]) =>
      located({ workspace, settings }, ["workspaceDefaults", workspace]),
    ),
    policies: Object.entries(result.data.policies ?? {}).flatMap(([workspace, kinds]) =>
      Object.entries(kinds).flatMap(([word, byId]) =>
        Object.entries(byId ?? {}).map(([id, settings]) =>
          located({ workspace, type: policyTypeOfSection(word)!, id, settings: settings as DeclaredPolicy }, [
            "policies",
            workspace,
            word,
            id,
          ]),
        ),
      ),
    ),
    workspaceWidePolicies: Object.entries(result.data.workspaceWidePolicies ?? {}).map(([id, settings]) =>
      located({ id, settings }, ["workspaceWidePolicies", id]),
    ),
  };
  return { problems, loaded, declared, defaults };
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
