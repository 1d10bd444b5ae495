/**
 * zod issues of a declarative file as problems a person can act on: `file:line:column`, the
 * path in the file, what is expected and what was written (never a whole file quoted).
 */
import { closest, formatPath, shown } from "../core/args/messages";
import { at, offsetOf, type ParsedFile } from "./source-positions";
import { KNOWN_KEYS } from "./file-schema";

type Issue = import("zod").core.$ZodIssue;

/** Longest key shown in a path: a hostile file's key may be megabytes long. */
const MAX_KEY_SHOWN = 80;

/** A path for a problem, each overlong key cut (`aaaa...`); invisible characters are escaped with the whole problem. */
const pathShown = (path: readonly PropertyKey[]): string =>
  formatPath(
    path.map((seg) =>
      typeof seg === "string" && seg.length > MAX_KEY_SHOWN ? `${seg.slice(0, MAX_KEY_SHOWN - 3)}...` : seg,
    ),
  );

/** One zod issue as its problems (an unknown-keys issue is one per key, each with a did-you-mean). */
export function issueProblems(parsed: ParsedFile, issue: Issue): string[] {
  const { doc } = parsed;
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const guess = closest(key, knownAt(issue.path));
      const suggestion = guess && guess !== key ? `; did you mean "${guess}"?` : "";
      return `${at(parsed, offsetOf(doc, [...issue.path, key], "key"))}: ${pathShown([...issue.path, key])}: unknown field${suggestion}`;
    });
  }
  const input = "input" in issue ? issue.input : undefined;
  const missing =
    (issue.code === "invalid_type" && input === undefined) ||
    (issue.code === "custom" && issue.params?.missing === true);
  // The whole file's value is described, never quoted: a wrong top level is usually a file that is not a config at all.
  const got =
    input === undefined || missing
      ? ""
      : issue.path.length === 0
        ? ` (got ${describe(input)})`
        : ` (got ${shown(input)})`;
  const path = issue.path.length > 0 ? pathShown(issue.path) : "(file)";
  // A bad record key: zod nests the key's own issue; its message is the useful one.
  const message =
    issue.code === "invalid_key"
      ? (issue.issues[0]?.message ?? issue.message)
      : missing && issue.code === "invalid_type"
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
  if (path[0] === "policies") {
    if (path.length === 2) return KNOWN_KEYS.workspacePolicies;
    if (path.length === 4) return KNOWN_KEYS.policy[String(path[2])] ?? [];
  }
  if (path[0] === "workspaceWidePolicies" && path.length === 2) return KNOWN_KEYS.workspaceWide;
  if (path.length === 2) return path[0] === "workspaceDefaults" ? KNOWN_KEYS.workspaceDefault : KNOWN_KEYS.guardrail;
  const last = path[path.length - 1];
  if (path.length === 3 && (last === "members" || last === "keys")) return KNOWN_KEYS.set;
  if (path.includes("contentFilterBuiltins")) return KNOWN_KEYS.builtin;
  if (path.includes("contentFilters")) return KNOWN_KEYS.filter;
  return [];
}

/** Orders `file:line:column: ...` messages by file, then line, then column. */
export function byPosition(a: string, b: string): number {
  const key = (m: string) => /^(.*?):(\d+):(\d+): /.exec(m) ?? ["", m.split(": ")[0] ?? m, "0", "0"];
  const [, fa = "", la = "0", ca = "0"] = key(a);
  const [, fb = "", lb = "0", cb = "0"] = key(b);
  return fa.localeCompare(fb) || Number(la) - Number(lb) || Number(ca) - Number(cb);
}
