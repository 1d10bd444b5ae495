/**
 * zod issues -> failures a person can act on: the camelCase property path, what is expected,
 * and what was received, except under an arg that holds a secret (`SECRET_ARGS`).
 */
import type { z } from "zod";
import { escapeInvisible } from "../text/controls";

export interface PropertyFailure {
  /** camelCase path, e.g. `contentFilterBuiltins[1].action`. */
  property: string;
  reason: string;
  /**
   * The arg at the path's root holds a secret: the reason quotes none of it, and a face must
   * not let its engine print the value beside the path (the dynamic face's `forEngine`, the
   * native face's `wireFailure`). The core marks it (`markSecret`); each face formats it.
   */
  secret?: true;
}

export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, part) => {
    if (typeof part === "number") return `${acc}[${part}]`;
    // A key the program invented (an unknown arg) is outside text: every invisible character
    // escaped (`\u001b`), so none can drive a terminal, and cut at 80 characters.
    const raw = escapeInvisible(String(part));
    const name = raw.length > 80 ? `${raw.slice(0, 77)}...` : raw;
    return acc ? `${acc}.${name}` : name;
  }, "");
}

/**
 * A property path as every language writes it, for a face whose program may be in any of them:
 * the schema's camelCase name, then the Python and Go names where they differ from it
 * (`limitUsd (limit_usd in Python, LimitUsd in Go)`). The engine tells a provider nothing of the
 * program's language (no field of Configure or Check carries it), so a message names them all;
 * a one-word path (`name`, `exclusive`) reads the same in each (Go's capital aside) and stays bare.
 */
export function namedInEveryLanguage(property: string): string {
  const also = otherLanguagesName(property);
  return also ? `${property} (${also})` : property;
}

/** A path of the schema's names: letters and digits, `.` and `[n]`. */
const PLAIN_PATH = /^[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*|\[\d+\])*$/;

/**
 * The Python and Go names of a multi-word path (`limit_usd in Python, LimitUsd in Go`), or
 * undefined for a path every language writes alike. An invoke's failure carries it in its
 * property, which every SDK prints after the reason in parentheses: `reason (memberUserId;
 * member_user_id in Python, MemberUserId in Go)`.
 *
 * Only a path of names as the schema writes them (letters and digits, `.` and `[n]`): an unknown
 * arg's name is shown escaped and cut (formatPath), and has no spelling in another language.
 */
export function otherLanguagesName(property: string): string | undefined {
  if (!/[A-Z]/.test(property) || !PLAIN_PATH.test(property)) return undefined;
  const each = (f: (segment: string) => string) => property.replace(/[A-Za-z][A-Za-z0-9]*/g, f);
  const python = each((s) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  const go = each((s) => s[0]!.toUpperCase() + s.slice(1));
  return `${python} in Python, ${go} in Go`;
}

/** A value for a message: JSON, with what JSON leaves raw and a terminal acts on escaped (text/controls.ts); cut at 80 characters. */
export function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  // JSON has no NaN or Infinity: JSON.stringify would print them as null.
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return `${value}n`;
  // JSON.stringify gives undefined for what JSON cannot hold (a function, a symbol).
  const text = escapeInvisible(JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The hidden input in which a resource class records which of its args hold a secret
 * (secret-args.ts). The dynamic-provider host accepts no secrets (`acceptSecrets: false`,
 * @pulumi/pulumi 3.139 through 3.259 at least), so the engine strips the marks and `check`
 * gets every value in plain text: without this record it cannot tell a secret from the rest.
 */
export const SECRET_ARGS = "__secretArgs";

/**
 * Whether the arg at the root of a path may hold a secret, from the props' `SECRET_ARGS`
 * record: none when there is no record, every arg when the record cannot be read (unknown
 * during preview, or not a list of names), so a value is quoted only when known not secret.
 */
export function secretArgsOf(props: Record<string, unknown>): (root: string) => boolean {
  const record = props[SECRET_ARGS];
  if (record === undefined) return () => false;
  if (!Array.isArray(record) || !record.every((n) => typeof n === "string")) return () => true;
  const names = new Set<string>(record);
  return (root) => names.has(root);
}

/** The failures, each under an arg that holds a secret marked `secret` (the reasons are already free of its value). */
export function markSecret(
  failures: readonly PropertyFailure[],
  isSecret: (root: string) => boolean,
): PropertyFailure[] {
  return failures.map((f) => (f.secret || isSecret(rootOf(f.property)) ? { ...f, secret: true } : f));
}

/** The top-level arg a property path starts with (`contentFilterBuiltins[1].action` -> `contentFilterBuiltins`). */
export const rootOf = (property: string): string => property.split(/[.[]/)[0] ?? property;

/** The default `isSecret`: no arg holds a secret. */
const noSecrets = (): boolean => false;

/**
 * Whether the engine finds a value for a failure's property: only a top-level input that is set.
 * A deeper path (`contentFilterBuiltins[0].action`) or an input not given prints as
 * `value {<nil>}` beside the reason (issue 38), so such a failure goes with its path in the reason.
 */
export function namesAnInput(property: string, inputs: Readonly<Record<string, unknown>>): boolean {
  return (
    property !== "" && rootOf(property) === property && Object.hasOwn(inputs, property) && inputs[property] != null
  );
}

/**
 * @param known property names at the root, for did-you-mean suggestions on unknown ones.
 * @param isSecret whether the arg at a root holds a secret: then its value is never quoted.
 */
export function issuesToFailures(
  error: { issues: readonly z.core.$ZodIssue[] },
  known: readonly string[] = [],
  isSecret: (root: string) => boolean = noSecrets,
): PropertyFailure[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => {
        const nearest = issue.path.length === 0 ? closest(key, known) : undefined;
        // Never suggest the very name that was rejected (a name known elsewhere).
        const guess = nearest !== key ? nearest : undefined;
        // A key that is empty or only blanks still gets a visible name.
        const shownKey = key.trim() === "" ? JSON.stringify(key) : key;
        return {
          property: formatPath([...issue.path, shownKey]),
          reason: `unknown property${guess ? `; did you mean "${guess}"?` : ""}`,
        };
      });
    }
    const property = formatPath(issue.path);
    const input = "input" in issue ? issue.input : undefined;
    const got = "input" in issue && !isSecret(String(issue.path[0] ?? "")) ? ` (got ${shown(input)})` : "";
    // zod calls NaN and ±Infinity "not a number"; the person needs to hear "not finite".
    if (issue.code === "invalid_type" && "input" in issue && input === undefined)
      return [{ property, reason: "is required" }];
    const message =
      issue.code === "invalid_type" && typeof input === "number" && !Number.isFinite(input)
        ? "must be a finite number"
        : issue.message;
    return [{ property, reason: `${message}${got}` }];
  });
}

/** The known name nearest to `word` (edit distance at most a third of its length), if any. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * How a message names a resource by its `name` arg: the name (`shown`), unless a props bag (the
 * program's args, the state) holds it secret; then the resource's own name when the face passed
 * it (`__resource`: a URN or `project/stack/name`), else `[secret]`. Never the secret's value.
 */
export function nameInMessages(name: unknown, ...bags: Array<Record<string, unknown> | null | undefined>): string {
  if (!bags.some((b) => b && secretArgsOf(b)("name"))) return shown(name);
  const resource = bags.map((b) => b?.__resource).find((r): r is string => typeof r === "string" && r !== "");
  const own = resource?.startsWith("urn:") ? resource.split("::").pop() : resource?.split("/").slice(2).join("/");
  return own ? `[secret] (resource ${shown(own)})` : "[secret]";
}
